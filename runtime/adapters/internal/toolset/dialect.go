package toolset

import (
	"sync"
	"unsafe"
)

// Dialect caches the dialect form an adapter derives from a tool's plain schema (Spec.ParamsSchema), so
// each schema is converted once per process rather than once per request. Entries are keyed by the
// identity of the plain schema's bytes (their address and length): generated tools keep their schemas in
// package variables, and a WithDescription copy shares its original's. A hand-built Spec whose schema
// bytes are built anew for each tool adds one entry per schema; the entries are never evicted.
type Dialect[V any] struct {
	m sync.Map // dialectKey → V
}

type dialectKey struct {
	p *byte
	n int
}

// Get returns the form of plain, deriving it with derive on first use. Concurrent first uses may derive
// it twice; one result is kept. derive must be a pure function of plain.
func (c *Dialect[V]) Get(plain []byte, derive func([]byte) V) V {
	k := dialectKey{unsafe.SliceData(plain), len(plain)}
	if v, ok := c.m.Load(k); ok {
		return v.(V)
	}
	v, _ := c.m.LoadOrStore(k, derive(plain))
	return v.(V)
}
