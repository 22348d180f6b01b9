package vfs

import "hash/maphash"

// The in-memory filesystem stores every file and directory in one persistent (immutable, path-copying)
// treap keyed by the full cleaned path. An update copies the O(log n) nodes on the way to the change and
// shares everything else, so a snapshot is the root pointer. Priorities are a (per-process seeded) hash of the
// key, so within a process the tree shape depends only on the set of keys, and the expected depth is O(log n).
//
// Keys sort bytewise. All keys below directory d lie in [d+"/", d+"0") because '0' is the byte after '/',
// which makes removing a subtree two splits and a merge, and listing a directory a sequence of seeks that
// skip each child's subtree.

// tnode is an immutable treap node. Never modify a node reachable from a published root.
type tnode struct {
	key         string
	prio        uint64
	val         *mfile
	left, right *tnode
}

// mfile is an immutable file or directory record. data is never modified after it is stored.
type mfile struct {
	dir   bool
	data  []byte
	mtime int64 // Unix nanoseconds
}

var prioSeed = maphash.MakeSeed()

func prioOf(key string) uint64 { return maphash.String(prioSeed, key) }

func (n *tnode) with(left, right *tnode) *tnode {
	return &tnode{key: n.key, prio: n.prio, val: n.val, left: left, right: right}
}

// tget returns the value stored under key, or nil.
func tget(n *tnode, key string) *mfile {
	for n != nil {
		switch {
		case key < n.key:
			n = n.left
		case key > n.key:
			n = n.right
		default:
			return n.val
		}
	}
	return nil
}

// tsplit returns the trees of keys < key and keys >= key.
func tsplit(n *tnode, key string) (*tnode, *tnode) {
	if n == nil {
		return nil, nil
	}
	if n.key < key {
		l, r := tsplit(n.right, key)
		return n.with(n.left, l), r
	}
	l, r := tsplit(n.left, key)
	return l, n.with(r, n.right)
}

// tmerge joins two trees where every key of a is smaller than every key of b.
func tmerge(a, b *tnode) *tnode {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	case a.prio >= b.prio:
		return a.with(a.left, tmerge(a.right, b))
	default:
		return b.with(tmerge(a, b.left), b.right)
	}
}

// tput returns a tree with key set to val.
func tput(n *tnode, key string, val *mfile) *tnode {
	return tputPrio(n, key, prioOf(key), val)
}

func tputPrio(n *tnode, key string, prio uint64, val *mfile) *tnode {
	if n == nil {
		return &tnode{key: key, prio: prio, val: val}
	}
	if n.key == key {
		return &tnode{key: key, prio: n.prio, val: val, left: n.left, right: n.right}
	}
	if prio > n.prio {
		l, r := tsplit(n, key)
		if r != nil && tget(r, key) != nil {
			// Not reachable: n.key != key and a key's priority is fixed, so an existing key sits at or
			// above every node of lower priority on its search path. Kept as a safe fallback.
			_, r = tsplit(r, key+"\x00")
		}
		return &tnode{key: key, prio: prio, val: val, left: l, right: r}
	}
	if key < n.key {
		return n.with(tputPrio(n.left, key, prio, val), n.right)
	}
	return n.with(n.left, tputPrio(n.right, key, prio, val))
}

// tdeleteRange returns a tree without the keys in [lo, hi).
func tdeleteRange(n *tnode, lo, hi string) *tnode {
	a, rest := tsplit(n, lo)
	_, c := tsplit(rest, hi)
	return tmerge(a, c)
}

// tseek returns the smallest key >= key and its value, or ok == false.
func tseek(n *tnode, key string) (k string, v *mfile, ok bool) {
	for n != nil {
		if n.key >= key {
			k, v, ok = n.key, n.val, true
			n = n.left
		} else {
			n = n.right
		}
	}
	return k, v, ok
}

// tascend calls f for every key in [lo, hi) in order until f returns false. hi == "" means no upper bound.
func tascend(n *tnode, lo, hi string, f func(string, *mfile) bool) bool {
	if n == nil {
		return true
	}
	if n.key >= lo {
		if !tascend(n.left, lo, hi, f) {
			return false
		}
		if hi != "" && n.key >= hi {
			return false
		}
		if !f(n.key, n.val) {
			return false
		}
	}
	return tascend(n.right, lo, hi, f)
}
