package strictjson

// Raw consumes one value of any kind, validating it strictly as Skip does (syntax, UTF-8, escapes,
// depth), and returns its bytes exactly as they appear in the input, from its first byte to its last
// (no surrounding whitespace): whitespace inside, key order and escapes are kept. The bytes alias the
// input given to Reset (their capacity ends with the value, so appending to them copies). After a fatal
// error, or when the value itself is malformed, it returns nil, false.
func (d *Decoder) Raw() ([]byte, bool) {
	if d.fatal {
		return nil, false
	}
	d.skipWS()
	start := d.pos
	d.Skip()
	if d.fatal {
		return nil, false
	}
	return d.data[start:d.pos:d.pos], true
}

// Member returns the raw JSON value of the top-level member name of the JSON object obj (the first one when
// the key repeats), with the decoder's full validation of what it reads: ok is false when obj is not a
// valid object or has no such member. Policies use it to read one field of a canonical params encoding.
// obj is read whatever its size (the default MaxBytes does not apply).
func Member(obj []byte, name string) (raw []byte, ok bool) {
	var d Decoder
	d.Reset(obj, Limits{MaxBytes: len(obj) + 1}) // obj's own size: a caller has bounded it already
	if !d.ObjectStart() {
		return nil, false
	}
	for d.NextKey() {
		if !ok && string(d.Key()) == name {
			raw, ok = d.Raw()
			continue
		}
		d.Skip()
	}
	d.ObjectEnd()
	if d.Finish() != nil {
		return nil, false
	}
	return raw, ok
}
