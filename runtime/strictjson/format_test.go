package strictjson

import (
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

var allFormats = []Format{FormatDateTime, FormatDate, FormatTime, FormatDuration, FormatEmail, FormatHostname,
	FormatIPv4, FormatIPv6, FormatUUID, FormatURI}

var refSchemas = map[Format]*jsonschema.Schema{}

// refValid runs the reference validator; a panic in it counts as "invalid".
func refValid(t testing.TB, f Format, s string) (ok bool) {
	sch := refSchemas[f]
	if sch == nil {
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		if err := c.AddResource("f.json", map[string]any{"format": f.Name()}); err != nil {
			t.Fatal(err)
		}
		var err error
		if sch, err = c.Compile("f.json"); err != nil {
			t.Fatal(err)
		}
		refSchemas[f] = sch
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return sch.Validate(s) == nil
}

var formatSamples = []string{
	"", "x", "2026-01-02T15:04:05Z", "2026-01-02t15:04:05z", "2026-01-02T15:04:05.123456789+05:30",
	"2026-02-29T00:00:00Z", "2024-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-02T24:00:00Z",
	"2026-12-31T23:59:60Z", "2026-12-31T22:59:60-01:00", "2026-12-31T23:59:60+01:00", "2026-01-02 15:04:05Z",
	"2026-01-02T15:04:05", "2026-01-02T15:04:05.Z", "2026-01-02T+1:00:00Z", "2026-01-02T-0:00:00Z",
	"2026-01-02", "0000-02-29", "1900-02-29", "2026-1-02", "2026-01-32", "15:04:05Z", "15:04:05.5-08:00",
	"+1:+2:+3Z", "-1:00:00Z", "23:59:60Z", "12:00:00+24:00", "12:00:00+23:60",
	"P1D", "PT1H", "P1Y2M3DT4H5M6S", "P1W", "PW", "P", "PT", "P1DT", "P1H", "P1M1Y", "PT1H1H", "P1DT1HT1S", "P1.5D",
	"a@b.com", "a.b@c.d", ".a@b.com", "a..b@c.com", `"quoted"@x.com`, `"q\"x"@x.com`, "a@[127.0.0.1]",
	"a@[IPv6:::1]", "a@[", "a@[]", "a@-x.com", "a@x", "@x.com", "a@", "é@x.com", strings.Repeat("a", 65) + "@x.com",
	"example.com", "example.com.", "-a.com", "a-.com", "a..com", strings.Repeat("a", 64) + ".com", "a_b.com",
	"127.0.0.1", "256.0.0.1", "01.2.3.4", "+1.2.3.4", "-0.0.0.0", "1.2.3", "1.2.3.4.5", "1.2.3.-1",
	"::1", "fe80::1%eth0", "2001:db8::", "1.2.3.4", "::ffff:1.2.3.4", ":::",
	"123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000", "123e4567e89b12d3a456426614174000",
	"123e4567-e89b-12d3-a456-42661417400g", "123e4567-e89b-12d3-a456_426614174000",
	"https://example.com/path", "mailto:a@b.com", "/relative", "http://[::1]:80/", "http://::1/", "http://[zz]/",
	"http://a b", "urn:isbn:123", "http:", "://x",
}

func TestFormatsAgreeWithTheReferenceValidator(t *testing.T) {
	for _, f := range allFormats {
		for _, s := range formatSamples {
			if got, want := f.Valid(s), refValid(t, f, s); got != want {
				t.Errorf("%s.Valid(%q) = %v, reference says %v", f.Name(), s, got, want)
			}
		}
	}
}

func FuzzFormats(f *testing.F) {
	for _, s := range formatSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, fm := range allFormats {
			if got, want := fm.Valid(s), refValid(t, fm, s); got != want {
				t.Errorf("%s.Valid(%q) = %v, reference says %v", fm.Name(), s, got, want)
			}
		}
	})
}

func TestFormatNames(t *testing.T) {
	for _, f := range allFormats {
		g, ok := FormatByName(f.Name())
		if !ok || g != f {
			t.Errorf("FormatByName(%q) = %v, %v", f.Name(), g, ok)
		}
	}
	if _, ok := FormatByName("regex"); ok {
		t.Error("FormatByName accepted an unsupported format")
	}
}

func TestCheckFormatMessages(t *testing.T) {
	want := map[Format]string{
		FormatDateTime: `must be a valid date-time (RFC 3339, e.g. "2026-01-02T15:04:05Z"); got "x"`,
		FormatDate:     `must be a valid date (RFC 3339 full-date, e.g. "2026-01-02"); got "x"`,
		FormatTime:     `must be a valid time (RFC 3339 full-time, e.g. "15:04:05Z"); got "x"`,
		FormatDuration: `must be a valid duration (ISO 8601, e.g. "P1DT2H"); got "x"`,
		FormatEmail:    `must be a valid email address; got "x"`,
		FormatHostname: `must be a valid hostname; got "x"`,
		FormatIPv4:     `must be a valid IPv4 address; got "x"`,
		FormatIPv6:     `must be a valid IPv6 address; got "x"`,
		FormatUUID:     `must be a valid UUID (e.g. "123e4567-e89b-12d3-a456-426614174000"); got "x"`,
		FormatURI:      `must be a valid absolute URI (e.g. "https://example.com/path"); got "x"`,
	}
	for _, f := range allFormats {
		if f == FormatHostname {
			continue // "x" is a valid hostname
		}
		var d Decoder
		d.Reset([]byte(`{"f":"x"}`), Limits{})
		d.ObjectStart()
		for d.NextKey() {
			s, _ := d.String()
			if d.CheckFormat(s, f) {
				t.Errorf("%s accepted %q", f.Name(), s)
			}
		}
		d.ObjectEnd()
		errs := d.Finish()
		if errs == nil || errs.List[0].Path != "f" || errs.List[0].Message != want[f] {
			t.Errorf("%s: got %v, want f: %s", f.Name(), lines(errs), want[f])
		}
	}
	var d Decoder
	d.Reset([]byte(`"-bad"`), Limits{})
	s, _ := d.String()
	d.CheckFormat(s, FormatHostname)
	if errs := d.Finish(); errs == nil || errs.List[0].Message != `must be a valid hostname; got "-bad"` {
		t.Errorf("hostname: %v", lines(errs))
	}
}

func TestTimeParsesRFC3339(t *testing.T) {
	tests := []struct {
		in   string
		want time.Time
	}{
		{`"2026-01-02T15:04:05Z"`, time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)},
		{`"2026-01-02t15:04:05.123456789123z"`, time.Date(2026, 1, 2, 15, 4, 5, 123456789, time.UTC)},
		{`"2026-01-02T15:04:05.5+05:30"`, time.Date(2026, 1, 2, 15, 4, 5, 500000000, time.FixedZone("", 5*3600+30*60))},
		{`"2026-12-31T23:59:60Z"`, time.Date(2026, 12, 31, 23, 59, 59, 999_999_999, time.UTC)},
	}
	for _, tt := range tests {
		var d Decoder
		d.Reset([]byte(tt.in), Limits{})
		got, ok := d.Time()
		if errs := d.Finish(); !ok || errs != nil || !got.Equal(tt.want) {
			t.Errorf("Time(%s) = %v, %v, %v; want %v", tt.in, got, ok, lines(errs), tt.want)
		}
		if _, off := got.Zone(); true {
			_, woff := tt.want.Zone()
			if off != woff {
				t.Errorf("Time(%s) offset %d, want %d", tt.in, off, woff)
			}
		}
	}
	var d Decoder
	d.Reset([]byte(`"2026-02-30T00:00:00Z"`), Limits{})
	if _, ok := d.Time(); ok {
		t.Error("accepted February 30")
	}
}

func FuzzTimeAgreesWithDateTimeFormat(f *testing.F) {
	for _, s := range formatSamples[:30] {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseDateTime(s)
		if ok != FormatDateTime.Valid(s) {
			t.Fatalf("parseDateTime(%q) ok=%v disagrees with Valid", s, ok)
		}
		if !ok || strings.Contains(s, ":60") || strings.ContainsAny(s, "+-") && strings.Count(s, "+")+strings.Count(s, "-") > 3 {
			return
		}
		want, err := time.Parse(time.RFC3339Nano, strings.ToUpper(s))
		if err == nil && !want.Equal(got) {
			t.Fatalf("parseDateTime(%q) = %v, time.Parse says %v", s, got, want)
		}
	})
}

func TestValidDateMatchesTimeParse(t *testing.T) {
	for _, s := range []string{"2026-01-02", "0000-02-29", "0001-02-29", "2000-02-29", "2100-02-29", "2026-00-01",
		"2026-04-31", "2026-04-30", "2026-1-01", "20260-01-01", "2026-01-01 ", "-026-01-01", "+026-01-01", "2026/01/01"} {
		_, err := time.Parse("2006-01-02", s)
		if validDate(s) != (err == nil) {
			t.Errorf("validDate(%q) = %v, time.Parse error %v", s, validDate(s), err)
		}
	}
}
