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
