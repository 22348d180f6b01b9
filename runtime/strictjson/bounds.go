package strictjson

import "time"

// MsgMinDuration is the message for a duration below min=lit (a Go duration, as written in the tag).
func MsgMinDuration(lit string) string { return "must be at least " + lit }

// MsgMaxDuration is the message for a duration above max=lit.
func MsgMaxDuration(lit string) string { return "must be at most " + lit }

// FailDuration records msg + "; got " + v (as Go writes it, "1m30s") at the current path.
func (d *Decoder) FailDuration(msg string, v time.Duration) {
	d.addErr(d.path(d.depth), msg+"; got "+v.String())
}

// FreeForm consumes one free-form JSON value (of any kind), validated as strictly as every value (syntax,
// UTF-8, escapes, depth; its size is bounded by MaxBytes with the rest of the input), and returns a copy
// of its bytes as they appear in the input (whitespace inside, key order and escapes kept). A value that
// names an object member twice (also when one spelling escapes it) is an error at this path. Under PairMaps
// (a call from a provider that was sent free-form values as JSON text: OpenAI strict mode, Gemini) a
// string holds the value's JSON text: its content is read and validated the same way, within the depth
// left at this level, and returned; a string that is not JSON text is an error at this path.
func (d *Decoder) FreeForm() ([]byte, bool) {
	if d.pairMaps && d.Peek() == KindString {
		text, ok := d.StringBytes()
		if !ok {
			return nil, false
		}
		var sub Decoder
		sub.Reset(text, Limits{MaxBytes: len(text) + 1, MaxDepth: max(d.maxDepth-d.depth, 1), MaxErrors: 1})
		raw, ok := sub.Raw()
		if ok {
			// Finish would say "after the arguments object": here it is the one value the text holds.
			if sub.skipWS(); sub.pos < len(sub.data) {
				sub.syntax(sub.pos, "unexpected data after the value")
			}
		}
		if errs := sub.Finish(); !ok || errs != nil {
			msg := "must be JSON text (the value written as a string of JSON)"
			if errs != nil && len(errs.List) > 0 {
				msg += ": " + errs.List[0].Message
			}
			d.Fail(msg)
			return nil, false
		}
		if !d.canonicalCheck(raw) {
			return nil, false
		}
		return append([]byte(nil), raw...), true
	}
	raw, ok := d.Raw()
	if !ok || !d.canonicalCheck(raw) {
		return nil, false
	}
	return append([]byte(nil), raw...), true
}

// canonicalCheck fails a free-form value that has no canonical form (CanonicalExact): an object naming a
// member twice (however spelled), or a number whose exponent is beyond any use. Such a value never
// reaches a handler, an idempotency key or an approval binding.
func (d *Decoder) canonicalCheck(raw []byte) bool {
	var stack [512]byte
	if _, err := CanonicalExact(stack[:0], raw); err != nil {
		msg := err.Error()
		if ce, ok := err.(*dupError); ok {
			msg = "duplicate member " + quote(ce.name) + " in an object; give each member once"
		} else if ce, ok := err.(*CanonicalError); ok {
			msg = ce.Msg
		}
		d.Fail(msg)
		return false
	}
	return true
}
