package openai_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/winkgen/wink/runtime/adapters/openai"
	"github.com/winkgen/wink/runtime/wink"
)

// nestedLists is a hand-built plain schema of n nested []struct levels with a string leaf, and m nested
// maps of structs around it.
func nestedLists(n, m int) string {
	s := `{"type":"object","properties":{"leaf":{"type":"string"}},"required":["leaf"],"additionalProperties":false}`
	for range n {
		s = `{"type":"object","properties":{"items":{"type":"array","items":` + s + `}},"required":["items"],"additionalProperties":false}`
	}
	for range m {
		s = `{"type":"object","properties":{"pairs":{"type":"object","additionalProperties":` + s + `}},"required":["pairs"],"additionalProperties":false}`
	}
	return s
}

// TestStrictFormsPastOpenAIsNestingAreSentWithoutStrict: OpenAI's validator counts every properties, items,
// anyOf and $defs step (MaxNesting): five nested []struct levels put the leaf 11 deep, three maps sent as
// pairs with a struct inside 10, four 13. A hand-built tool past the limit is sent in its derived form
// (pairs still pairs, as the calls' PairMaps say) with strict false, never strict and refused; one at the
// limit stays strict.
func TestStrictFormsPastOpenAIsNestingAreSentWithoutStrict(t *testing.T) {
	for _, c := range []struct {
		name       string
		plain      string
		wantStrict bool
	}{
		{"four lists", nestedLists(4, 0), true},
		{"five lists", nestedLists(5, 0), false},
		{"three maps", nestedLists(0, 3), true},
		{"four maps", nestedLists(0, 4), false},
	} {
		tool := badSchemaTool(strings.ReplaceAll(c.name, " ", "_"), c.plain)
		s, strict := openai.Schema(tool.Spec())
		derived, err := openai.StrictSchema([]byte(c.plain))
		if err != nil {
			t.Fatal(err)
		}
		if strict != c.wantStrict || !bytes.Equal(s, derived) {
			t.Errorf("%s: strict=%v (want %v), derived form sent: %v", c.name, strict, c.wantStrict, bytes.Equal(s, derived))
		}
		entries, err := openai.ChatTools([]*wink.Tool{tool})
		if want := `"strict":` + map[bool]string{true: "true", false: "false"}[c.wantStrict]; err != nil || !bytes.Contains(entries, []byte(want)) {
			t.Errorf("%s: ChatTools %v, want %s:\n%s", c.name, err, want, entries)
		}
	}
}
