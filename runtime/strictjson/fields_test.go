package strictjson

import "testing"

func TestRepeatedRecordsDuplicatesAndSkips(t *testing.T) {
	var d Decoder
	d.Reset([]byte(`{"a":1,"a":[2,{"x":3}],"b":4}`), Limits{})
	if !d.ObjectStart() {
		t.Fatal("not an object")
	}
	var seen uint64
	var keys []string
	for d.NextKey() {
		k := string(d.Key())
		bit := uint64(1)
		if k == "b" {
			bit = 2
		}
		if d.Repeated(&seen, bit) {
			keys = append(keys, k+"(dup)")
			continue
		}
		keys = append(keys, k)
		d.Skip()
	}
	d.ObjectEnd()
	errs := d.Finish()
	if got := len(keys); got != 3 || keys[1] != "a(dup)" {
		t.Errorf("keys = %v", keys)
	}
	if errs == nil || len(errs.List) != 1 || errs.List[0].Path != "a" || errs.List[0].Message != "duplicate field; each field may appear once" {
		t.Errorf("errors = %+v", errs)
	}
	if seen != 3 {
		t.Errorf("seen = %b, want 11", seen)
	}
}
