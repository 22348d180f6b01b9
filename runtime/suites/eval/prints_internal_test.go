package eval

import (
	"strconv"
	"strings"
	"testing"
)

// The class: whatever a program prints within the child's output bound fits the print buffer and
// reaches the parent whole and in order; what does not fit is refused (the child sends it as a frame),
// and a buffer the parent cannot parse is reported, never read past.
func TestPrintBufferHoldsWhatAProgramMayPrint(t *testing.T) {
	for _, c := range []struct {
		name string
		msg  func(i int) string
	}{
		{"empty prints", func(int) string { return "" }},
		{"short prints", func(i int) string { return strconv.Itoa(i) }},
		{"prints of 128 bytes", func(int) string { return strings.Repeat("x", 128) }},
		{"one print past the bound", func(int) string { return strings.Repeat("é", MaxOutputBytes) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			child := &printBuf{mem: make([]byte, 8+printsSize)}
			parent := &printBuf{mem: child.mem}
			var want printed
			sent := 0
			for i := 0; sent <= MaxOutputBytes; i++ { // the child's rule (serve's Print)
				msg := c.msg(i)
				if len(msg) > MaxOutputBytes+1 {
					msg = msg[:MaxOutputBytes+1]
				}
				sent += len(msg) + 1
				if !child.add(msg) {
					t.Fatalf("print %d of %d bytes did not fit after %d bytes printed", i, len(msg), sent)
				}
				want.add(msg)
			}
			var got printed
			if !parent.drain(&got) {
				t.Fatal("the parent could not read the buffer")
			}
			if g, w := got.b.String(), want.b.String(); g != w || got.truncated != want.truncated {
				t.Fatalf("read %d bytes (truncated %v), printed %d (truncated %v)", len(g), got.truncated, len(w), want.truncated)
			}
		})
	}
	t.Run("full", func(t *testing.T) {
		p := &printBuf{mem: make([]byte, 8+printsSize)}
		big := strings.Repeat("y", printsSize/2)
		if !p.add(big) || p.add(big) {
			t.Fatal("a print past the buffer's end was taken")
		}
		if !p.add("z") {
			t.Fatal("a print that fits was refused")
		}
	})
	t.Run("length past the end", func(t *testing.T) {
		// One byte left: a print whose length takes two bytes is refused, not written past the end.
		p := &printBuf{mem: make([]byte, 8+printsSize)}
		p.pos = printsSize - 1
		if p.add(strings.Repeat("w", 200)) {
			t.Fatal("a print whose length does not fit was taken")
		}
		if !p.add("") {
			t.Fatal("an empty print (one byte of length) was refused with one byte left")
		}
	})
	for _, c := range []struct {
		name string
		data string
		end  uint32
	}{
		{"entry past the end", "\x05abc", 4},
		{"end past the buffer", "\xff\xff\xff\xff\x0f", 1 << 31},
		{"malformed length", "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := &printBuf{mem: make([]byte, 8+printsSize)}
			copy(p.mem[8:], c.data)
			*p.end() = c.end
			var out printed
			if p.drain(&out) {
				t.Fatalf("read as %q", out.b.String())
			}
		})
	}
}
