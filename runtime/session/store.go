package session

import (
	"context"
	"errors"
	"strconv"
	"sync"

	"github.com/winkgen/wink/runtime/strictjson"
)

// SliceOption configures a slice declared with NewSlice.
type SliceOption[T any] func(*Slice[T])

// WithCodec attaches the codec a session store uses to keep the slice's items (winkgen emits one for
// every type marked //wink:state, as Wink<Type>Codec). A slice without a codec lives in memory only.
func WithCodec[T any](c Codec[T]) SliceOption[T] {
	return func(sl *Slice[T]) {
		if c.Encode == nil || c.Decode == nil {
			panic("session: WithCodec for slice " + strconv.Quote(sl.name) + ": the codec needs Encode and Decode")
		}
		sl.codec = &c
	}
}

// Persistent is a slice a session store may keep: every Slice[T] is one. Stores take the slices they
// keep as Persistents when they are made, and refuse a slice without a codec then, not at its first
// write.
type Persistent interface {
	persistent() *sliceInfo
}

// SliceSpec describes a slice a store keeps.
type SliceSpec struct {
	Name      string // the slice's name: the key it is stored under
	Retention Retention
}

// sliceInfo is the type-erased view of one stored slice that a session uses to load and save it.
type sliceInfo struct {
	id        uint32
	name      string
	retention Retention
	codec     bool
	// head returns the slice's current head (compared to detect a change) and length; encode the
	// encodings of items [from:] of the current head. Both run under s.mu.
	head   func(s *Session) (any, int)
	encode func(s *Session, from int) [][]byte
	// set replaces a STATE slice's contents with the decoded items; appendLog appends decoded items to a
	// LOG slice. Both run under s.mu and change nothing on a decoding error, which names the item.
	set       func(s *Session, items [][]byte) error
	appendLog func(s *Session, items [][]byte) error
	clear     func(s *Session)
	// verify reads items [base:] back with the codec, as a store's load would: the first that does not
	// read back is returned as an *UnstorableError (without its session).
	verify func(items [][]byte, base int) error
	// restore puts back a head returned by head (a STATE slice's rollback of a failed commit).
	restore func(s *Session, h any)
}

func (sl Slice[T]) persistent() *sliceInfo {
	sl.check()
	in := &sliceInfo{id: sl.id, name: sl.name, retention: sl.retention, codec: sl.codec != nil}
	if sl.codec == nil {
		return in
	}
	c := sl.codec
	in.head = func(s *Session) (any, int) {
		h := head(s, sl)
		return h, h.len()
	}
	in.encode = func(s *Session, from int) [][]byte {
		h := head(s, sl)
		out := [][]byte{}
		for i := from; i < h.len(); i++ {
			v := h.at(i)
			out = append(out, c.Encode(nil, &v))
		}
		return out
	}
	decodeAll := func(items [][]byte, base int) ([]T, error) {
		vs := make([]T, 0, len(items))
		for i, b := range items {
			v, err := c.Decode(b)
			if err != nil && sl.upgrade != nil {
				v, err = sl.upgrade(b, err)
				if err == ErrDropItem {
					if sl.retention == Rollback {
						continue
					}
					err = errors.New("a LOG item cannot be dropped (WithUpgrade must return a value for it)")
				}
			}
			if err != nil {
				return nil, &itemError{index: base + i, err: err}
			}
			vs = append(vs, v)
		}
		return vs, nil
	}
	in.verify = func(items [][]byte, base int) error {
		for i, b := range items {
			var err error
			if len(b) > MaxItemBytes {
				err = errors.New("its encoding is " + strconv.Itoa(len(b)) + " bytes, more than MaxItemBytes (" + strconv.Itoa(MaxItemBytes) + ")")
			} else if jerr := checkItemJSON(b); jerr != nil {
				err = jerr
			} else if _, derr := c.Decode(b); derr != nil {
				err = derr
			}
			if err != nil {
				return &UnstorableError{Slice: sl.name, Item: base + i, Err: err}
			}
		}
		return nil
	}
	in.restore = func(s *Session, h any) {
		v, _ := h.(*vector[T])
		setHead(s, sl, v)
	}
	in.set = func(s *Session, items [][]byte) error {
		vs, err := decodeAll(items, 0)
		if err != nil {
			return err
		}
		setHead(s, sl, build(vs))
		return nil
	}
	in.appendLog = func(s *Session, items [][]byte) error {
		h := head(s, sl)
		vs, err := decodeAll(items, h.len())
		if err != nil {
			return err
		}
		for _, v := range vs {
			h = h.push(v)
		}
		setHead(s, sl, h)
		return nil
	}
	in.clear = func(s *Session) { setHead[T](s, sl, nil) }
	return in
}

type itemError struct {
	index int
	err   error
}

func (e *itemError) Error() string { return "item " + strconv.Itoa(e.index) + ": " + e.err.Error() }
func (e *itemError) Unwrap() error { return e.err }

// Specs checks the slices a store is to keep and describes them: every slice needs a codec, and names
// must be unique (they are the keys the slices are stored under). Stores call it when they are made.
func Specs(slices ...Persistent) ([]SliceSpec, error) {
	var errs []error
	seen := map[string]bool{}
	var out []SliceSpec
	for _, p := range slices {
		in := p.persistent()
		if !in.codec {
			errs = append(errs, errors.New("session slice "+strconv.Quote(in.name)+
				" has no codec: declare it with session.WithCodec(Wink<Type>Codec), marking its item type //wink:state so winkgen emits the codec"))
			continue
		}
		if seen[in.name] {
			errs = append(errs, errors.New("session slice name "+strconv.Quote(in.name)+" is given twice; stored slices need distinct names"))
			continue
		}
		seen[in.name] = true
		out = append(out, SliceSpec{Name: in.name, Retention: in.retention})
	}
	return out, errors.Join(errs...)
}

// Store keeps sessions outside the process: in memory (NewMemoryStore, for one process and tests) or in
// a database (runtime/session/pgstore), so that a session survives a restart and workers of a fleet
// share it. A session made with WithStore loads and commits through it in every transaction (Begin ...
// End): Begin takes the store's lock for the session (exclusive, or shared for ReadOnly; across
// processes the database's lock plays the in-process lock's part) and loads what other processes
// committed since this one last saw the session; End writes what the transaction changed (the STATE
// slices whose content changed, the LOG entries appended), atomically, and releases the lock.
type Store interface {
	// Slices returns the slices the store keeps.
	Slices() []Persistent
	// Begin locks session id in the store, exclusively or shared, and returns what was committed after
	// known: every stored STATE slice whose content changed since version known.Version (all of them
	// when known.Version is negative), and every LOG slice's entries from known.Logs[name] on. The
	// session is created, empty, if the store has never seen it.
	Begin(ctx context.Context, id string, access Access, known Known) (StoreTx, Loaded, error)
}

// StoreTx is a store's transaction on one session, from Begin to Commit or Abort.
type StoreTx interface {
	// Commit writes w (what the transaction changed), makes it the session's new version and releases
	// the lock. On error nothing is written and the lock is released.
	Commit(ctx context.Context, w Write) (version int64, err error)
	// Abort releases the lock, writing nothing.
	Abort(ctx context.Context) error
}

// Known is what a process holds of a stored session: the version it last loaded or committed, and the
// number of entries of each LOG slice it holds.
type Known struct {
	Version int64
	Logs    map[string]int
}

// Loaded is what Store.Begin returns: the session's current version, the full content of the STATE
// slices that changed since the known version, and the LOG entries after the known counts.
type Loaded struct {
	Version int64
	State   map[string][][]byte
	Logs    map[string][][]byte
}

// Write is what one transaction changed: the full new content of the STATE slices that changed, and for
// each LOG slice the entries appended, the first one at index LogFrom[name].
type Write struct {
	State   map[string][][]byte
	Logs    map[string][][]byte
	LogFrom map[string]int
}

// Empty reports whether w changes nothing.
func (w *Write) Empty() bool { return len(w.State) == 0 && len(w.Logs) == 0 }

// WithStore binds the session to a store: it is loaded from the store on its first transaction and
// commits there at the end of every transaction. Give the session the same ID on every process that
// shares it (WithID). Register its reducers on every process.
func WithStore(st Store) Option { return func(s *Session) { s.store = st } }

// Stored reports whether the session is bound to a store.
func (s *Session) Stored() bool { return s.target().store != nil }

// storeState is a stored session's bookkeeping, guarded by the transaction lock.
type storeState struct {
	infos   []*sliceInfo // the store's slices
	version int64        // the version last loaded or committed; -1: never loaded, or stale
	logs    map[string]int
}

func (s *Session) storeInfo() *storeState {
	s.storeOnce.Do(func() {
		st := &storeState{version: -1, logs: map[string]int{}}
		for _, p := range s.store.Slices() {
			st.infos = append(st.infos, p.persistent())
		}
		s.stored = st
	})
	return s.stored
}

// CorruptError reports a stored item that does not decode: it names the session, the slice and the item.
type CorruptError struct {
	Session string
	Slice   string
	Err     error
}

// Error returns `session "id": stored slice "plan" is corrupt: item 3: ...`.
func (e *CorruptError) Error() string {
	return "session " + strconv.Quote(e.Session) + ": stored slice " + strconv.Quote(e.Slice) + " is corrupt: " + e.Err.Error()
}

// Unwrap returns the decoding error.
func (e *CorruptError) Unwrap() error { return e.Err }

// storeBegin runs a stored session's part of Begin: the store's lock and the load. Called with the
// transaction lock held.
func (s *Session) storeBegin(ctx context.Context, tx *Tx) error {
	st := s.storeInfo()
	known := Known{Version: st.version, Logs: map[string]int{}}
	if st.version >= 0 {
		for k, v := range st.logs {
			known.Logs[k] = v
		}
	}
	stx, loaded, err := s.store.Begin(ctx, s.id, ReadWrite, known)
	if err != nil {
		s.unstage() // dropped: nothing ran with them
		return err
	}
	staged := s.unstage()
	if st.version < 0 || loaded.Version != st.version {
		if err := s.apply(st, loaded, st.version < 0); err != nil {
			_ = stx.Abort(context.WithoutCancel(ctx))
			st.version = -1
			return err
		}
	}
	if err := s.restage(staged); err != nil {
		_ = stx.Abort(context.WithoutCancel(ctx))
		st.version = -1 // reload at the next Begin: some staged values may be in memory
		return err
	}
	x := tx.extra()
	x.stx = stx
	x.heads = make([]any, len(st.infos))
	x.lens = make([]int, len(st.infos))
	s.mu.Lock()
	for i, in := range st.infos {
		x.heads[i], x.lens[i] = in.head(s)
	}
	s.mu.Unlock()
	return nil
}

// apply installs what the store loaded. With full set, the stored slices are emptied first (a session
// loaded for the first time, or after a failed commit).
func (s *Session) apply(st *storeState, l Loaded, full bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	saved, savedShared := s.entries, s.shared
	s.shared = true // changes copy the table, so saved stays intact
	for _, in := range st.infos {
		if full {
			in.clear(s)
			st.logs[in.name] = 0
		}
		var err error
		if in.retention == Rollback {
			if items, ok := l.State[in.name]; ok {
				err = in.set(s, items)
			}
		} else if items := l.Logs[in.name]; len(items) > 0 {
			err = in.appendLog(s, items)
		}
		if err != nil {
			s.entries, s.shared = saved, savedShared
			return &CorruptError{Session: s.id, Slice: in.name, Err: err}
		}
	}
	for _, in := range st.infos {
		if in.retention == NoRollback {
			_, st.logs[in.name] = in.head(s)
		}
	}
	st.version = l.Version
	return nil
}

// storeEnd commits what the transaction changed. Called with the transaction lock held.
func (s *Session) storeEnd(ctx context.Context, tx *Tx) error {
	st := s.stored
	x := tx.x
	w := Write{}
	s.mu.Lock()
	for i, in := range st.infos {
		h, n := in.head(s)
		if in.retention == Rollback {
			if h != x.heads[i] {
				if w.State == nil {
					w.State = map[string][][]byte{}
				}
				w.State[in.name] = in.encode(s, 0)
			}
			continue
		}
		if from := st.logs[in.name]; n > from {
			if w.Logs == nil {
				w.Logs, w.LogFrom = map[string][][]byte{}, map[string]int{}
			}
			w.Logs[in.name], w.LogFrom[in.name] = in.encode(s, from), from
		}
	}
	s.mu.Unlock()
	err := s.verifyWrite(st, &w)
	if err == nil {
		err = tx.prepare(ctx, x.stx)
	}
	if err != nil {
		// Nothing is written: the STATE slices go back to their content at Begin now, and the
		// session is reloaded from the store at its next Begin (which drops the LOG entries).
		s.mu.Lock()
		for i, in := range st.infos {
			if in.retention == Rollback {
				in.restore(s, x.heads[i])
			}
		}
		s.mu.Unlock()
		st.version = -1
		_ = x.stx.Abort(ctx)
		tx.finish(ctx, false)
		return err
	}
	if w.Empty() && len(x.joined) == 0 {
		return x.stx.Abort(ctx)
	}
	v, err := x.stx.Commit(ctx, w)
	if err != nil {
		st.version = -1 // reload everything at the next Begin
		tx.finish(ctx, false)
		return err
	}
	tx.finish(ctx, true)
	st.version = v
	for name, items := range w.Logs {
		st.logs[name] = w.LogFrom[name] + len(items)
	}
	return nil
}

// verifyWrite reads every item of w back with its slice's codec (and checks its size), so that a
// commit never writes what a load could not read.
func (s *Session) verifyWrite(st *storeState, w *Write) error {
	for _, in := range st.infos {
		var err error
		if items, ok := w.State[in.name]; ok {
			err = in.verify(items, 0)
		} else if items, ok := w.Logs[in.name]; ok {
			err = in.verify(items, w.LogFrom[in.name])
		}
		if err != nil {
			err.(*UnstorableError).Session = s.id
			return err
		}
	}
	return nil
}

// MemoryStore is a Store in the process's memory: sessions outlive their Session values (a new Session
// with the same ID and store resumes them) but not the process. It is safe for concurrent use; its
// lock per session is the in-process counterpart of a database's row lock.
type MemoryStore struct {
	slices []Persistent
	mu     sync.Mutex
	rows   map[string]*memRow
}

type memRow struct {
	lock     txLock
	version  int64
	state    map[string]stateRow
	logs     map[string][][]byte
	inflight int
}

type stateRow struct {
	version int64
	items   [][]byte
}

// NewMemoryStore returns an empty store keeping the given slices; it fails for a slice without a codec
// or a name given twice.
func NewMemoryStore(slices ...Persistent) (*MemoryStore, error) {
	if _, err := Specs(slices...); err != nil {
		return nil, err
	}
	return &MemoryStore{slices: slices, rows: map[string]*memRow{}}, nil
}

// Slices returns the slices the store keeps.
func (m *MemoryStore) Slices() []Persistent { return m.slices }

// Begin implements Store.
func (m *MemoryStore) Begin(ctx context.Context, id string, access Access, known Known) (StoreTx, Loaded, error) {
	m.mu.Lock()
	r := m.rows[id]
	if r == nil {
		r = &memRow{state: map[string]stateRow{}, logs: map[string][][]byte{}}
		m.rows[id] = r
	}
	m.mu.Unlock()
	if err := r.lock.acquire(ctx, access); err != nil {
		return nil, Loaded{}, err
	}
	l := Loaded{Version: r.version, State: map[string][][]byte{}, Logs: map[string][][]byte{}}
	for name, sr := range r.state {
		if known.Version < 0 || sr.version > known.Version {
			l.State[name] = cloneItems(sr.items)
		}
	}
	for name, items := range r.logs {
		if from := known.Logs[name]; from < len(items) {
			l.Logs[name] = cloneItems(items[from:])
		}
	}
	return &memTx{r: r, access: access}, l, nil
}

func cloneItems(items [][]byte) [][]byte {
	out := make([][]byte, len(items))
	for i, b := range items {
		out[i] = append([]byte(nil), b...)
	}
	return out
}

type memTx struct {
	r      *memRow
	access Access
	done   bool
}

func (t *memTx) Commit(_ context.Context, w Write) (int64, error) {
	if t.done {
		return 0, errors.New("session: transaction already ended")
	}
	t.done = true
	defer t.r.lock.release(t.access)
	for name, from := range w.LogFrom {
		if from != len(t.r.logs[name]) {
			return 0, errors.New("session: log " + strconv.Quote(name) + " was written by another transaction (stored " +
				strconv.Itoa(len(t.r.logs[name])) + " entries, this one starts at " + strconv.Itoa(from) + ")")
		}
	}
	t.r.version++
	for name, items := range w.State {
		t.r.state[name] = stateRow{version: t.r.version, items: cloneItems(items)}
	}
	for name, items := range w.Logs {
		t.r.logs[name] = append(t.r.logs[name], cloneItems(items)...)
	}
	return t.r.version, nil
}

func (t *memTx) Abort(context.Context) error {
	if !t.done {
		t.done = true
		t.r.lock.release(t.access)
	}
	return nil
}

// checkItemJSON checks what a store's reader requires of an item whatever the slice's codec accepts: one
// JSON value within MaxItemDepth (pgstore splits a STATE slice's stored array with strictjson, so an item
// a hand-written codec would read back but strictjson would not made the whole slice unloadable).
func checkItemJSON(b []byte) error {
	var d strictjson.Decoder
	d.Reset(b, strictjson.Limits{MaxBytes: MaxItemBytes, MaxDepth: MaxItemDepth, MaxErrors: 1})
	d.Skip()
	if errs := d.Finish(); errs != nil {
		return errors.New("its encoding is not one JSON value a store reads back: " + errs.Error())
	}
	return nil
}
