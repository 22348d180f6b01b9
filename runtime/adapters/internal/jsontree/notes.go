package jsontree

import "strings"

// Note phrases a keyword a dialect cannot state, for the description (AddNotes): one vocabulary for
// every adapter, plurals agreeing with the number ("at least 1 character", "at most 2 items"). v is the
// keyword's value; ok is false for a keyword without a phrase, and for uniqueItems false (nothing to say).
//
//	minimum 1 → "at least 1"; maximum, exclusiveMinimum, exclusiveMaximum → "at most", "greater than",
//	"less than"; multipleOf → "a multiple of 0.5"; minLength/maxLength → "at least 1 character";
//	minItems/maxItems → "at most 3 items"; minProperties/maxProperties → "at least 2 keys";
//	pattern → "matching ^a$"; format → "format: uri"; uniqueItems → "items must be unique";
//	default → "default: 10".
func Note(keyword string, v any) (string, bool) {
	switch keyword {
	case "minimum":
		return "at least " + Literal(v), true
	case "maximum":
		return "at most " + Literal(v), true
	case "exclusiveMinimum":
		return "greater than " + Literal(v), true
	case "exclusiveMaximum":
		return "less than " + Literal(v), true
	case "multipleOf":
		return "a multiple of " + Literal(v), true
	case "minLength":
		return "at least " + Count(v, "character"), true
	case "maxLength":
		return "at most " + Count(v, "character"), true
	case "minItems":
		return "at least " + Count(v, "item"), true
	case "maxItems":
		return "at most " + Count(v, "item"), true
	case "minProperties":
		return "at least " + Count(v, "key"), true
	case "maxProperties":
		return "at most " + Count(v, "key"), true
	case "pattern":
		return "matching " + strings.Trim(Literal(v), `"`), true
	case "format":
		return "format: " + strings.Trim(Literal(v), `"`), true
	case "uniqueItems":
		return "items must be unique", v == true
	case "default":
		return "default: " + Literal(v), true
	}
	return "", false
}

// Count writes a count and its noun: "1 character", "0 characters", "2 characters".
func Count(v any, noun string) string {
	n := Literal(v)
	if n == "1" {
		return n + " " + noun
	}
	return n + " " + noun + "s"
}
