package wink_test

import (
	"errors"
	"testing"

	"github.com/winkgen/wink/runtime/wink"
)

func TestRegistryMergesGroupsInOrder(t *testing.T) {
	a := newSearchDef("a", okHandler(&recorder{}), nil)
	b := newSearchDef("b", okHandler(&recorder{}), nil)
	c := newSearchDef("c", okHandler(&recorder{}), nil)
	r, err := wink.NewRegistry([]*wink.Tool{b, a}, []*wink.Tool{c})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Names(); len(got) != 3 || got[0] != "b" || got[1] != "a" || got[2] != "c" {
		t.Errorf("Names = %v", got)
	}
	if got := r.Tools(); len(got) != 3 || got[0] != b || got[2] != c || r.Len() != 3 {
		t.Errorf("Tools = %v", got)
	}
	r.Names()[0] = "mutated"
	if r.Names()[0] != "b" {
		t.Error("Names exposes internal storage")
	}
	if got, ok := r.Lookup("a"); !ok || got != a {
		t.Error("Lookup(a) failed")
	}
	if _, ok := r.Lookup("A"); ok {
		t.Error("Lookup is not case-sensitive")
	}
}

func TestRegistryDuplicateNamesNameBothPositions(t *testing.T) {
	x := wink.NewTool(wink.Spec{Name: "search_docs", Position: "example.com/agent/tools.SearchDocs (search.go)"}, searchFuncs())
	y := wink.NewTool(wink.Spec{Name: "search_docs", Position: "example.com/agent/docs.Search (search.go)"}, searchFuncs())
	z := wink.NewTool(wink.Spec{Name: "z"}, searchFuncs())
	w := wink.NewTool(wink.Spec{Name: "z"}, searchFuncs())
	_, err := wink.NewRegistry([]*wink.Tool{x, z}, []*wink.Tool{y, w, nil})
	want := `duplicate tool name "search_docs": declared by example.com/agent/tools.SearchDocs (search.go) and by example.com/agent/docs.Search (search.go)` + "\n" +
		`duplicate tool name "z": declared by an unknown handler and by an unknown handler` + "\n" +
		`tool 2 of group 1 is nil`
	if err == nil || err.Error() != want {
		t.Errorf("err =\n%v\nwant\n%s", err, want)
	}
	func() {
		defer func() {
			if r := recover(); r == nil || r != "wink.MustRegistry: "+want {
				t.Errorf("MustRegistry panic = %v", r)
			}
		}()
		wink.MustRegistry([]*wink.Tool{x, z}, []*wink.Tool{y, w, nil})
	}()
	_ = errors.New
}

func searchFuncs() *wink.Funcs[searchParams, searchResult] {
	return &wink.Funcs[searchParams, searchResult]{Decode: decodeSearchParams, EncodeResult: encodeSearchResult, Handler: okHandler(&recorder{})}
}

func TestNewToolPanicsOnProgrammingErrors(t *testing.T) {
	tests := []struct {
		name string
		spec wink.Spec
		f    *wink.Funcs[searchParams, searchResult]
		want string
	}{
		{"bad name", wink.Spec{Name: "Search"}, searchFuncs(), `wink.NewTool: tool name "Search" must match ^[a-z0-9_-]{1,64}$`},
		{"empty name", wink.Spec{}, searchFuncs(), `wink.NewTool: tool name "" must match ^[a-z0-9_-]{1,64}$`},
		{"no handler", wink.Spec{Name: "s"}, &wink.Funcs[searchParams, searchResult]{Decode: decodeSearchParams, EncodeResult: encodeSearchResult},
			`wink.NewTool: tool "s": Funcs.Decode, Funcs.EncodeResult and Funcs.Handler are required`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != tt.want {
					t.Errorf("panic = %v, want %s", r, tt.want)
				}
			}()
			wink.NewTool(tt.spec, tt.f)
		})
	}
}

func TestToolExposesSpec(t *testing.T) {
	def := newSearchDef("search_docs", okHandler(&recorder{}), nil)
	tl := def
	if tl.Name() != "search_docs" || tl.Spec().Description != "Searches the docs." || tl.Description() != "Searches the docs." ||
		tl.Position() != "search.go:12:1" || string(tl.Spec().ParamsSchema) != `{"type":"object"}` {
		t.Errorf("spec = %+v", tl.Spec())
	}
	if f, ok := wink.FuncsOf[searchParams, searchResult](def); !ok || f.Decode == nil {
		t.Error("FuncsOf lost Decode")
	}
}

func TestIdemStrategyString(t *testing.T) {
	for s, want := range map[wink.IdemStrategy]string{wink.IdemNone: "none", wink.IdemAuto: "auto", wink.IdemParams: "params", wink.IdemCustom: "custom", 9: "IdemStrategy(9)"} {
		if s.String() != want {
			t.Errorf("%d.String() = %q, want %q", s, s.String(), want)
		}
	}
}
