package strictjson

import (
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// decodeStrings decodes in, an array of strings and {"key": ...} objects, with d, returning every string
// and every object key (KeyString) in order.
func decodeStrings(t *testing.T, d *Decoder, in []byte) []string {
	t.Helper()
	d.Reset(in, Limits{})
	var out []string
	d.ArrayStart()
	for d.NextElem() {
		if d.Peek() == KindObject {
			d.ObjectStart()
			for d.NextKey() {
				out = append(out, d.KeyString())
				d.Skip()
			}
			d.ObjectEnd()
			continue
		}
		s, _ := d.String()
		out = append(out, s)
	}
	d.ArrayEnd()
	if errs := d.Finish(); errs != nil {
		t.Fatal(errs)
	}
	return out
}

// TestDecodedStringsOutliveTheInputAndTheDecoder checks that decoded strings (short and long, plain and
// escaped, values and map keys) stay as they were when the caller reuses its input buffer and the decoder
// decodes other inputs: the block strings are copied into is never written again below what was handed
// out.
func TestDecodedStringsOutliveTheInputAndTheDecoder(t *testing.T) {
	var d Decoder
	type kept struct{ got, want []string }
	var all []kept
	buf := make([]byte, 0, 1<<16)
	for round := range 40 {
		var want []string
		buf = append(buf[:0], '[')
		for i := range 3 + round*7 {
			if i > 0 {
				buf = append(buf, ',')
			}
			s := strings.Repeat(string(rune('a'+(round+i)%26)), (i*37+round)%300) + strconv.Itoa(round)
			switch i % 4 {
			case 0: // plain
				buf = strconv.AppendQuote(buf, s)
			case 1: // escaped
				buf = append(buf, `"`+s+`\n\"\u00e9"`...)
				s += "\n\"é"
			case 2: // an object key
				buf = append(buf, `{`...)
				buf = strconv.AppendQuote(buf, s)
				buf = append(buf, `:1}`...)
			default: // an escaped object key
				s = "k\t" + s
				buf = append(buf, `{"k\t`+s[2:]+`":[1,"x"]}`...)
			}
			want = append(want, s)
		}
		buf = append(buf, ']')
		all = append(all, kept{decodeStrings(t, &d, buf), want})
		for i := range buf {
			buf[i] = '#' // the caller reuses its buffer
		}
	}
	for r, k := range all {
		if len(k.got) != len(k.want) {
			t.Fatalf("round %d: %d strings, want %d", r, len(k.got), len(k.want))
		}
		for i := range k.want {
			if k.got[i] != k.want[i] {
				t.Fatalf("round %d, string %d: %q, want %q", r, i, k.got[i], k.want[i])
			}
		}
	}
}

// TestDecodedStringsDoNotCopyTheInput checks that a decoded string costs about its own length, not a copy
// of the whole input: a short string read out of a large input (whose other members are skipped) keeps
// only a small block alive.
func TestDecodedStringsDoNotCopyTheInput(t *testing.T) {
	in := []byte(`{"name":"short","pad":"` + strings.Repeat("x", 1<<16) + `","more":["a","b"]}`)
	var d Decoder
	var sink []string
	decode := func() {
		d.Reset(in, Limits{})
		d.ObjectStart()
		for d.NextKey() {
			switch string(d.Key()) {
			case "name":
				s, _ := d.String()
				sink = append(sink[:0], s)
			case "more":
				d.ArrayStart()
				for d.NextElem() {
					s, _ := d.String()
					sink = append(sink, s)
				}
				d.ArrayEnd()
			}
		}
		d.ObjectEnd()
		if errs := d.Finish(); errs != nil {
			t.Fatal(errs)
		}
	}
	decode()
	const runs = 100
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		decode()
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / runs; per > 256 {
		t.Errorf("decoding 3 short strings out of a %d-byte input allocated %d bytes per decode, want at most 256", len(in), per)
	}
	if sink[0] != "short" || sink[1] != "a" || sink[2] != "b" {
		t.Errorf("decoded %q", sink)
	}
}

// FuzzIntFastPath checks that Int's one-pass path for plain integers (plainInt) gives what its general
// path gives, on every input: the value, the verdict, the errors, where decoding stopped and the literal.
func FuzzIntFastPath(f *testing.F) {
	for _, s := range []string{"25", "-0", "0", "01", "-", "123456789012345678", "1234567890123456789",
		"-9223372036854775808", "9223372036854775807", "25.0", "2e1", "7 ", " 7", "7,", "7x", "-12]", "1E2", ""} {
		f.Add([]byte(s), int64(-100), int64(100))
	}
	f.Fuzz(func(t *testing.T, data []byte, min, max int64) {
		var fast, slow Decoder
		fast.Reset(data, Limits{})
		slow.Reset(data, Limits{})
		fv, fok := fast.Int(min, max)
		sv, sok := slow.intLiteral(min, max)
		if fv != sv || fok != sok || fast.pos != slow.pos || string(fast.NumberLiteral()) != string(slow.NumberLiteral()) {
			t.Fatalf("%q in [%d, %d]: Int = %d, %v at %d (%q); general path = %d, %v at %d (%q)", data, min, max,
				fv, fok, fast.pos, fast.NumberLiteral(), sv, sok, slow.pos, slow.NumberLiteral())
		}
		if fe, se := fast.Finish(), slow.Finish(); (fe == nil) != (se == nil) || fe != nil && fe.Error() != se.Error() {
			t.Fatalf("%q in [%d, %d]: Int's errors %v; the general path's %v", data, min, max, fe, se)
		}
	})
}

// TestKeepInTakesTheCallersBlock checks KeepIn: the strings decoded next are the bytes of the caller's
// block, filled front to back, with no allocation while they fit; those that do not fit go to blocks the
// decoder allocates, and the block is never written past what it handed out. HasStrings tells whether a
// string was copied at all.
func TestKeepInTakesTheCallersBlock(t *testing.T) {
	in := []byte(`["abc","","de\n",{"key":1},"` + strings.Repeat("y", 40) + `"]`)
	var d Decoder
	block := make([]byte, 16)
	for i := range block {
		block[i] = '#'
	}
	d.Reset(in, Limits{})
	d.KeepIn(block)
	if d.HasStrings() {
		t.Fatal("HasStrings before any string")
	}
	var got []string
	d.ArrayStart()
	for d.NextElem() {
		if d.Peek() == KindObject {
			d.ObjectStart()
			for d.NextKey() {
				got = append(got, d.KeyString())
				d.Skip()
			}
			d.ObjectEnd()
			continue
		}
		s, _ := d.String()
		got = append(got, s)
	}
	d.ArrayEnd()
	if errs := d.Finish(); errs != nil {
		t.Fatal(errs)
	}
	if !d.HasStrings() {
		t.Error("HasStrings false after decoding strings")
	}
	want := []string{"abc", "", "de\n", "key", strings.Repeat("y", 40)}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("string %d: %q, want %q", i, got[i], want[i])
		}
	}
	if string(block) != "abcde\nkey#######" {
		t.Errorf("block %q, want the three short strings front to back and the rest untouched", block)
	}
	inBlock := func(s string) bool {
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		b := uintptr(unsafe.Pointer(&block[0]))
		return p >= b && p < b+uintptr(len(block))
	}
	for i, s := range got {
		if want := i == 0 || i == 2 || i == 3; s != "" && inBlock(s) != want {
			t.Errorf("string %d (%q) in the caller's block: %v, want %v", i, s, inBlock(s), want)
		}
	}
	d.Reset([]byte(`["zz"]`), Limits{}) // Reset forgets the block
	d.ArrayStart()
	d.NextElem()
	if s, _ := d.String(); s != "zz" || inBlock(s) {
		t.Errorf("after Reset: %q, in the old block: %v", s, inBlock(s))
	}
	if string(block) != "abcde\nkey#######" {
		t.Errorf("block written after Reset: %q", block)
	}
	d.Reset([]byte(`[""]`), Limits{})
	d.ArrayStart()
	d.NextElem()
	d.String()
	if d.HasStrings() {
		t.Error("HasStrings after decoding only an empty string")
	}
}

// TestDropLetsTheInputAndTheBlockGo checks that a Decoder kept after Drop (as a pool keeps it) holds
// neither its last input nor the block its strings were copied into.
func TestDropLetsTheInputAndTheBlockGo(t *testing.T) {
	var d Decoder
	freed := make(chan string, 2)
	func() {
		in := []byte(`["a string copied into a block"]`)
		runtime.AddCleanup(&in[0], func(s string) { freed <- s }, "input")
		d.Reset(in, Limits{})
		d.ArrayStart()
		d.NextElem()
		s, _ := d.String()
		runtime.AddCleanup(unsafe.StringData(s), func(s string) { freed <- s }, "block")
		d.ArrayEnd()
		if errs := d.Finish(); errs != nil {
			t.Fatal(errs)
		}
		d.Drop()
	}()
	got := map[string]bool{}
	for deadline := time.Now().Add(20 * time.Second); len(got) < 2 && time.Now().Before(deadline); {
		runtime.GC()
		select {
		case s := <-freed:
			got[s] = true
		case <-time.After(50 * time.Millisecond):
		}
	}
	runtime.KeepAlive(&d)
	if !got["input"] || !got["block"] {
		t.Errorf("collected after Drop: %v, want the input and the block", got)
	}
}
