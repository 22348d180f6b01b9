package annotations

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseDirectiveReadsRates(t *testing.T) {
	tests := []struct {
		text string
		want *Rate
	}{
		{`//wink:tool rate=10/s`, &Rate{Count: 10, Per: time.Second, Burst: 10, Pos: at(18)}},
		{`//wink:tool rate=100/m burst=20`, &Rate{Count: 100, Per: time.Minute, Burst: 20, HasBurst: true, Pos: at(18), BurstPos: at(30)}},
		{`//wink:tool burst=1 rate="3/h"`, &Rate{Count: 3, Per: time.Hour, Burst: 1, HasBurst: true, Pos: at(26), BurstPos: at(19)}},
		{`//wink:tool rate=5/10s`, &Rate{Count: 5, Per: 10 * time.Second, Burst: 5, Pos: at(18)}},
		{`//wink:tool rate=1/1m30s`, &Rate{Count: 1, Per: 90 * time.Second, Burst: 1, Pos: at(18)}},
		{`//wink:tool rate=1000000/s`, &Rate{Count: 1000000, Per: time.Second, Burst: 1000000, Pos: at(18)}},
		{`//wink:tool`, nil},
	}
	for _, tt := range tests {
		d, errs := ParseDirective(tt.text, base)
		if len(errs) > 0 {
			t.Errorf("ParseDirective(%q) errors: %v", tt.text, errs)
			continue
		}
		if got := d.(*Tool).Rate; !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseDirective(%q).Rate = %+v, want %+v", tt.text, got, tt.want)
		}
	}
}

func TestParseDirectiveRefusesRatesThatMakeNoSense(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{`//wink:tool rate=10`, []string{`tools.go:12:18: invalid rate "10": missing '/'; ` + rateForm}},
		{`//wink:tool rate=ten/s`, []string{`tools.go:12:18: invalid rate "ten/s": the count "ten" is not a whole number; ` + rateForm}},
		{`//wink:tool rate=-1/s`, []string{`tools.go:12:18: invalid rate "-1/s": the count "-1" is not a whole number; ` + rateForm}},
		{`//wink:tool rate=0/s`, []string{`tools.go:12:18: rate count must be at least 1: a tool that may never be called needs no rate; remove the tool or raise the count`}},
		{`//wink:tool rate=10/x`, []string{`tools.go:12:21: invalid rate period "x": expected ms, s, m, h or a duration such as 10s or 500ms; ` + rateForm}},
		{`//wink:tool rate=10/`, []string{`tools.go:12:21: invalid rate period "": expected ms, s, m, h or a duration such as 10s or 500ms; ` + rateForm}},
		{`//wink:tool rate=10/-1s`, []string{`tools.go:12:21: invalid rate period "-1s": expected ms, s, m, h or a duration such as 10s or 500ms; ` + rateForm}},
		{`//wink:tool rate=1/48h`, []string{`tools.go:12:20: rate period 48h is out of range: it must be from 1ms to 24h`}},
		{`//wink:tool rate=1/1us`, []string{`tools.go:12:20: rate period 1us is out of range: it must be from 1ms to 24h`}},
		{`//wink:tool rate=5000/ms`, []string{`tools.go:12:18: rate 5000/ms is more than a million calls a second, which no limit needs; raise the period or lower the count`}},
		{`//wink:tool rate=2000000/s`, []string{`tools.go:12:18: rate 2000000/s is more than a million calls a second, which no limit needs; raise the period or lower the count`}},
		{`//wink:tool rate=99999999999/s`, []string{`tools.go:12:18: rate count 99999999999 is too large: at most 1000000000 calls per period`}},
		{`//wink:tool rate="1/x"`, []string{`tools.go:12:18: invalid rate period "x": expected ms, s, m, h or a duration such as 10s or 500ms; ` + rateForm}},
		{`//wink:tool burst=5`, []string{`tools.go:12:13: burst needs a rate: write rate=<count>/<period> burst=<count> (for example rate=10/s burst=20)`}},
		{`//wink:tool rate=1/s burst=0`, []string{`tools.go:12:28: burst must be at least 1: the bucket must hold the call it admits`}},
		{`//wink:tool rate=1/s burst=lots`, []string{`tools.go:12:28: invalid burst "lots": expected a whole number of calls, at least 1 (for example burst=20)`}},
		{`//wink:tool rate=1/s burst=2000000000`, []string{`tools.go:12:28: burst 2000000000 is too large: at most 1000000000`}},
		{`//wink:tool rate=0/x burst=0`, []string{
			`tools.go:12:18: rate count must be at least 1: a tool that may never be called needs no rate; remove the tool or raise the count`,
			`tools.go:12:20: invalid rate period "x": expected ms, s, m, h or a duration such as 10s or 500ms; ` + rateForm,
			`tools.go:12:28: burst must be at least 1: the bucket must hold the call it admits`,
		}},
		{`//wink:tool rate=[1] burst`, []string{
			`tools.go:12:18: the value of rate must be a word or a double-quoted string, not a JSON array; write rate=<count>/<period> (for example rate=10/s or rate=100/m)`,
			`tools.go:12:22: missing '=' after burst; write burst=<count>`,
		}},
	}
	for _, tt := range tests {
		d, errs := ParseDirective(tt.text, base)
		var got []string
		for _, e := range errs {
			got = append(got, e.Error())
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseDirective(%q) errors\n got %s\nwant %s", tt.text, strings.Join(got, "\n     "), strings.Join(tt.want, "\n     "))
		}
		if r := d.(*Tool).Rate; r != nil {
			t.Errorf("ParseDirective(%q).Rate = %+v despite errors, want nil", tt.text, r)
		}
	}
}
