package strictjson

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// firstSpecial is the byte-at-a-time definition special8 must agree with: the index of the first byte
// of b that needs attention inside a string, or len(b).
func firstSpecial(b []byte) int {
	for i, c := range b {
		if !strPlain[c] {
			return i
		}
	}
	return len(b)
}

// TestSpecial8FindsTheFirstSpecialByte checks that the lowest set bit of special8's mask is exactly the
// first byte that is a control character, '"', '\\' or non-ASCII (borrows may flag later bytes, never
// earlier ones), for every byte value at every position and for random words biased towards the
// boundaries of the plain range.
func TestSpecial8FindsTheFirstSpecialByte(t *testing.T) {
	check := func(b []byte) {
		t.Helper()
		m := special8(binary.LittleEndian.Uint64(b))
		got := 8
		if m != 0 {
			got = bits.TrailingZeros64(m) >> 3
		}
		if want := firstSpecial(b); got != want {
			t.Fatalf("special8(% x): first special byte at %d, want %d", b, got, want)
		}
	}
	for pos := range 8 {
		for c := range 256 {
			b := []byte("abcdefgh")
			b[pos] = byte(c)
			check(b)
		}
	}
	edge := []byte{0x00, 0x01, 0x1f, 0x20, 0x21, '"', '#', '[', '\\', ']', 0x7e, 0x7f, 0x80, 0x81, 0xa0, 0xdc, 0xff, 'a'}
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, 8)
	for range 200000 {
		for i := range b {
			if r.IntN(2) == 0 {
				b[i] = edge[r.IntN(len(edge))]
			} else {
				b[i] = byte(r.IntN(256))
			}
		}
		check(b)
	}
}
