package jsontree

import "testing"

// TestPairItem: a map schema's pairs keep its key pattern and its description, in the dialect's type
// names.
func TestPairItem(t *testing.T) {
	s, err := ParseObject([]byte(`{"type":"object","description":"Labels.","additionalProperties":{"type":"integer"},"propertyNames":{"pattern":"^[a-z]+$"}}`))
	if err != nil {
		t.Fatal(err)
	}
	val, _ := s.Get("additionalProperties").(*Obj)
	if got, want := Literal(PairItem(s, val, "OBJECT", "STRING")), `{"type":"OBJECT","properties":{"key":{"type":"STRING","pattern":"^[a-z]+$"},"value":{"type":"integer"}},"required":["key","value"]}`; got != want {
		t.Errorf("PairItem:\n got %s\nwant %s", got, want)
	}
	if got, want := PairsDescription(s), "Labels. (key/value pairs, each key once)"; got != want {
		t.Errorf("PairsDescription = %q, want %q", got, want)
	}
	s.Del("description")
	s.Del("propertyNames")
	if got, want := Literal(PairItem(s, val, "object", "string")), `{"type":"object","properties":{"key":{"type":"string"},"value":{"type":"integer"}},"required":["key","value"]}`; got != want {
		t.Errorf("PairItem without propertyNames:\n got %s\nwant %s", got, want)
	}
	if got, want := PairsDescription(s), "key/value pairs, each key once"; got != want {
		t.Errorf("PairsDescription = %q, want %q", got, want)
	}
}
