package session

import "sync/atomic"

// The persistent vector: a 32-way trie of full leaf chunks plus a tail chunk
// holding the last 1..32 items (Clojure's PersistentVector layout). Every
// vector value is immutable once published; an update returns a new vector
// that shares all untouched nodes with the old one.
//
// Tail appends are done in place when possible: a chunk records how many of
// its slots have been claimed (used). A vector whose tail length equals the
// chunk's used count may claim the next slot with a CAS and write it; every
// other version (a snapshot, a view, a rolled-back version) only ever reads
// slots below its own tail length, so it never observes the write. A version
// that loses the CAS copies the tail first. This keeps Append at one small
// allocation (the vector header) for 31 of 32 appends.

const (
	bits  = 5
	width = 1 << bits
	mask  = width - 1
)

// chunk is a leaf: up to width items. Slots below used are immutable.
type chunk[T any] struct {
	used atomic.Int32
	// shared is set once a vector other than the one whose tail the chunk is may read it (see
	// shareTail). An unshared full tail of a packed slice is emptied and reused (pushInPlace).
	shared atomic.Bool
	items  [width]T
}

// shareTail marks v's tail as read by another vector too: it is never reused in place.
func (v *vector[T]) shareTail() {
	if v != nil && v.tail != nil && !v.tail.shared.Load() {
		v.tail.shared.Store(true)
	}
}

// inner is an interior trie node; kids hold *inner or *chunk[T] values.
type inner struct {
	kids [width]any
}

// vector is an immutable persistent vector. A nil *vector is empty.
//
// Positions in the trie are raw: item i of the vector is raw item start+i. dropFront drops the oldest
// items by moving start and removing, in a path copy, the leaves that hold dropped items only (a
// bounded log's trim: no item is copied). The trie keeps its shift when its leaves are all gone
// (root nil with count > width), so raw positions keep their place in it.
type vector[T any] struct {
	count int  // raw items: dropped ones included
	start int  // items dropped from the front (dropFront)
	shift uint // shift of root; 0 means root is a *chunk[T] (or nil)
	root  any  // nil, *chunk[T] or *inner
	tail  *chunk[T]

	// pushed memoises the trie with this vector's full tail pushed into it,
	// computed by the first push from this version. Pushing the same full
	// tail into the same immutable trie always gives the same trie, so later
	// pushes from this version (after a rollback restored it) reuse it
	// instead of path-copying again.
	pushed atomic.Pointer[trie]

	// published is set once the vector is visible outside its session's
	// table of heads (a View, a reducer's view). Until then Append may grow a
	// LOG slice's head in place (pushInPlace) instead of allocating a new
	// head per item: nothing but the tables hold it, and snapshots and
	// Restore never read a LOG slice's head from a saved table.
	published atomic.Bool

	// edge reports that the interior nodes on the trie's right edge (root to the last leaf's parent)
	// were made for this vector alone: by its own path copies (pushInPlace), dropFront or build. Then
	// pushInPlace adds a full leaf by changing them in place instead of copying a 512-byte node per 32
	// items. push clears it on the vector it pushes from, whose nodes the new vector then shares.
	// Read and written under the session's lock only, like pushInPlace.
	edge bool
}

// publish marks v as visible outside the session's tables (nil-safe).
func (v *vector[T]) publish() *vector[T] {
	if v != nil && !v.published.Load() {
		v.published.Store(true)
	}
	return v
}

// trie is a root and its shift.
type trie struct {
	root  any
	shift uint
}

func (v *vector[T]) len() int {
	if v == nil {
		return 0
	}
	return v.count - v.start
}

// tailLen is the number of items in the tail: 1..width when count > 0.
func (v *vector[T]) tailLen() int {
	if v == nil || v.count == 0 {
		return 0
	}
	return ((v.count - 1) & mask) + 1
}

func newChunk[T any](x T) *chunk[T] {
	c := new(chunk[T])
	c.items[0] = x
	c.used.Store(1)
	return c
}

// push returns a new vector with x appended. v is not modified (observably).
func (v *vector[T]) push(x T) *vector[T] { return v.pushPacked(x, nil) }

// pushPacked is push for a slice whose full leaves pk packs (nil: none).
func (v *vector[T]) pushPacked(x T, pk Packing[T]) *vector[T] {
	if v == nil || v.count == 0 {
		return &vector[T]{count: 1, tail: newChunk(x)}
	}
	if v.edge {
		v.edge = false // the new vector shares v's nodes: neither may change them in place
	}
	v.shareTail() // the new vector reads it too, or (full) the trie holds it or a copy of it
	tl := v.tailLen()
	if tl < width {
		t := v.tail
		if !t.used.CompareAndSwap(int32(tl), int32(tl+1)) {
			n := new(chunk[T])
			copy(n.items[:tl], t.items[:tl])
			n.used.Store(int32(tl + 1))
			t = n
		}
		t.items[tl] = x
		return &vector[T]{count: v.count + 1, start: v.start, shift: v.shift, root: v.root, tail: t}
	}
	t := v.pushed.Load()
	if t == nil {
		root, shift := pushLeaf(v.root, v.shift, v.count-width, leafOf(v.tail, pk))
		t = &trie{root: root, shift: shift}
		v.pushed.Store(t) // a racing push stores an equal trie: either is fine
	}
	return &vector[T]{count: v.count + 1, start: v.start, shift: t.shift, root: t.root, tail: newChunk(x)}
}

// pushInPlace appends x to v itself, which must be non-empty, unpublished
// and owned by the caller (the session's write lock held). The tail slot is
// claimed as push does, so other versions sharing the chunk are unaffected.
func (v *vector[T]) pushInPlace(x T) { v.pushInPlacePacked(x, nil) }

// pushInPlacePacked is pushInPlace for a slice whose full leaves pk packs (nil: none). A full tail
// that pk packs goes into the trie as its packed copy, and when no other vector reads the tail chunk
// (chunk.shared) the chunk is emptied and reused for the next items: a packed LOG slice grown in place
// allocates only its packed leaves.
func (v *vector[T]) pushInPlacePacked(x T, pk Packing[T]) {
	tl := v.tailLen()
	if tl < width {
		t := v.tail
		if !t.used.CompareAndSwap(int32(tl), int32(tl+1)) {
			n := new(chunk[T])
			copy(n.items[:tl], t.items[:tl])
			n.used.Store(int32(tl + 1))
			t = n
			v.tail = n
		}
		t.items[tl] = x
		v.count++
		return
	}
	t := v.pushed.Load()
	var leaf any = v.tail
	if t == nil {
		leaf = leafOf(v.tail, pk)
	}
	switch {
	case t == nil && v.edge:
		v.root, v.shift = pushLeafInPlace(v.root, v.shift, v.count-width, leaf)
	case t == nil:
		v.root, v.shift = pushLeaf(v.root, v.shift, v.count-width, leaf)
		v.edge = true // the path copy's nodes are v's alone
	default:
		v.root, v.shift = t.root, t.shift
		v.edge = false      // the memo's nodes are shared with the vectors pushed from this version
		v.pushed.Store(nil) // the memo belonged to the previous version
	}
	v.count++
	if c := v.tail; leaf != any(c) && !c.shared.Load() {
		// Packed, and read by no other vector (the trie holds the copy): reuse the chunk. Clearing it
		// keeps no item referenced twice.
		clear(c.items[1:])
		c.items[0] = x
		c.used.Store(1)
		return
	}
	v.tail = newChunk(x)
}

// leafOf returns the trie leaf for the full chunk c: c packed by pk, or c itself when pk is nil or
// does not pack c's items. c stays a tail whose items are read in place: a leaf holding c is shared
// with it (shared is set).
func leafOf[T any](c *chunk[T], pk Packing[T]) any {
	if pk != nil {
		if data, ok := pk.Pack(c.items[:]); ok {
			return &packedLeaf[T]{pk: pk, data: data}
		}
	}
	if !c.shared.Load() {
		c.shared.Store(true)
	}
	return c
}

// packedLeaf is a full leaf of a packed slice: its width items as pk packed them.
type packedLeaf[T any] struct {
	pk   Packing[T]
	data []byte
}

// leafAt returns item i (0..width-1) of the leaf n, a *chunk[T] or a *packedLeaf[T].
func leafAt[T any](n any, i int) T {
	if c, ok := n.(*chunk[T]); ok {
		return c.items[i]
	}
	p := n.(*packedLeaf[T])
	return p.pk.Unpack(p.data, i)
}

// pushLeafInPlace is pushLeaf changing the nodes on the trie's right edge in place: only for a
// vector whose edge they are (vector.edge). Nodes it adds are new.
func pushLeafInPlace(root any, shift uint, off int, leaf any) (any, uint) {
	if off == 0 || off == 1<<(shift+bits) {
		return pushLeaf(root, shift, off, leaf) // the leaf alone, or a new root over the old one
	}
	n, _ := root.(*inner)
	if n == nil { // every leaf dropped (dropFront): an empty node keeps the raw positions
		return pushLeaf(root, shift, off, leaf)
	}
	r := n
	for s := shift; ; s -= bits {
		i := (off >> s) & mask
		if s == bits {
			n.kids[i] = leaf
			return r, shift
		}
		if n.kids[i] == nil {
			n.kids[i] = newPath(leaf, s-bits)
			return r, shift
		}
		n = n.kids[i].(*inner)
	}
}

// pushLeaf adds a full leaf whose first item has index off (the trie's item
// count) to the trie rooted at root, path-copying.
func pushLeaf(root any, shift uint, off int, leaf any) (any, uint) {
	if off == 0 {
		return leaf, 0
	}
	if off == 1<<(shift+bits) { // root is full: grow one level
		n := &inner{}
		n.kids[0] = root // nil when dropFront dropped all its leaves
		n.kids[1] = newPath(leaf, shift)
		return n, shift + bits
	}
	r, _ := root.(*inner)
	if r == nil { // every leaf dropped (dropFront): an empty node keeps the raw positions
		r = &inner{}
	}
	return pushInto(r, shift, off, leaf), shift
}

func newPath(leaf any, shift uint) any {
	if shift == 0 {
		return leaf
	}
	n := &inner{}
	n.kids[0] = newPath(leaf, shift-bits)
	return n
}

func pushInto(n *inner, shift uint, off int, leaf any) *inner {
	c := *n
	i := (off >> shift) & mask
	switch {
	case shift == bits:
		c.kids[i] = leaf
	case c.kids[i] == nil:
		c.kids[i] = newPath(leaf, shift-bits)
	default:
		c.kids[i] = pushInto(c.kids[i].(*inner), shift-bits, off, leaf)
	}
	return &c
}

// at returns item i; i must be in range.
func (v *vector[T]) at(i int) T {
	i += v.start
	off := v.count - v.tailLen()
	if i >= off {
		return v.tail.items[i-off]
	}
	n := v.root
	for s := v.shift; s > 0; s -= bits {
		n = n.(*inner).kids[(i>>s)&mask]
	}
	return leafAt[T](n, i&mask)
}

// appendTo appends all items in order to dst.
func (v *vector[T]) appendTo(dst []T) []T {
	v.each(func(_ int, x T) bool {
		dst = append(dst, x)
		return true
	})
	return dst
}

// each calls yield for every item in order until yield returns false.
func (v *vector[T]) each(yield func(int, T) bool) {
	if v.len() == 0 {
		return
	}
	raw := 0
	if !eachNode(v.root, v.shift, &raw, v.start, yield) {
		return
	}
	raw = v.count - v.tailLen() // the trie may be gone (dropFront)
	for _, x := range v.tail.items[:v.tailLen()] {
		if raw >= v.start && !yield(raw-v.start, x) {
			return
		}
		raw++
	}
}

// eachNode yields the items of the trie node n (at shift, its first raw position *raw) from raw
// position start on, advancing *raw past the node. Nil kids before the last one are leaves
// dropFront removed (their positions are skipped); the first nil kid after a non-nil one ends the
// trie.
func eachNode[T any](n any, shift uint, raw *int, start int, yield func(int, T) bool) bool {
	if n == nil {
		return true
	}
	if shift == 0 {
		i := 0
		if *raw < start {
			i = min(start-*raw, width)
		}
		if c, ok := n.(*chunk[T]); ok {
			for ; i < width; i++ {
				if !yield(*raw+i-start, c.items[i]) {
					return false
				}
			}
		} else {
			p := n.(*packedLeaf[T])
			for ; i < width; i++ {
				if !yield(*raw+i-start, p.pk.Unpack(p.data, i)) {
					return false
				}
			}
		}
		*raw += width
		return true
	}
	seen := false
	for _, k := range n.(*inner).kids {
		if k == nil {
			if seen {
				break
			}
			*raw += 1 << shift
			continue
		}
		seen = true
		if !eachNode(k, shift-bits, raw, start, yield) {
			return false
		}
	}
	return true
}

// dropFront returns a vector of v's items from index k on (nil when none remain), copying no item:
// the leaves still holding kept items and the tail are shared with v, under new interior nodes
// (O(kept/32) pointers) that number them from the first kept leaf, so the trie stays as shallow as
// what it keeps however many items were ever appended, and nothing references a dropped leaf. Only
// items sharing a leaf with the first kept one stay referenced (start counts them).
func (v *vector[T]) dropFront(k int) *vector[T] {
	n := v.len()
	if k <= 0 {
		return v
	}
	if k >= n {
		return nil
	}
	start := v.start + k
	first := start / width // the first leaf kept, by raw position
	trieLen := v.count - v.tailLen()
	var leaves []any
	for off := first * width; off < trieLen; off += width {
		leaves = append(leaves, v.leaf(off))
	}
	root, shift := trieOf(leaves)
	if v.published.Load() {
		v.shareTail() // else v is dropped from its session's table: its tail passes to the new head
	}
	return &vector[T]{count: v.count - first*width, start: start - first*width, shift: shift, root: root, tail: v.tail, edge: true}
}

// leaf returns the trie's leaf holding raw position off: a *chunk[T] or a *packedLeaf[T].
func (v *vector[T]) leaf(off int) any {
	n := v.root
	for s := v.shift; s > 0; s -= bits {
		n = n.(*inner).kids[(off>>s)&mask]
	}
	return n
}

// trieOf builds a dense trie over leaves, bottom-up: nil for none, the leaf itself for one.
func trieOf(level []any) (root any, shift uint) {
	if len(level) == 0 {
		return nil, 0
	}
	for len(level) > 1 {
		next := make([]any, 0, (len(level)+mask)/width)
		for i := 0; i < len(level); i += width {
			nd := &inner{}
			copy(nd.kids[:], level[i:min(i+width, len(level))])
			next = append(next, nd)
		}
		level = next
		shift += bits
	}
	return level[0], shift
}

// build returns a fresh vector holding a copy of vs (nil when empty), built
// bottom-up in O(len(vs)).
func build[T any](vs []T) *vector[T] {
	n := len(vs)
	if n == 0 {
		return nil
	}
	tl := ((n - 1) & mask) + 1
	off := n - tl
	tail := new(chunk[T])
	copy(tail.items[:], vs[off:])
	tail.used.Store(int32(tl))
	v := &vector[T]{count: n, tail: tail, edge: true}
	if off == 0 {
		return v
	}
	level := make([]any, 0, off/width)
	for i := 0; i < off; i += width {
		c := new(chunk[T])
		copy(c.items[:], vs[i:i+width])
		c.used.Store(width)
		level = append(level, c)
	}
	v.root, v.shift = trieOf(level)
	return v
}
