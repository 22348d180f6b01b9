package schema

import (
	"slices"

	"github.com/winkgen/wink/gen/model"
)

// enumMeanings says what each value of an integer enum means, for the description: a bare [1,2,3] tells
// the model nothing, so each value is followed by its constant's name (or //wink:enum title) and what the
// constant's doc says: "1 = PriorityLow: can wait". String enums carry their meaning in their values. A
// tag enum narrows the list to its values.
func enumMeanings(t *model.Type, c *model.Constraints) []string {
	if t.Kind != model.KindInt && t.Kind != model.KindUint || len(t.Enum) == 0 {
		return nil
	}
	var out []string
	for _, e := range t.Enum {
		if e == nil || len(c.Enum) > 0 && !slices.Contains(c.Enum, e.JSON) {
			continue
		}
		label := e.Title
		if label == "" {
			label = e.Const.Name
		}
		if label == "" {
			continue
		}
		s := e.JSON + " = " + label
		if e.Doc != "" {
			s += ": " + e.Doc
		}
		out = append(out, s)
	}
	return out
}
