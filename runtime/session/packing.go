package session

import "strconv"

// Packing stores the items of a slice in bytes instead of as T values (WithPacking). A slice keeps its
// newest items (up to 32, the trie's tail) as values and hands each full group of 32 to Pack; what it
// reads back (View.At, All, Values, Where) is Unpack's result, which must equal the item that was
// packed. Bytes hold no pointers: the garbage collector neither scans a packed group nor counts it
// as pointers kept alive, and a LOG slice appended to in place (Append, AppendBounded) reuses its
// tail's storage for the next 32 items, so it allocates only the packed bytes of its items.
//
// Both methods may run concurrently, from any goroutine, under the session's lock (Pack) or without
// it (Unpack): they must not use the session.
type Packing[T any] interface {
	// Pack returns the encoding of items (always 32 of them) in a new byte slice, and ok false
	// when it cannot encode them exactly (an item holding something its format has no room
	// for): the group is then kept as values.
	Pack(items []T) (data []byte, ok bool)
	// Unpack returns item i (0 to 31) of data, a slice Pack returned. data is never modified
	// afterwards: the item may share its memory (strings made with unsafe.String).
	Unpack(data []byte, i int) T
}

// WithPacking stores the slice's items packed by p (see Packing). Reads return what p.Unpack
// returns; everything else about the slice (its order, bounds, views, snapshots, stores) is as
// without it.
func WithPacking[T any](p Packing[T]) SliceOption[T] {
	return func(sl *Slice[T]) {
		if p == nil {
			panic("session: WithPacking for slice " + strconv.Quote(sl.name) + ": nil Packing")
		}
		sl.packing = p
	}
}
