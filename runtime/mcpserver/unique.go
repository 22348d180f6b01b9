package mcpserver

import (
	"sync"

	"github.com/winkgen/wink/runtime/strictjson"
)

// One message, one reading. The SDK decodes a message whose object repeats a member
// as the last one says (its JSON decoder is last-wins, and compares keys unescaped): "method" given
// twice ran the second method, "name" twice inside params (the second spelled "na\u006de") the second
// tool, while a gateway, a policy layer or a log that reads the first member saw another call. So a
// message is refused (-32600 Invalid Request, nothing runs) when any object in it, at any depth, gives a
// member twice, keys compared unescaped, as the SDK compares them; on stdio (checkLine) and over HTTP
// (checkHTTPBody, every message of a batch) alike. One exception: inside the arguments of a tools/call,
// a repeated member is left to the tool's strict decoder, which refuses it too (nothing runs) but tells
// the model which field it gave twice, so that it can fix the call.

// uniqueKeys finds members given twice in the objects of a JSON value. Its buffers are reused from one
// object to the next: checking a message allocates only for an object of more than linearKeys members.
type uniqueKeys struct {
	arena  []byte   // the keys of the open objects, one after another
	ends   []int    // where each key in arena ends
	frames []uframe // the open objects and arrays, innermost last
}

// uniquePool keeps the buffers of uniqueKeys between messages.
var uniquePool = sync.Pool{New: func() any { return new(uniqueKeys) }}

// release empties u and puts it back in uniquePool, unless its buffers grew large (one huge message).
func (u *uniqueKeys) release() {
	if cap(u.arena) > 64<<10 || cap(u.ends) > 4<<10 || cap(u.frames) > 1<<10 {
		return
	}
	u.arena, u.ends, u.frames = u.arena[:0], u.ends[:0], u.frames[:0]
	uniquePool.Put(u)
}

// uframe is one open object or array.
type uframe struct {
	object bool
	first  int                 // the index in ends of the object's first key
	big    map[string]struct{} // the object's keys, once it has more than linearKeys
}

// linearKeys is how many keys of one object are compared one by one before a map takes over.
const linearKeys = 16

// open starts an object.
func (u *uniqueKeys) open() { u.frames = append(u.frames, uframe{object: true, first: len(u.ends)}) }

// close ends the innermost object or array.
func (u *uniqueKeys) close() {
	f := u.frames[len(u.frames)-1]
	u.frames = u.frames[:len(u.frames)-1]
	if f.object {
		u.truncate(f.first)
	}
}

func (u *uniqueKeys) truncate(first int) {
	start := 0
	if first > 0 {
		start = u.ends[first-1]
	}
	u.arena, u.ends = u.arena[:start], u.ends[:first]
}

// add records key in the innermost object; false when the object already has it.
func (u *uniqueKeys) add(key []byte) bool {
	f := &u.frames[len(u.frames)-1]
	if f.big != nil {
		if _, ok := f.big[string(key)]; ok {
			return false
		}
		f.big[string(key)] = struct{}{}
		return true
	}
	start := 0
	if f.first > 0 {
		start = u.ends[f.first-1]
	}
	for _, end := range u.ends[f.first:] {
		if string(u.arena[start:end]) == string(key) {
			return false
		}
		start = end
	}
	if len(u.ends)-f.first < linearKeys {
		u.arena = append(u.arena, key...)
		u.ends = append(u.ends, len(u.arena))
		return true
	}
	f.big = make(map[string]struct{}, 2*linearKeys)
	start = 0
	if f.first > 0 {
		start = u.ends[f.first-1]
	}
	for _, end := range u.ends[f.first:] {
		f.big[string(u.arena[start:end])] = struct{}{}
		start = end
	}
	u.truncate(f.first)
	f.big[string(key)] = struct{}{}
	return true
}

// value reads the value at d to its end and returns the first key an object in it gives twice ("" when
// none, or when d failed: the caller reads d's errors).
func (u *uniqueKeys) value(d *strictjson.Decoder) string {
	base := len(u.frames)
	defer func() {
		for len(u.frames) > base {
			u.close()
		}
	}()
	repeated := ""
	u.enter(d)
	for len(u.frames) > base && !d.Failed() {
		f := &u.frames[len(u.frames)-1]
		if f.object {
			if !d.NextKey() {
				d.ObjectEnd()
				u.close()
				continue
			}
			if !u.add(d.Key()) && repeated == "" {
				repeated = string(d.Key())
			}
		} else if !d.NextElem() {
			d.ArrayEnd()
			u.close()
			continue
		}
		u.enter(d)
	}
	return repeated
}

// enter opens the object or array at d, or skips a scalar.
func (u *uniqueKeys) enter(d *strictjson.Decoder) {
	switch d.Peek() {
	case strictjson.KindObject:
		if d.ObjectStart() {
			u.open()
		}
	case strictjson.KindArray:
		if d.ArrayStart() {
			u.frames = append(u.frames, uframe{})
		}
	default:
		d.Skip()
	}
}
