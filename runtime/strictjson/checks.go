package strictjson

import "strconv"

// The model-facing wording of every constraint, in one place: the generated decoders carry these texts
// (winkgen calls these functions when it writes them) and winkgen's example checker reports with them,
// so an example refused at generation time and a call refused at run time read the same. Each text
// completes "<path>: ", and the decoder appends "; got <value>".

// MsgMin is the text of a minimum (lit as written in the tag): "must be >= 1".
func MsgMin(lit string) string { return "must be >= " + lit }

// MsgMax is the text of a maximum: "must be <= 100".
func MsgMax(lit string) string { return "must be <= " + lit }

// MsgExclusiveMin is the text of an exclusive minimum: "must be > 0".
func MsgExclusiveMin(lit string) string { return "must be > " + lit }

// MsgExclusiveMax is the text of an exclusive maximum: "must be < 1".
func MsgExclusiveMax(lit string) string { return "must be < " + lit }

// MsgMultipleOf is the text of multipleOf: "must be a multiple of 0.01".
func MsgMultipleOf(lit string) string { return "must be a multiple of " + lit }

// MsgMinLength is the text of minLength: "must be at least 3 characters long".
func MsgMinLength(n int) string { return "must be at least " + plural(n, "character") + " long" }

// MsgMaxLength is the text of maxLength: "must be at most 80 characters long".
func MsgMaxLength(n int) string { return "must be at most " + plural(n, "character") + " long" }

// MsgPattern is the text of a pattern: "must be " + desc when the developer described what the pattern
// accepts (patternDesc), else "must match the pattern " + the anchored pattern.
func MsgPattern(anchored, desc string) string {
	if desc != "" {
		return "must be " + desc
	}
	return "must match the pattern " + anchored
}

// MsgMinItems is the text of minItems: "must contain at least 1 item".
func MsgMinItems(n int) string { return "must contain at least " + plural(n, "item") }

// MsgMaxItems is the text of maxItems: "must contain at most 10 items".
func MsgMaxItems(n int) string { return "must contain at most " + plural(n, "item") }

// MsgExactItems is the text of a fixed length (a Go array): "must contain exactly 3 items".
func MsgExactItems(n int) string { return "must contain exactly " + plural(n, "item") }

// MsgUnique is the text of uniqueItems when item j repeats item i.
func MsgUnique(i, j int) string {
	return "items must be unique; item " + strconv.Itoa(j) + " repeats item " + strconv.Itoa(i)
}

// plural writes "1 item" or "3 items".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// CheckLength checks that s has at least min and at most max characters (runes; a negative bound is
// absent), recording MsgMinLength or MsgMaxLength with the length; it reports whether s passed.
func (d *Decoder) CheckLength(s string, min, max int) bool {
	n := RuneCount(s)
	return d.checkCount(n, min, max, MsgMinLength, MsgMaxLength)
}

// CheckItems checks that a collection of n items has at least min and at most max (a negative bound is
// absent), recording MsgMinItems or MsgMaxItems with the count; it reports whether n passed.
func (d *Decoder) CheckItems(n, min, max int) bool {
	return d.checkCount(n, min, max, MsgMinItems, MsgMaxItems)
}

func (d *Decoder) checkCount(n, min, max int, minMsg, maxMsg func(int) string) bool {
	ok := true
	if min >= 0 && n < min {
		d.FailLen(minMsg(min), n)
		ok = false
	}
	if max >= 0 && n > max {
		d.FailLen(maxMsg(max), n)
		ok = false
	}
	return ok
}

// FailDuplicate records MsgUnique(i, j).
func (d *Decoder) FailDuplicate(i, j int) { d.Fail(MsgUnique(i, j)) }

// PairMaps reports whether maps arrive as arrays of {"key", "value"} objects (Limits.PairMaps). Generated
// decoders read a map in that form when it does: OpenAI's strict mode cannot state an object with
// arbitrary keys, so a tool's strict schema describes each map as such an array.
func (d *Decoder) PairMaps() bool { return d.pairMaps }

// PairsStart is ArrayStart for a map in pair form: a value that is not an array is refused as
// `expected an array of {"key": …, "value": …} objects (a map in strict mode), got …`.
func (d *Decoder) PairsStart() bool {
	return d.arrayStart(`an array of {"key": …, "value": …} objects (a map in strict mode)`)
}

// PairKeys are the members of one pair of a map in pair form.
var PairKeys = []string{"key", "value"}

// FailRepeatedKey records that a map in pair form repeats key k.
func (d *Decoder) FailRepeatedKey(k string) {
	d.Fail("key " + quote(k) + " appears twice; each key may appear once")
}
