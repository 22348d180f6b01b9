package strictjson

import "time"

// DurationPattern is the JSON Schema pattern of a duration string, what Duration accepts: Go's duration
// syntax (time.ParseDuration) without its leniencies: an optional "-", then one or more decimal numbers each
// with a unit ("ns", "us", "µs", "ms", "s", "m", "h"), or "0". A number has digits before any fraction and
// after a point. This is also what AppendDuration writes (time.Duration.String).
const DurationPattern = `^(?:0|-?(?:[0-9]+(?:\.[0-9]+)?(?:ns|us|µs|ms|s|m|h))+)$`

const durationMsg = `must be a duration such as "1h30m", "90s" or "250ms" (units h, m, s, ms, us, ns)`

// Duration decodes a duration string (see DurationPattern) into a time.Duration; a string of another form,
// or one out of the range of time.Duration (about ±292 years), is an error naming the expected form.
func (d *Decoder) Duration() (time.Duration, bool) {
	s, ok := d.String()
	if !ok {
		return 0, false
	}
	v, msg := ParseDuration(s)
	if msg != "" {
		d.FailString(msg, s)
		return 0, false
	}
	return v, true
}

// ParseDuration parses a duration string of the form DurationPattern states. On failure it returns the
// message the decoder reports.
func ParseDuration(s string) (time.Duration, string) {
	if !durationSyntax(s) {
		return 0, durationMsg
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return 0, "must be a duration within ±2562047h (about 292 years)"
	}
	return v, ""
}

// durationSyntax reports whether s matches DurationPattern.
func durationSyntax(s string) bool {
	if s == "0" {
		return true
	}
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for s != "" {
		i := digits(s)
		if i == 0 {
			return false
		}
		s = s[i:]
		if s != "" && s[0] == '.' {
			j := digits(s[1:])
			if j == 0 {
				return false
			}
			s = s[1+j:]
		}
		n := unitLen(s)
		if n == 0 {
			return false
		}
		s = s[n:]
	}
	return true
}

func digits(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// unitLen returns the length of the unit s starts with (longest first), or 0.
func unitLen(s string) int {
	for _, u := range [...]string{"ns", "us", "µs", "ms", "s", "m", "h"} {
		if len(s) >= len(u) && s[:len(u)] == u {
			return len(u)
		}
	}
	return 0
}

// AppendDuration appends v as a JSON duration string (time.Duration.String, which DurationPattern accepts
// and Duration decodes to v again).
func AppendDuration(dst []byte, v time.Duration) []byte {
	dst = append(dst, '"')
	dst = append(dst, v.String()...)
	return append(dst, '"')
}
