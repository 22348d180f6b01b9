package tools

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/winkgen/wink/runtime/strictjson"
)

func TestZZProbe(t *testing.T) {
	s := newSubject(WinkCountOutline)
	for _, r := range agreementTables()["count_outline"] {
		in := []byte(r.in)
		v, errs := s.decode(in, agreeLimits)
		if errs != nil {
			continue
		}
		t0 := time.Now()
		out := s.reencode(v)
		t1 := time.Now()
		v2, _ := s.decode(out, agreeLimits)
		t2 := time.Now()
		if len(in) < 3000 {
			cmp.Diff(v, v2, cmpopts.EquateEmpty())
		}
		t3 := time.Now()
		s.tool.Decode(in, strictjson.Limits{})
		t4 := time.Now()
		if t4.Sub(t0) > 10*time.Millisecond {
			t.Logf("%s len=%d enc=%v dec=%v cmp=%v tool=%v", r.name, len(in), t1.Sub(t0), t2.Sub(t1), t3.Sub(t2), t4.Sub(t3))
		}
	}
}
