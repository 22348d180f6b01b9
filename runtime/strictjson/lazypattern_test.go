package strictjson

import (
	"regexp"
	"sync"
	"sync/atomic"
	"testing"
)

// The class: a pattern of generated code costs nothing until a value is checked against it (a program
// linking generated code, and every process started from it, compiled each pattern when it started), is
// compiled once however many calls check at once, and checks and words its message as the compiled
// pattern does.
func TestLazyPatternCompilesOnFirstMatchOnly(t *testing.T) {
	var compiled atomic.Int32
	src := `^(?:[a-z]+)$`
	p := NewLazyPattern(src, func(s string) *regexp.Regexp {
		compiled.Add(1)
		return regexp.MustCompile(s)
	})
	if p.String() != src || compiled.Load() != 0 {
		t.Fatalf("String %q, compiled %d times before any match", p.String(), compiled.Load())
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Go(func() {
			for _, s := range []string{"abc", "ab1", ""} {
				if p.MatchString(s) != regexp.MustCompile(src).MatchString(s) {
					t.Errorf("MatchString(%q) = %v", s, p.MatchString(s))
				}
			}
		})
	}
	wg.Wait()
	if compiled.Load() != 1 {
		t.Fatalf("compiled %d times, want once", compiled.Load())
	}
	var d Decoder
	d.Reset([]byte(`"ab1"`), Limits{})
	s, _ := d.String()
	if d.CheckPattern(s, p, "") {
		t.Fatal("CheckPattern passed ab1")
	}
	if errs := d.Finish(); errs == nil || errs.Lines()[0] != `must match the pattern ^(?:[a-z]+)$; got "ab1"` {
		t.Fatalf("CheckPattern: %v", errs)
	}
}
