package wink

import (
	"encoding/binary"
	"time"
	"unsafe"
)

// PolicyLog's packed storage: the design notes.
//
// PolicyLog keeps one PolicyChecked per decision, by value: 96 bytes with five pointers, stored in the
// session's log in chunks of 32 (3,200 bytes each, scanned by the garbage collector at every cycle
// while the session lives). A dispatch in a transaction appends one per policy, so these chunks were
// most of the bytes such a dispatch allocates beyond a plain one, and every byte allocated brings the
// next collection nearer. The slice is therefore declared with session.WithPacking: each full group
// of 32 decisions is packed into one byte slice without pointers (policyPacking), and the log's tail
// chunk is reused for the next 32, so the log allocates about 30 bytes per decision, none of them
// scanned. Reading the log unpacks: every field comes back equal to what was appended (the strings
// share the packed bytes, which never change; Time keeps its monotonic reading and location).
//
// The format of a group: 32 records of policyRecordSize bytes (tool, call id, policy and reason as
// indexes into the group's table of strings, 255 for ""; the decision and the location of Time as
// flags; Time's wall and monotonic words), then the table (its length, each string's end as a
// uint32, the strings' bytes). A string equal to the same field of the record before, or to one of
// the last policyDictScan strings of the table, is stored once: tool and policy names repeat from
// call to call, call ids repeat across the policies of one call. A group is kept as values (Pack
// says it cannot) when a Time's location is neither UTC nor time.Local as it was when the program
// started, which bytes cannot name.
//
// Time is read and rebuilt through its memory layout (wall, ext, loc: time.Time's layout since Go
// 1.9), the only way to keep its monotonic reading; policyPackingWorks checks the layout at start-up
// and packing is off if it does not hold.

// policyPacking packs PolicyLog's groups (session.Packing).
type policyPacking struct{}

const (
	policyRecordSize = 24
	policyEmpty      = 255 // the index of ""
	policyDictScan   = 8   // the newest table strings compared with a new one
	policyMaxItems   = 32  // what a group holds (the session's leaf): 4 strings each stay below policyEmpty
	policyAllowed    = 1 << 0
	policyLocLocal   = 1 << 1
)

// timeWords is time.Time's layout.
type timeWords struct {
	wall uint64
	ext  int64
	loc  *time.Location
}

// startLocal is time.Local as it was when the program started.
var startLocal = time.Local

// policyTable is the table of strings Pack builds.
type policyTable struct {
	strs [4 * policyMaxItems]string
	n    int
	size int
}

// same reports whether a and b are the same string: the same bytes in memory (a name or a call id
// passed along), found without comparing them.
func same(a, b string) bool {
	return len(a) == len(b) && (len(a) == 0 || unsafe.StringData(a) == unsafe.StringData(b))
}

// index returns s's index in the table, adding it unless it is "", prev (the same field of the
// record before, whose index is prevIdx: policyEmpty for "") or one of the newest policyDictScan
// strings. Pack calls it when s and prev are not the same string (same).
func (t *policyTable) index(s, prev string, prevIdx uint8) uint8 {
	if s == "" {
		return policyEmpty
	}
	if s == prev {
		return prevIdx
	}
	for j := t.n - 1; j >= 0 && j >= t.n-policyDictScan; j-- {
		if t.strs[j] == s {
			return uint8(j)
		}
	}
	t.strs[t.n] = s
	t.size += len(s)
	t.n++
	return uint8(t.n - 1)
}

// Pack implements session.Packing. The layout: the number of records and of strings (a byte each),
// each string's end (uint32), the records, the strings' bytes.
func (policyPacking) Pack(items []PolicyChecked) ([]byte, bool) {
	if !policyPackingWorks || len(items) > policyMaxItems {
		return nil, false
	}
	var (
		t   policyTable
		idx [policyMaxItems][4]uint8
	)
	prev := [4]uint8{policyEmpty, policyEmpty, policyEmpty, policyEmpty}
	var p PolicyChecked // the record before: its strings have the indexes in prev
	for i := range items {
		pc := &items[i]
		if loc := (*timeWords)(unsafe.Pointer(&pc.Time)).loc; loc != nil && loc != startLocal {
			return nil, false
		}
		if !same(pc.Tool, p.Tool) {
			prev[0], p.Tool = t.index(pc.Tool, p.Tool, prev[0]), pc.Tool
		}
		if !same(pc.CallID, p.CallID) {
			prev[1], p.CallID = t.index(pc.CallID, p.CallID, prev[1]), pc.CallID
		}
		if !same(pc.Policy, p.Policy) {
			prev[2], p.Policy = t.index(pc.Policy, p.Policy, prev[2]), pc.Policy
		}
		if !same(pc.Reason, p.Reason) {
			prev[3], p.Reason = t.index(pc.Reason, p.Reason, prev[3]), pc.Reason
		}
		idx[i] = prev
	}
	recs := 2 + 4*t.n
	strs := recs + len(items)*policyRecordSize
	data := make([]byte, strs+t.size)
	data[0], data[1] = byte(len(items)), byte(t.n)
	end := 0
	for j := range t.n {
		end += copy(data[strs+end:], t.strs[j])
		binary.LittleEndian.PutUint32(data[2+4*j:], uint32(end))
	}
	for i := range items {
		pc := &items[i]
		r := data[recs+i*policyRecordSize:]
		r = r[:policyRecordSize]
		copy(r[:4], idx[i][:])
		tw := (*timeWords)(unsafe.Pointer(&pc.Time))
		var flags byte
		if pc.Allowed {
			flags |= policyAllowed
		}
		if tw.loc != nil {
			flags |= policyLocLocal
		}
		r[4] = flags
		binary.LittleEndian.PutUint64(r[8:], tw.wall)
		binary.LittleEndian.PutUint64(r[16:], uint64(tw.ext))
	}
	return data, true
}

// Unpack implements session.Packing.
func (policyPacking) Unpack(data []byte, i int) PolicyChecked {
	nd := int(data[1])
	recs := 2 + 4*nd
	strs := recs + int(data[0])*policyRecordSize
	r := data[recs+i*policyRecordSize : recs+(i+1)*policyRecordSize]
	pc := PolicyChecked{
		Tool:    policyString(data, strs, r[0]),
		CallID:  policyString(data, strs, r[1]),
		Policy:  policyString(data, strs, r[2]),
		Reason:  policyString(data, strs, r[3]),
		Allowed: r[4]&policyAllowed != 0,
	}
	tw := (*timeWords)(unsafe.Pointer(&pc.Time))
	tw.wall = binary.LittleEndian.Uint64(r[8:])
	tw.ext = int64(binary.LittleEndian.Uint64(r[16:]))
	if r[4]&policyLocLocal != 0 {
		tw.loc = startLocal
	}
	return pc
}

// policyString returns string j of a packed group whose strings start at strs; it shares data.
func policyString(data []byte, strs int, j uint8) string {
	if j == policyEmpty {
		return ""
	}
	start := 0
	if j > 0 {
		start = int(binary.LittleEndian.Uint32(data[2+4*(int(j)-1):]))
	}
	end := int(binary.LittleEndian.Uint32(data[2+4*int(j):]))
	if end == start {
		return ""
	}
	return unsafe.String(&data[strs+start], end-start)
}

// policyPackingWorks reports whether time.Time has the layout timeWords names: a time with a
// monotonic reading and one without, each in UTC and time.Local, rebuilt from their words compare
// equal, keep their location and their monotonic reading.
var policyPackingWorks = func() bool {
	if unsafe.Sizeof(time.Time{}) != unsafe.Sizeof(timeWords{}) {
		return false
	}
	now := time.Now()
	for _, t := range []time.Time{now, now.Round(0), now.UTC(), time.Date(2001, 2, 3, 4, 5, 6, 7, time.Local)} {
		tw := *(*timeWords)(unsafe.Pointer(&t))
		var u time.Time
		*(*timeWords)(unsafe.Pointer(&u)) = tw
		if u != t || !u.Equal(t) || u.Location() != t.Location() || u.Sub(now) != t.Sub(now) {
			return false
		}
		if (tw.loc != nil) != (t.Location() != time.UTC) || (tw.loc != nil && tw.loc != startLocal) {
			return false
		}
	}
	return true
}()
