// Package goflags reads and writes a GOFLAGS value the way the go command does: a space-separated list of
// flags, each of which may be wrapped whole in single or double quotes to hold spaces
// (GOFLAGS="'-gcflags=all=-N -l' -race"), with no escapes inside the quotes. The repository's tools that
// pass part of the surrounding GOFLAGS on to the go commands they start (internal/crosscheck, the
// generator's new-user test) filter it with Split and Join, so a quoted flag reaches them whole.
package goflags

import (
	"errors"
	"strings"
)

// Split returns the flags of a GOFLAGS value, quotes removed, or an error for a quote left open.
func Split(s string) ([]string, error) {
	var flags []string
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		if s == "" {
			return flags, nil
		}
		if q := s[0]; q == '\'' || q == '"' {
			end := strings.IndexByte(s[1:], q)
			if end < 0 {
				return nil, errors.New("goflags: GOFLAGS has an unterminated " + string(q) + " string")
			}
			flags = append(flags, s[1:1+end])
			s = s[2+end:]
			continue
		}
		end := strings.IndexAny(s, " \t\r\n")
		if end < 0 {
			end = len(s)
		}
		flags = append(flags, s[:end])
		s = s[end:]
	}
}

// Join returns a GOFLAGS value that Split reads back as flags: a flag with a space or a quote is
// wrapped in the quote it does not contain. A flag that holds both quotes and a space cannot be written;
// Join reports it.
func Join(flags []string) (string, error) {
	var b strings.Builder
	for i, f := range flags {
		if i > 0 {
			b.WriteByte(' ')
		}
		if !strings.ContainsAny(f, " \t\r\n'\"") {
			b.WriteString(f)
			continue
		}
		q := "'"
		if strings.Contains(f, "'") {
			q = `"`
			if strings.Contains(f, `"`) {
				return "", errors.New("goflags: " + f + " holds both kinds of quote and cannot be put in GOFLAGS")
			}
		}
		b.WriteString(q + f + q)
	}
	return b.String(), nil
}
