package wink_test

import (
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

func fpTool(name, desc, schema string, edit func(*wink.Spec)) *wink.Tool {
	f := wink.Funcs[searchParams, searchResult]{Decode: decodeSearchParams, EncodeParams: encodeSearchParams, EncodeResult: encodeSearchResult, Handler: okHandler(&recorder{})}
	sp := wink.Spec{Name: name, Description: desc, Position: "search.go:12:1", ParamsSchema: []byte(schema),
		ResultSchema: []byte(`{"type":"object","properties":{"n":{"type":"integer"}}}`),
		Examples:     []wink.Example{{Description: "one", Input: []byte(`{"query":"q"}`), Output: []byte(`{"n":1}`)}},
		ReadOnly:     true, Destructive: wink.HintNo, Scopes: []string{"docs:read"}}
	if edit != nil {
		edit(&sp)
	}
	return wink.NewTool(sp, &f)
}

// fpGoldenValue is the fingerprint of fpTools: a constant, so the fingerprint is the same in every process,
// on every machine, in every release that does not change what a client is shown.
const fpGoldenValue = "sha256:4a215b9f0f3c56d4061030639d4f07b85db71fbab318904745a300bb56904bec"

func fpTools() []*wink.Tool {
	return []*wink.Tool{
		fpTool("search_docs", "Searches the docs.", `{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`, nil),
		fpTool("read_doc", "Reads a doc.", `{"type":"object","properties":{"id":{"type":"integer"}}}`, nil),
	}
}

// TestFingerprint: the fingerprint of a set of tools is a constant (the same across processes and
// restarts), does not depend on the tools' order nor on the spelling of their schemas (member order,
// whitespace, number notation), and changes when anything a client is shown changes: a description, a
// schema, an example, an annotation, a scope, the title; not when the handler's source position moves.
func TestFingerprint(t *testing.T) {
	base := wink.Fingerprint(fpTools())
	if !strings.HasPrefix(base, "sha256:") || len(base) != len("sha256:")+64 {
		t.Fatalf("fingerprint %q", base)
	}
	if base != fpGoldenValue {
		t.Errorf("fingerprint %s, want the constant %s", base, fpGoldenValue)
	}
	ts := fpTools()
	if got := wink.Fingerprint([]*wink.Tool{ts[1], ts[0]}); got != base {
		t.Errorf("reordered: %s, want %s", got, base)
	}
	respelled := []*wink.Tool{
		fpTool("search_docs", "Searches the docs.", `{ "required" : ["query"], "properties":{"query":{"type":"string"}}, "type":"object" }`, nil),
		fpTool("read_doc", "Reads a doc.", `{"properties":{"id":{"type":"integer"}},"type":"object"}`, func(s *wink.Spec) { s.Position = "moved.go:99:1" }),
	}
	if got := wink.Fingerprint(respelled); got != base {
		t.Errorf("same definitions spelled differently: %s, want %s", got, base)
	}
	changes := map[string]func(*wink.Spec){
		"description": func(s *wink.Spec) { s.Description = "Reads one doc." },
		"schema":      func(s *wink.Spec) { s.ParamsSchema = []byte(`{"type":"object","properties":{"id":{"type":"string"}}}`) },
		"output":      func(s *wink.Spec) { s.ResultSchema = []byte(`{"type":"object"}`) },
		"example":     func(s *wink.Spec) { s.Examples[0].Output = []byte(`{"n":2}`) },
		"readonly":    func(s *wink.Spec) { s.ReadOnly = false },
		"destructive": func(s *wink.Spec) { s.Destructive = wink.HintYes },
		"scopes":      func(s *wink.Spec) { s.Scopes = []string{"docs:write"} },
		"title":       func(s *wink.Spec) { s.Title = "Read" },
		"name":        func(s *wink.Spec) { s.Name = "read_docs" },
	}
	seen := map[string]string{base: "base"}
	for what, edit := range changes {
		got := wink.Fingerprint([]*wink.Tool{ts[0], fpTool("read_doc", "Reads a doc.", `{"type":"object","properties":{"id":{"type":"integer"}}}`, edit)})
		if prev, ok := seen[got]; ok {
			t.Errorf("changing the %s gives the fingerprint of %s", what, prev)
		}
		seen[got] = what
	}
	if got := wink.Fingerprint(ts[:1]); got == base {
		t.Error("a tool removed: same fingerprint")
	}
	empty := wink.Fingerprint(nil)
	if c, _ := strictjson.Canonical(nil, []byte("[]")); string(c) != "[]" || empty != "sha256:4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945" {
		t.Errorf("no tools: %s, want the SHA-256 of []", empty)
	}
}
