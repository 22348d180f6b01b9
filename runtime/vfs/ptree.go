package vfs

import "strings"

// The in-memory filesystem is a persistent (immutable, path-copying) tree of directories. Each directory
// node (mnode) holds its entries in a small persistent B+tree (bnode) keyed by entry name, so:
//
//   - a lookup walks the path's segments, with an O(log₃₂ children) search per directory;
//   - an update copies the directory nodes on the way to the change and, in each, the O(log₃₂ children)
//     B-tree nodes on the way to the entry; everything else is shared. Its cost depends on the path depth
//     and (barely) on directory sizes, never on the number of files elsewhere in the tree. A snapshot is
//     the root pointer;
//   - listing a directory is an in-order walk of its B-tree (names come out sorted), and removing a
//     directory with everything below it is one B-tree delete in its parent.
//
// B-tree nodes hold at most bmax entries (an insert splits a full node in halves); every node but a root
// holds at least bmin (a delete that leaves fewer merges the node with a neighbour, splitting the result
// again when it is too large); all leaves are at the same depth. Overwrites, the common case, go through a
// finger (seek records the path, set rebuilds it) so the names are compared once. Nodes are never
// modified once reachable from a published root.

const (
	bmax = 32
	bmin = bmax / 4
)

// mnode is an immutable file or directory record (32 bytes, the smallest size class that holds it): a
// directory has kids (its entries; emptyDir when it has none, shared between versions), a file has data
// (a string, so it cannot be modified after it is stored).
type mnode struct {
	data  string
	mtime int64 // Unix nanoseconds
	kids  *bnode
}

// emptyDir is the entries tree of every empty directory: a leaf without keys, never modified.
var emptyDir = &bnode{}

func (n *mnode) isDir() bool { return n.kids != nil }

// bnode is an immutable B+tree node. A leaf holds entry names sorted in keys and their records in vals;
// an internal node holds children in kids, where keys[i] <= every name below kids[i] < keys[i+1]. Keys and
// values live in separate slices so that replacing a value (overwriting a file, and every directory on
// the path of a change) copies only the pointer slice and shares the names.
type bnode struct {
	keys []bkey
	vals []*mnode // leaf
	kids []*bnode // internal (nil for a leaf)
}

func (b *bnode) leaf() bool { return b.kids == nil }

// bkey is an entry name with its first 8 bytes as a big-endian integer, so that most comparisons are
// one integer comparison. Names never contain NUL, so zero padding keeps the integer order consistent
// with the bytewise order of the names; equal prefixes fall back to comparing the names.
type bkey struct {
	pre uint64
	s   string
}

func mkKey(name string) bkey {
	var p uint64
	for i := range 8 {
		p <<= 8
		if i < len(name) {
			p |= uint64(name[i])
		}
	}
	return bkey{p, name}
}

func (a bkey) less(b bkey) bool { return a.pre < b.pre || a.pre == b.pre && a.s < b.s }

// keyPos returns the index of the first key that is >= k.
func keyPos(keys []bkey, k bkey) int {
	lo, hi := 0, len(keys)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if keys[m].less(k) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// kidPos returns the index of the child whose range holds k (0 when k sorts before every key).
func kidPos(keys []bkey, k bkey) int {
	lo, hi := 1, len(keys)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if !k.less(keys[m]) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo - 1
}

// bget returns the entry stored under name, or nil.
func bget(b *bnode, name string) *mnode {
	if b == nil {
		return nil
	}
	k := mkKey(name)
	for !b.leaf() {
		b = b.kids[kidPos(b.keys, k)]
	}
	if i := keyPos(b.keys, k); i < len(b.keys) && b.keys[i].s == name {
		return b.vals[i]
	}
	return nil
}

// bput returns a tree with name set to n. A new name is copied (strings.Clone) so that the tree does not
// keep the caller's whole path string alive.
func bput(b *bnode, name string, n *mnode) *bnode {
	k := mkKey(strings.Clone(name))
	if b == nil {
		return &bnode{keys: []bkey{k}, vals: []*mnode{n}}
	}
	l, r := bins(b, k, n)
	if r == nil {
		return l
	}
	return &bnode{keys: []bkey{l.keys[0], r.keys[0]}, kids: []*bnode{l, r}}
}

// inserted returns a copy of s with v inserted at i.
func inserted[T any](s []T, i int, v T) []T {
	out := make([]T, len(s)+1)
	copy(out, s[:i])
	out[i] = v
	copy(out[i+1:], s[i:])
	return out
}

// replaced returns a copy of s with s[i] set to v.
func replaced[T any](s []T, i int, v T) []T {
	out := make([]T, len(s))
	copy(out, s)
	out[i] = v
	return out
}

// removed returns a copy of s without s[i].
func removed[T any](s []T, i int) []T {
	out := make([]T, len(s)-1)
	copy(out, s[:i])
	copy(out[i:], s[i+1:])
	return out
}

// halves splits an overfull node's slices into two nodes.
func halves(keys []bkey, vals []*mnode, kids []*bnode) (*bnode, *bnode) {
	h := len(keys) / 2
	l, r := &bnode{keys: keys[:h:h]}, &bnode{keys: keys[h:]}
	if kids == nil {
		l.vals, r.vals = vals[:h:h], vals[h:]
	} else {
		l.kids, r.kids = kids[:h:h], kids[h:]
	}
	return l, r
}

// bins inserts or replaces k in b and returns the new node, plus its right half when it had to split.
func bins(b *bnode, k bkey, n *mnode) (*bnode, *bnode) {
	if b.leaf() {
		i := keyPos(b.keys, k)
		if i < len(b.keys) && b.keys[i].s == k.s {
			return leafWith(b, i, n), nil
		}
		keys, vals := inserted(b.keys, i, k), inserted(b.vals, i, n)
		if len(keys) <= bmax {
			return &bnode{keys: keys, vals: vals}, nil
		}
		return halves(keys, vals, nil)
	}
	i := kidPos(b.keys, k)
	l, r := bins(b.kids[i], k, n)
	keys := b.keys
	if k.less(keys[i]) {
		keys = replaced(keys, i, k)
	}
	if r == nil {
		nb := innerWith(b, i, l)
		nb.keys = keys
		return nb, nil
	}
	keys = inserted(keys, i+1, r.keys[0])
	kids := inserted(b.kids, i+1, r)
	kids[i] = l
	if len(keys) <= bmax {
		return &bnode{keys: keys, kids: kids}, nil
	}
	return halves(keys, nil, kids)
}

// A finger is the path from a B-tree's root to one entry, recorded by seek so that set can replace the
// entry's value without searching again.
type finger struct {
	n    int
	path [8]step // depth 8 holds at least 2·bmin⁶ entries; deeper trees fall back to bput
}

type step struct {
	b *bnode
	i int
}

// seek returns the value stored under name (nil when absent) and whether the finger now points at it.
func (f *finger) seek(b *bnode, name string) (*mnode, bool) {
	f.n = 0
	if b == nil {
		return nil, false
	}
	k := mkKey(name)
	for !b.leaf() {
		i := kidPos(b.keys, k)
		if f.n == len(f.path)-1 {
			return bget(b, name), false
		}
		f.path[f.n] = step{b, i}
		f.n++
		b = b.kids[i]
	}
	i := keyPos(b.keys, k)
	if i == len(b.keys) || b.keys[i].s != name {
		return nil, false
	}
	f.path[f.n] = step{b, i}
	f.n++
	return b.vals[i], true
}

// set returns the tree with the entry the finger points at replaced by n. Only the nodes on the path are
// copied, and each copy is a single allocation.
func (f *finger) set(n *mnode) *bnode {
	s := f.path[f.n-1]
	b := leafWith(s.b, s.i, n)
	for k := f.n - 2; k >= 0; k-- {
		s = f.path[k]
		b = innerWith(s.b, s.i, b)
	}
	return b
}

// leafWith returns a copy of leaf b with vals[i] set to n; it shares b's keys.
func leafWith(b *bnode, i int, n *mnode) *bnode {
	nb := newLeaf(len(b.vals))
	nb.keys = b.keys
	copy(nb.vals, b.vals)
	nb.vals[i] = n
	return nb
}

// innerWith returns a copy of internal node b with kids[i] set to c; it shares b's keys.
func innerWith(b *bnode, i int, c *bnode) *bnode {
	nb := newInner(len(b.kids))
	nb.keys = b.keys
	copy(nb.kids, b.kids)
	nb.kids[i] = c
	return nb
}

// newLeaf allocates a leaf whose vals (length n) live in the same allocation as the node: a node and its
// values are created and die together, so this halves the allocations of a path copy without keeping
// anything else alive. The array lengths are chosen so that node plus array fill one of the runtime's
// size classes (72 + 8n bytes), wasting at most one slot.
func newLeaf(n int) *bnode {
	switch {
	case n <= 1:
		return withVals(n, func(a *[1]*mnode) []*mnode { return a[:] })
	case n <= 3:
		return withVals(n, func(a *[3]*mnode) []*mnode { return a[:] })
	case n <= 5:
		return withVals(n, func(a *[5]*mnode) []*mnode { return a[:] })
	case n <= 7:
		return withVals(n, func(a *[7]*mnode) []*mnode { return a[:] })
	case n <= 9:
		return withVals(n, func(a *[9]*mnode) []*mnode { return a[:] })
	case n <= 11:
		return withVals(n, func(a *[11]*mnode) []*mnode { return a[:] })
	case n <= 13:
		return withVals(n, func(a *[13]*mnode) []*mnode { return a[:] })
	case n <= 15:
		return withVals(n, func(a *[15]*mnode) []*mnode { return a[:] })
	case n <= 17:
		return withVals(n, func(a *[17]*mnode) []*mnode { return a[:] })
	case n <= 19:
		return withVals(n, func(a *[19]*mnode) []*mnode { return a[:] })
	case n <= 21:
		return withVals(n, func(a *[21]*mnode) []*mnode { return a[:] })
	case n <= 23:
		return withVals(n, func(a *[23]*mnode) []*mnode { return a[:] })
	case n <= 27:
		return withVals(n, func(a *[27]*mnode) []*mnode { return a[:] })
	case n <= 31:
		return withVals(n, func(a *[31]*mnode) []*mnode { return a[:] })
	case n <= bmax:
		return withVals(n, func(a *[bmax]*mnode) []*mnode { return a[:] })
	}
	return &bnode{vals: make([]*mnode, n)}
}

// newInner is newLeaf for internal nodes.
func newInner(n int) *bnode {
	switch {
	case n <= 3:
		return withKids(n, func(a *[3]*bnode) []*bnode { return a[:] })
	case n <= 5:
		return withKids(n, func(a *[5]*bnode) []*bnode { return a[:] })
	case n <= 7:
		return withKids(n, func(a *[7]*bnode) []*bnode { return a[:] })
	case n <= 9:
		return withKids(n, func(a *[9]*bnode) []*bnode { return a[:] })
	case n <= 11:
		return withKids(n, func(a *[11]*bnode) []*bnode { return a[:] })
	case n <= 13:
		return withKids(n, func(a *[13]*bnode) []*bnode { return a[:] })
	case n <= 15:
		return withKids(n, func(a *[15]*bnode) []*bnode { return a[:] })
	case n <= 17:
		return withKids(n, func(a *[17]*bnode) []*bnode { return a[:] })
	case n <= 19:
		return withKids(n, func(a *[19]*bnode) []*bnode { return a[:] })
	case n <= 21:
		return withKids(n, func(a *[21]*bnode) []*bnode { return a[:] })
	case n <= 23:
		return withKids(n, func(a *[23]*bnode) []*bnode { return a[:] })
	case n <= 27:
		return withKids(n, func(a *[27]*bnode) []*bnode { return a[:] })
	case n <= 31:
		return withKids(n, func(a *[31]*bnode) []*bnode { return a[:] })
	case n <= bmax:
		return withKids(n, func(a *[bmax]*bnode) []*bnode { return a[:] })
	}
	return &bnode{kids: make([]*bnode, n)}
}

type nodeWith[A any] struct {
	b bnode
	a A
}

func withVals[A any](n int, slice func(*A) []*mnode) *bnode {
	x := new(nodeWith[A])
	x.b.vals = slice(&x.a)[:n:n]
	return &x.b
}

func withKids[A any](n int, slice func(*A) []*bnode) *bnode {
	x := new(nodeWith[A])
	x.b.kids = slice(&x.a)[:n:n]
	return &x.b
}

// bdel returns a tree without name (nil when it becomes empty) and whether name was there.
func bdel(b *bnode, name string) (*bnode, bool) {
	if b == nil {
		return nil, false
	}
	nb, ok := bdelNode(b, mkKey(name))
	switch {
	case !ok:
		return b, false
	case !nb.leaf() && len(nb.kids) == 1:
		return nb.kids[0], true
	case len(nb.keys) == 0:
		return nil, true
	}
	return nb, true
}

func bdelNode(b *bnode, k bkey) (*bnode, bool) {
	if b.leaf() {
		i := keyPos(b.keys, k)
		if i == len(b.keys) || b.keys[i].s != k.s {
			return b, false
		}
		return &bnode{keys: removed(b.keys, i), vals: removed(b.vals, i)}, true
	}
	i := kidPos(b.keys, k)
	c, ok := bdelNode(b.kids[i], k)
	if !ok {
		return b, false
	}
	if len(c.keys) >= bmin {
		return innerWith(b, i, c), true
	}
	// c is underfull: merge it with a neighbour, and split the result again when it is too large.
	lo := i
	left, right := c, b.kids[i+1:]
	if i > 0 {
		lo = i - 1
		left, right = b.kids[i-1], []*bnode{c}
	}
	ml, mr := bjoin(left, right[0])
	keys := make([]bkey, 0, len(b.keys))
	kids := make([]*bnode, 0, len(b.kids))
	keys, kids = append(keys, b.keys[:lo]...), append(kids, b.kids[:lo]...)
	keys, kids = append(keys, b.keys[lo]), append(kids, ml) // the pair's lower bound stays
	if mr != nil {
		keys, kids = append(keys, mr.keys[0]), append(kids, mr)
	}
	keys, kids = append(keys, b.keys[lo+2:]...), append(kids, b.kids[lo+2:]...)
	return &bnode{keys: keys, kids: kids}, true
}

// bjoin concatenates two sibling nodes of the same height into one node, or two when the result is
// larger than bmax.
func bjoin(l, r *bnode) (*bnode, *bnode) {
	keys := append(append(make([]bkey, 0, len(l.keys)+len(r.keys)), l.keys...), r.keys...)
	if l.leaf() {
		vals := append(append(make([]*mnode, 0, len(keys)), l.vals...), r.vals...)
		if len(keys) <= bmax {
			return &bnode{keys: keys, vals: vals}, nil
		}
		return halves(keys, vals, nil)
	}
	kids := append(append(make([]*bnode, 0, len(keys)), l.kids...), r.kids...)
	if len(keys) <= bmax {
		return &bnode{keys: keys, kids: kids}, nil
	}
	return halves(keys, nil, kids)
}

// bwalk calls f for every entry in name order until f returns false.
func bwalk(b *bnode, f func(string, *mnode) bool) bool {
	if b == nil {
		return true
	}
	if b.leaf() {
		for i, k := range b.keys {
			if !f(k.s, b.vals[i]) {
				return false
			}
		}
		return true
	}
	for _, k := range b.kids {
		if !bwalk(k, f) {
			return false
		}
	}
	return true
}
