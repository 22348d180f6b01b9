package strictjson_test

import (
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/strictjson"
)

// Duration accepts exactly what DurationPattern states, and what AppendDuration writes decodes to the same
// value and matches the pattern.
func TestDurationAgreesWithItsPattern(t *testing.T) {
	re := regexp.MustCompile(strictjson.DurationPattern)
	inputs := []string{"0", "0s", "1h30m", "1.5s", "-1m0s", "250ms", "1us", "1µs", "2h45m30.5s", "9223372036854775807ns",
		"", "-", "1", "s", "1.s", ".5s", "+1s", "1x", "1 s", "1h ", "00", "-0", "1e3s", "1μs", "9223372036854775808ns",
		"3000000h", "1h-1m", "--1s"}
	for _, in := range inputs {
		var d strictjson.Decoder
		d.Reset([]byte(strconv.Quote(in)), strictjson.Limits{})
		v, ok := d.Duration()
		err := d.Finish()
		matches := re.MatchString(in)
		if ok != (err == nil) {
			t.Fatalf("%q: ok %v but errors %v", in, ok, err)
		}
		if ok && !matches {
			t.Errorf("%q: decoded to %v but the pattern refuses it", in, v)
		}
		if !ok && matches {
			if _, perr := time.ParseDuration(in); perr == nil {
				t.Errorf("%q: the pattern accepts it but the decoder refuses: %v", in, err)
			}
		}
	}
	for _, v := range []time.Duration{0, 1, -1, time.Microsecond, 1500 * time.Millisecond, 90 * time.Minute,
		1<<63 - 1, -1 << 63, 36*time.Hour + 5*time.Nanosecond} {
		b := strictjson.AppendDuration(nil, v)
		s, _ := strconv.Unquote(string(b))
		if !re.MatchString(s) {
			t.Errorf("AppendDuration(%d) = %s, which the pattern refuses", v, b)
		}
		var d strictjson.Decoder
		d.Reset(b, strictjson.Limits{})
		got, ok := d.Duration()
		if err := d.Finish(); !ok || err != nil || got != v {
			t.Errorf("%s decodes to %v (%v), want %v", b, got, err, v)
		}
	}
	var d strictjson.Decoder
	d.Reset([]byte(`"1.s"`), strictjson.Limits{})
	d.Duration()
	want := `must be a duration such as "1h30m", "90s" or "250ms" (units h, m, s, ms, us, ns); got "1.s"`
	if err := d.Finish(); err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}
