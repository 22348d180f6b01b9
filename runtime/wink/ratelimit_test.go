package wink_test

import (
	"strings"
	"testing"
	"time"

	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

func TestRetryTextRoundsUpForAReader(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "1ms", time.Microsecond: "1ms", 1500 * time.Microsecond: "2ms", 999 * time.Millisecond: "999ms",
		time.Second: "1s", 1501 * time.Millisecond: "1.6s", 59 * time.Second: "59s", 59990 * time.Millisecond: "60s",
		time.Minute: "1m", 61 * time.Second: "1m1s", 20 * time.Minute: "20m", time.Hour + 2*time.Minute + 4500*time.Millisecond: "1h2m5s",
		25 * time.Hour: "25h",
	} {
		if got := wink.RetryText(d); got != want {
			t.Errorf("RetryText(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestRateValidateAndString(t *testing.T) {
	for _, tc := range []struct {
		r          wink.Rate
		str, fault string
	}{
		{wink.Rate{Count: 10, Per: time.Second}, "10/s", ""},
		{wink.Rate{Count: 100, Per: time.Minute, Burst: 20}, "100/m burst=20", ""},
		{wink.Rate{Count: 5, Per: 10 * time.Second, Burst: 5}, "5/10s", ""},
		{wink.Rate{}, "0/0s", ""},
		{wink.Rate{Count: 0, Per: time.Second}, "0/s", "rate count 0 must be at least 1"},
		{wink.Rate{Count: 1, Per: time.Microsecond}, "1/1µs", "rate period 1µs must be at least 1ms"},
		{wink.Rate{Count: 1, Per: time.Second, Burst: -1}, "1/s", "burst -1 must not be negative"},
		{wink.Rate{Count: 2_000_000, Per: time.Second}, "2000000/s", "more than a million calls a second"},
	} {
		if got := tc.r.String(); got != tc.str {
			t.Errorf("%#v.String() = %q, want %q", tc.r, got, tc.str)
		}
		err := tc.r.Validate()
		if (err == nil) != (tc.fault == "") || err != nil && !strings.Contains(err.Error(), tc.fault) {
			t.Errorf("%#v.Validate() = %v, want %q", tc.r, err, tc.fault)
		}
	}
	defer func() {
		if p := recover(); p == nil || !strings.Contains(p.(string), `tool "x": rate count 0 must be at least 1`) {
			t.Errorf("NewTool with an invalid rate: panic %v", p)
		}
	}()
	wink.NewTool(wink.Spec{Name: "x", Rate: wink.Rate{Per: time.Second}}, &wink.Funcs[struct{}, wink.NoValue]{
		Decode:       func(*strictjson.Decoder, *struct{}) {},
		EncodeResult: wink.EncodeNoValue,
		Handler: func(*wink.ToolContext, struct{}) (wink.ToolResult[wink.NoValue], error) {
			return wink.ToolResult[wink.NoValue]{}, nil
		},
	})
}
