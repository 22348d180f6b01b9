package strictjson

import (
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Format is a JSON Schema "format" that generated code asserts. Valid agrees exactly with the format
// assertions of github.com/santhosh-tekuri/jsonschema/v6 (the validator winkgen's tests check schemas
// with), quirks included; the tests compare both on fuzzed input.
type Format uint8

// The supported formats.
const (
	FormatDateTime Format = iota + 1 // "date-time" (RFC 3339)
	FormatDate                       // "date" (RFC 3339 full-date)
	FormatTime                       // "time" (RFC 3339 full-time)
	FormatDuration                   // "duration" (RFC 3339 appendix A / ISO 8601)
	FormatEmail                      // "email"
	FormatHostname                   // "hostname"
	FormatIPv4                       // "ipv4"
	FormatIPv6                       // "ipv6"
	FormatUUID                       // "uuid"
	FormatURI                        // "uri" (absolute)
)

var formatNames = [...]string{
	FormatDateTime: "date-time",
	FormatDate:     "date",
	FormatTime:     "time",
	FormatDuration: "duration",
	FormatEmail:    "email",
	FormatHostname: "hostname",
	FormatIPv4:     "ipv4",
	FormatIPv6:     "ipv6",
	FormatUUID:     "uuid",
	FormatURI:      "uri",
}

var formatMessages = [...]string{
	FormatDateTime: dateTimeMsg,
	FormatDate:     `must be a valid date (RFC 3339 full-date, e.g. "2026-01-02")`,
	FormatTime:     `must be a valid time (RFC 3339 full-time, e.g. "15:04:05Z")`,
	FormatDuration: `must be a valid duration (ISO 8601, e.g. "P1DT2H")`,
	FormatEmail:    "must be a valid email address",
	FormatHostname: "must be a valid hostname",
	FormatIPv4:     "must be a valid IPv4 address",
	FormatIPv6:     "must be a valid IPv6 address",
	FormatUUID:     `must be a valid UUID (e.g. "123e4567-e89b-12d3-a456-426614174000")`,
	FormatURI:      `must be a valid absolute URI (e.g. "https://example.com/path")`,
}

// FormatByName returns the Format with the JSON Schema name ("date-time", "email", ...).
func FormatByName(name string) (Format, bool) {
	for f, n := range formatNames {
		if n != "" && n == name {
			return Format(f), true
		}
	}
	return 0, false
}

// Name returns the JSON Schema name of f ("" for an unknown Format).
func (f Format) Name() string {
	if int(f) < len(formatNames) {
		return formatNames[f]
	}
	return ""
}

// Valid reports whether s satisfies the format (an unknown Format accepts everything, as JSON Schema
// does for unknown formats).
func (f Format) Valid(s string) bool {
	switch f {
	case FormatDateTime:
		return validDateTime(s)
	case FormatDate:
		return validDate(s)
	case FormatTime:
		_, ok := parseTime(s)
		return ok
	case FormatDuration:
		return validDuration(s)
	case FormatEmail:
		return validEmail(s)
	case FormatHostname:
		return validHostname(s)
	case FormatIPv4:
		return validIPv4(s)
	case FormatIPv6:
		return validIPv6(s)
	case FormatUUID:
		return validUUID(s)
	case FormatURI:
		return validURI(s)
	}
	return true
}

// CheckFormat records, when s does not satisfy f, the format's message at the current path, e.g.
// `must be a valid email address; got "x"`, and returns false.
func (d *Decoder) CheckFormat(s string, f Format) bool {
	if f.Valid(s) {
		return true
	}
	msg := "must be a valid " + f.Name()
	if int(f) < len(formatMessages) {
		msg = formatMessages[f]
	}
	d.FailString(msg, s)
	return false
}

func validDateTime(s string) bool {
	if len(s) < 20 || (s[10] != 't' && s[10] != 'T') {
		return false
	}
	if !validDate(s[:10]) {
		return false
	}
	_, ok := parseTime(s[11:])
	return ok
}

// validDate is time.Parse("2006-01-02", s) == nil.
func validDate(s string) bool {
	_, _, _, ok := parseDate(s)
	return ok
}

func parseDate(s string) (y, m, d int, ok bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return
	}
	for _, i := range [...]int{0, 1, 2, 3, 5, 6, 8, 9} {
		if s[i] < '0' || s[i] > '9' {
			return
		}
	}
	y = int(s[0]-'0')*1000 + int(s[1]-'0')*100 + int(s[2]-'0')*10 + int(s[3]-'0')
	m = int(s[5]-'0')*10 + int(s[6]-'0')
	d = int(s[8]-'0')*10 + int(s[9]-'0')
	if m < 1 || m > 12 || d < 1 || d > daysIn(m, y) {
		return
	}
	return y, m, d, true
}

func daysIn(m, y int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// clock is a parsed RFC 3339 full-time.
type clock struct {
	h, m, s int
	frac    string // fraction digits
	utc     bool   // "Z"/"z"
	offset  int    // seconds east of UTC
}

// atoi2 is strconv.Atoi on a two-byte token, rejecting negatives (so "+1" and "-0" pass, as in the
// reference validator).
func atoi2(tok string) (int, bool) {
	n, err := strconv.Atoi(tok)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

func parseTime(str string) (c clock, ok bool) {
	if len(str) < 9 || str[2] != ':' || str[5] != ':' {
		return
	}
	h, ok1 := atoi2(str[0:2])
	m, ok2 := atoi2(str[3:5])
	s, ok3 := atoi2(str[6:8])
	if !ok1 || !ok2 || !ok3 || h > 23 || m > 59 || s > 60 {
		return c, false
	}
	c.h, c.m, c.s = h, m, s
	str = str[8:]
	if rem, found := strings.CutPrefix(str, "."); found {
		n := 0
		for n < len(rem) && rem[n] >= '0' && rem[n] <= '9' {
			n++
		}
		if n == 0 {
			return c, false
		}
		c.frac = rem[:n]
		str = rem[n:]
	}
	if str == "z" || str == "Z" {
		c.utc = true
	} else {
		if len(str) != 6 {
			return c, false
		}
		sign := 0
		switch str[0] {
		case '+':
			sign = -1
		case '-':
			sign = +1
		default:
			return c, false
		}
		str = str[1:]
		if str[2] != ':' {
			return c, false
		}
		zh, ok1 := atoi2(str[0:2])
		zm, ok2 := atoi2(str[3:5])
		if !ok1 || !ok2 || zh > 23 || zm > 59 {
			return c, false
		}
		c.offset = -sign * (zh*3600 + zm*60)
		hm := (h*60 + m) + sign*(zh*60+zm)
		if hm < 0 {
			hm += 24 * 60
		}
		h, m = hm/60, hm%60
	}
	if s >= 60 && (h != 23 || m != 59) {
		return c, false
	}
	return c, true
}

func parseDateTime(s string) (time.Time, bool) {
	if !validDateTime(s) {
		return time.Time{}, false
	}
	y, mo, d, _ := parseDate(s[:10])
	c, _ := parseTime(s[11:])
	ns := 0
	for i := 0; i < 9; i++ {
		ns *= 10
		if i < len(c.frac) {
			ns += int(c.frac[i] - '0')
		}
	}
	loc := time.UTC
	if !c.utc {
		loc = time.FixedZone("", c.offset)
	}
	sec := c.s
	if sec == 60 {
		// A leap second (23:59:60Z) cannot be a time.Time; it becomes the last instant of its minute, so the
		// value stays in its own day and re-encodes as a valid date-time (rolling over to the next minute
		// would turn 9999-12-31T23:59:60Z into year 10000, which no RFC 3339 text can express).
		sec, ns = 59, 999_999_999
	}
	return time.Date(y, time.Month(mo), d, c.h, c.m, sec, ns, loc), true
}

func validDuration(s string) bool {
	s, ok := strings.CutPrefix(s, "P")
	if !ok || s == "" {
		return false
	}
	if w, ok := strings.CutSuffix(s, "W"); ok {
		if w == "" {
			return false
		}
		for i := 0; i < len(w); i++ {
			if w[i] < '0' || w[i] > '9' {
				return false
			}
		}
		return true
	}
	date, tm, hasT := strings.Cut(s, "T")
	if !durationPart(date, "YMD") {
		return false
	}
	if !hasT {
		return true
	}
	if tm == "" || strings.IndexByte(tm, 'T') >= 0 {
		return false
	}
	return durationPart(tm, "HMS")
}

func durationPart(s, units string) bool {
	for s != "" {
		n := 0
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		if n == 0 {
			return false
		}
		s = s[n:]
		if s == "" {
			return false
		}
		j := strings.IndexByte(units, s[0])
		if j < 0 {
			return false
		}
		units = units[j+1:]
		s = s[1:]
	}
	return true
}

func validIPv4(s string) bool {
	for i := 0; i < 4; i++ {
		group := s
		dot := strings.IndexByte(s, '.')
		if i < 3 {
			if dot < 0 {
				return false
			}
			group, s = s[:dot], s[dot+1:]
		} else if dot >= 0 {
			return false
		}
		if len(group) > 1 && group[0] == '0' {
			return false
		}
		n, err := strconv.Atoi(group)
		if err != nil || n < 0 || n > 255 {
			return false
		}
	}
	return true
}

func validIPv6(s string) bool {
	if strings.IndexByte(s, ':') < 0 {
		return false
	}
	addr, err := netip.ParseAddr(s)
	return err == nil && addr.Zone() == ""
}

func validHostname(s string) bool {
	s = strings.TrimSuffix(s, ".")
	if len(s) > 253 {
		return false
	}
	for {
		label, rest, more := strings.Cut(s, ".")
		if len(label) < 1 || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
		if !more {
			return true
		}
		s = rest
	}
}

func validEmail(s string) bool {
	if len(s) > 254 {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	if at < 0 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	if len(local) > 64 {
		return false
	}
	if len(local) > 1 && local[0] == '"' && local[len(local)-1] == '"' {
		q := local[1 : len(local)-1]
		if strings.IndexByte(q, '\\') >= 0 || strings.IndexByte(q, '"') >= 0 {
			return false
		}
	} else {
		if strings.HasPrefix(local, ".") || strings.HasSuffix(local, ".") || strings.Contains(local, "..") {
			return false
		}
		for _, ch := range local {
			switch {
			case ch >= 'a' && ch <= 'z', ch >= 'A' && ch <= 'Z', ch >= '0' && ch <= '9':
			case ch < 0x80 && strings.IndexByte(".!#$%&'*+-/=?^_`{|}~", byte(ch)) >= 0:
			default:
				return false
			}
		}
	}
	if len(domain) >= 2 && domain[0] == '[' && domain[len(domain)-1] == ']' {
		domain = domain[1 : len(domain)-1]
		if rem, ok := strings.CutPrefix(domain, "IPv6:"); ok {
			return validIPv6(rem)
		}
		return validIPv4(domain)
	}
	return validHostname(domain)
}

// validUUID: five groups of 8-4-4-4-12 hex digits separated by '-'.
func validUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return false
			}
			continue
		}
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func validURI(s string) bool {
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	if host := u.Hostname(); strings.IndexByte(host, ':') >= 0 {
		if !strings.Contains(u.Host, "[") || !strings.Contains(u.Host, "]") || !validIPv6(host) {
			return false
		}
	}
	return u.IsAbs()
}
