package strictjson

// Repeated is the duplicate-key check of generated struct decoders: it marks bit in *seen and reports
// whether the bit was already set, in which case the field is recorded as a duplicate ("duplicate field;
// each field may appear once") and its value skipped, so the caller continues with the next key.
// The first-time path is small enough to be inlined into generated code.
func (d *Decoder) Repeated(seen *uint64, bit uint64) bool {
	if *seen&bit == 0 {
		*seen |= bit
		return false
	}
	return d.repeated()
}

func (d *Decoder) repeated() bool {
	d.Duplicate()
	d.Skip()
	return true
}
