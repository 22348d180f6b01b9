package jsontree

import "testing"

func TestNote(t *testing.T) {
	for _, c := range []struct {
		keyword string
		v       any
		want    string
		ok      bool
	}{
		{"minimum", Num("1"), "at least 1", true},
		{"maximum", Num("1e9"), "at most 1e9", true},
		{"exclusiveMinimum", Num("0"), "greater than 0", true},
		{"exclusiveMaximum", Num("-2.5"), "less than -2.5", true},
		{"multipleOf", Num("0.5"), "a multiple of 0.5", true},
		{"minLength", Num("1"), "at least 1 character", true},
		{"minLength", Num("0"), "at least 0 characters", true},
		{"maxLength", Num("2"), "at most 2 characters", true},
		{"minItems", Num("1"), "at least 1 item", true},
		{"maxItems", Num("3"), "at most 3 items", true},
		{"minProperties", Num("1"), "at least 1 key", true},
		{"maxProperties", Num("2"), "at most 2 keys", true},
		{"pattern", "^(?:[a-z]+)$", "matching ^(?:[a-z]+)$", true},
		{"format", "uri", "format: uri", true},
		{"uniqueItems", true, "items must be unique", true},
		{"uniqueItems", false, "items must be unique", false},
		{"default", Num("1"), "default: 1", true},
		{"default", "fuzzy", `default: "fuzzy"`, true},
		{"title", "x", "", false},
	} {
		got, ok := Note(c.keyword, c.v)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("Note(%q, %v) = %q, %v; want %q, %v", c.keyword, c.v, got, ok, c.want, c.ok)
		}
	}
}
