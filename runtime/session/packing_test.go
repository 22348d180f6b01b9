package session_test

import (
	"encoding/binary"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/winkgen/wink/runtime/session"
)

// rec is the item of the packed slices under test: a sequence number and two texts.
type rec struct {
	Seq  int
	Name string
	Note string
}

// recPacking packs recs as an offsets table and, per item, its sequence number and texts. It
// refuses a group holding a rec whose Note is "refuse" (the group is kept as values) and counts what
// it packs.
type recPacking struct {
	mu     sync.Mutex
	packed int
}

func (p *recPacking) Pack(items []rec) ([]byte, bool) {
	for _, x := range items {
		if x.Note == "refuse" {
			return nil, false
		}
	}
	p.mu.Lock()
	p.packed += len(items)
	p.mu.Unlock()
	data := make([]byte, 4*len(items), 4*len(items)+16*len(items))
	for i, x := range items {
		binary.LittleEndian.PutUint32(data[4*i:], uint32(len(data)))
		data = binary.AppendVarint(data, int64(x.Seq))
		data = binary.AppendUvarint(data, uint64(len(x.Name)))
		data = append(data, x.Name...)
		data = binary.AppendUvarint(data, uint64(len(x.Note)))
		data = append(data, x.Note...)
	}
	return data, true
}

func (p *recPacking) Unpack(data []byte, i int) rec {
	b := data[binary.LittleEndian.Uint32(data[4*i:]):]
	seq, n := binary.Varint(b)
	b = b[n:]
	l, n := binary.Uvarint(b)
	name := string(b[n : n+int(l)])
	b = b[n+int(l):]
	l, n = binary.Uvarint(b)
	note := string(b[n : n+int(l)])
	return rec{Seq: int(seq), Name: name, Note: note}
}

func (p *recPacking) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.packed
}

func recSize(x rec) int64 { return int64(16 + len(x.Name) + len(x.Note)) }

// TestPackedSliceMatchesTheSliceOfValues runs random operations on a packed slice and on the same
// slice kept as values, side by side in one session, for both retentions: appends (in place and
// after a view was taken), bounded appends with random bounds, reducers, Seed, Replace, Clear,
// snapshots and restores. After every step both hold the same items, and every view taken along the
// way still holds what it held when taken: a packed LOG slice reuses its tail's storage, which no
// view may observe.
func TestPackedSliceMatchesTheSliceOfValues(t *testing.T) {
	for seed := range uint64(6) {
		t.Run("seed="+strconv.FormatUint(seed, 10), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 7))
			for _, ret := range []session.Retention{session.NoRollback, session.Rollback} {
				pk := &recPacking{}
				packed := session.NewSlice[rec]("packed", ret, session.WithPacking[rec](pk))
				plain := session.NewSlice[rec]("plain", ret)
				s := session.New()
				ev := session.NewEvent[rec]("ev")
				session.OnAppend(s, ev, packed, func(x rec) rec { return x })
				session.OnAppend(s, ev, plain, func(x rec) rec { return x })
				type held struct {
					p, v session.View[rec]
					want []rec
				}
				var views []held
				var snaps []session.Snapshot
				seq := 0
				next := func() rec {
					seq++
					x := rec{Seq: seq, Name: "n" + strconv.Itoa(r.IntN(5)), Note: strings(r)}
					return x
				}
				for step := range 1500 {
					switch op := r.IntN(100); {
					case op < 50:
						x := next()
						session.Append(s, packed, x)
						session.Append(s, plain, x)
					case op < 70 && ret == session.NoRollback:
						x := next()
						b := session.Bound{Entries: 1 + r.IntN(200), Bytes: int64(100 + r.IntN(5000))}
						if r.IntN(4) == 0 {
							b.Bytes = -1
						}
						session.AppendBounded(s, packed, x, recSize(x), b, recSize)
						session.AppendBounded(s, plain, x, recSize(x), b, recSize)
					case op < 78:
						if err := session.Apply(s, ev, next()); err != nil {
							t.Fatal(err)
						}
					case op < 85:
						w := session.ViewOf(s, plain)
						views = append(views, held{p: session.ViewOf(s, packed), v: w, want: w.All()})
					case op < 88:
						snaps = append(snaps, s.Snapshot())
					case op < 90 && len(snaps) > 0:
						s.Restore(snaps[r.IntN(len(snaps))])
					case op < 92:
						var vs []rec
						for range r.IntN(80) {
							vs = append(vs, next())
						}
						session.Seed(s, packed, vs...)
						session.Seed(s, plain, vs...)
					case op < 94:
						keep := func(items []rec) []rec {
							return slices.DeleteFunc(items, func(x rec) bool { return x.Seq%3 == 0 })
						}
						session.Replace(s, packed, keep)
						session.Replace(s, plain, keep)
					case op < 95:
						session.Clear(s, packed)
						session.Clear(s, plain)
					}
					got, want := session.All(s, packed), session.All(s, plain)
					if !slices.Equal(got, want) {
						t.Fatalf("%v step %d: packed slice holds %d items, want %d: %v", ret, step, len(got), len(want), firstDiff(got, want))
					}
					if n := session.Len(s, packed); n != len(want) {
						t.Fatalf("%v step %d: Len = %d, want %d", ret, step, n, len(want))
					}
					if l, ok := session.Latest(s, packed); len(want) > 0 && (!ok || l != want[len(want)-1]) {
						t.Fatalf("%v step %d: Latest = %v, %v", ret, step, l, ok)
					}
					if len(views) > 0 {
						h := views[r.IntN(len(views))]
						checkView(t, h.p, h.want)
						checkView(t, h.v, h.want)
					}
				}
				for _, h := range views {
					checkView(t, h.p, h.want)
				}
				if pk.count() == 0 {
					t.Fatalf("%v: nothing was packed", ret)
				}
			}
		})
	}
}

func strings(r *rand.Rand) string {
	switch r.IntN(300) {
	case 0, 1, 2, 3, 4, 5, 6, 7, 8, 9:
		return ""
	case 10:
		return "refuse" // a group holding it stays values
	}
	return "note " + strconv.Itoa(r.IntN(1000))
}

func firstDiff(got, want []rec) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return "item " + strconv.Itoa(i) + ": " + strconv.Itoa(got[i].Seq) + " " + got[i].Note + " vs " + strconv.Itoa(want[i].Seq) + " " + want[i].Note
		}
	}
	return "lengths differ"
}

// checkView checks every way of reading a view against want.
func checkView(t *testing.T, w session.View[rec], want []rec) {
	t.Helper()
	if w.Len() != len(want) {
		t.Fatalf("view holds %d items, want %d", w.Len(), len(want))
	}
	if got := w.All(); !slices.Equal(got, want) {
		t.Fatalf("view changed after it was taken: %s", firstDiff(got, want))
	}
	for i, x := range want {
		if got := w.At(i); got != x {
			t.Fatalf("View.At(%d) = %v, want %v", i, got, x)
		}
	}
	i := 0
	for x := range w.Values() {
		if x != want[i] {
			t.Fatalf("Values item %d = %v, want %v", i, x, want[i])
		}
		i++
	}
	if got := w.Where(func(x rec) bool { return x.Seq%2 == 0 }); !slices.Equal(got, slices.DeleteFunc(slices.Clone(want), func(x rec) bool { return x.Seq%2 != 0 })) {
		t.Fatal("Where differs")
	}
}

// TestPackedLogAllocatesOnlyItsPackedBytes appends to a packed LOG slice, in place and bounded,
// and checks that it allocates fewer bytes per item than one item's value: the full groups go
// into the trie packed and the tail's storage is reused. A slice of values allocates at least its
// items' size (a chunk of 32 per 32 appends).
func TestPackedLogAllocatesOnlyItsPackedBytes(t *testing.T) {
	pk := bigPacking{}
	packed := session.NewSlice[big]("packed", session.NoRollback, session.WithPacking[big](pk))
	plain := session.NewSlice[big]("plain", session.NoRollback)
	size := func(big) int64 { return 128 }
	measure := func(sl session.Slice[big]) float64 {
		s := session.New()
		x := big{A: "tool", B: "call"}
		session.AppendBounded(s, sl, x, 128, session.Bound{Entries: 4096, Bytes: -1}, size)
		const n = 32 * 1024
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for i := range n {
			x.N[0] = int64(i)
			session.AppendBounded(s, sl, x, 128, session.Bound{Entries: 4096, Bytes: -1}, size)
		}
		runtime.ReadMemStats(&after)
		if got := session.Len(s, sl); got < 2048 || got > 4096 {
			t.Fatalf("the log holds %d items, want 2048 to 4096", got)
		}
		all := session.All(s, sl)
		for i, y := range all {
			if want := int64(n - len(all) + i); y.N[0] != want || y.A != "tool" || y.B != "call" {
				t.Fatalf("item %d = %+v, want N[0] %d", i, y, want)
			}
		}
		return float64(after.TotalAlloc-before.TotalAlloc) / n
	}
	p, v := measure(packed), measure(plain)
	t.Logf("bytes allocated per append: packed %.1f, values %.1f", p, v)
	if v < 128 {
		t.Fatalf("a slice of values allocated %.1f bytes per 128-byte item: the measure is wrong", v)
	}
	if p > 48 {
		t.Fatalf("a packed log allocated %.1f bytes per append, want at most 48 (its packed bytes)", p)
	}
}

// big is a 128-byte item.
type big struct {
	A, B, C, D string
	N          [8]int64
}

// bigPacking packs the first N of each item, when the rest is what the test appends.
type bigPacking struct{}

func (bigPacking) Pack(items []big) ([]byte, bool) {
	data := make([]byte, 0, 8*len(items))
	for _, x := range items {
		if x.A != "tool" || x.B != "call" || x.C != "" || x.D != "" || [7]int64(x.N[1:]) != [7]int64{} {
			return nil, false
		}
		data = binary.LittleEndian.AppendUint64(data, uint64(x.N[0]))
	}
	return data, true
}

func (bigPacking) Unpack(data []byte, i int) big {
	var x big
	x.A, x.B = "tool", "call"
	x.N[0] = int64(binary.LittleEndian.Uint64(data[8*i:]))
	return x
}

// TestPackedLogConcurrentReaders appends to a bounded packed LOG slice while readers take views and
// read them: every view holds consecutive items ending with one appended before it was taken, and
// keeps them (run under -race).
func TestPackedLogConcurrentReaders(t *testing.T) {
	pk := &recPacking{}
	sl := session.NewSlice[rec]("packed", session.NoRollback, session.WithPacking[rec](pk))
	s := session.New()
	const n = 20000
	var wg sync.WaitGroup
	done := make(chan struct{})
	for g := range 3 {
		wg.Go(func() {
			for k := 0; ; k++ {
				select {
				case <-done:
					return
				default:
				}
				w := session.ViewOf(s, sl)
				first := w.All()
				for i := 1; i < len(first); i++ {
					if first[i].Seq != first[i-1].Seq+1 || first[i].Name != "n"+strconv.Itoa(first[i].Seq%7) {
						t.Errorf("reader %d: items %d and %d are %+v and %+v", g, i-1, i, first[i-1], first[i])
						return
					}
				}
				if k%8 == 0 {
					runtime.Gosched()
				}
				if again := w.All(); !slices.Equal(again, first) {
					t.Errorf("reader %d: a view changed while the log grew", g)
					return
				}
			}
		})
	}
	for i := 1; i <= n; i++ {
		x := rec{Seq: i, Name: "n" + strconv.Itoa(i%7)}
		if i%5 == 0 {
			session.Append(s, sl, x) // unbounded appends between bounded ones
		} else {
			session.AppendBounded(s, sl, x, recSize(x), session.Bound{Entries: 500, Bytes: -1}, recSize)
		}
	}
	close(done)
	wg.Wait()
	all := session.All(s, sl)
	if len(all) == 0 || all[len(all)-1].Seq != n {
		t.Fatalf("the log ends with %v", all[len(all)-1:])
	}
	if pk.count() == 0 {
		t.Fatal("nothing was packed")
	}
}
