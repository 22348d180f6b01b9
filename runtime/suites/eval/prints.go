package eval

// DESIGN-notes: print output without a wakeup per print.
//
// Each frame the child sends wakes the parent, a context switch on both sides that costs more than a
// small program's evaluation. So print() does not send a frame where the parent can share memory with
// the child (Linux): the parent creates a small memory file (memfd), maps it and hands it to the child,
// which maps it too and appends each printed text to it (uvarint length, then the bytes), then stores
// the new end in the buffer's first word. The parent reads the buffer whenever a frame of the child
// arrives (a builtin's request, a tool call, 'D') and when the child has died, so the output keeps its
// order with the frames and a program that crashes (stack overflow, out of memory, a kill at a bound)
// still shows everything it printed up to its last complete print(): the buffer belongs to the parent
// and outlives the child. Text that would not fit goes as a 'P' frame, as everywhere else, after the
// parent has read what the buffer held. (The child stops printing past MaxOutputBytes, so a program's
// prints fit: at most 2*MaxOutputBytes + 2 plus two bytes of length per 128 printed.)
//
// The parent trusts nothing in it: the end word is clamped to the buffer, an entry that does not parse
// ends the evaluator as out of protocol, and the text is capped and made valid UTF-8 as any print. The
// parent zeroes the end word before each program, so nothing of one program's output reaches the next
// program's, even one that dies before it begins.

import (
	"encoding/binary"
	"sync/atomic"
	"unsafe"
)

// printsSize is the capacity of the print buffer (the end word's 8 bytes not counted).
const printsSize = 2*MaxOutputBytes + 64<<10

// printBuf is the shared print buffer: an end word, then the entries. A nil *printBuf is no buffer.
type printBuf struct {
	mem []byte
	// all is the whole mapping (the print buffer, then the counts of wire.go); nil when not mapped.
	all []byte
	// pos is the child's end of the buffer (in the child) or how much of it the parent has read.
	pos int
}

// end is the buffer's end word.
func (p *printBuf) end() *uint32 { return (*uint32)(unsafe.Pointer(&p.mem[0])) }

// reset empties the buffer for a program: the parent before sending it, the child when it arrives.
func (p *printBuf) reset() {
	if p != nil {
		p.pos = 0
		atomic.StoreUint32(p.end(), 0)
	}
}

// add appends msg (the child) and reports whether it fitted; if not, the child sends it as a frame.
func (p *printBuf) add(msg string) bool {
	if p == nil {
		return false
	}
	data := p.mem[8:]
	var head [binary.MaxVarintLen64]byte
	n := binary.PutUvarint(head[:], uint64(len(msg))) // into its own array: near the end, data may not hold it
	if p.pos+n+len(msg) > len(data) {
		return false
	}
	copy(data[p.pos:], head[:n])
	copy(data[p.pos+n:], msg)
	p.pos += n + len(msg)
	atomic.StoreUint32(p.end(), uint32(p.pos)) // after the text: the parent reads only whole entries
	return true
}

// drain passes the entries the parent has not read yet to out, and reports false when the buffer does
// not hold whole entries (the child answered out of protocol).
func (p *printBuf) drain(out *printed) bool {
	if p == nil || p.mem == nil {
		return true
	}
	data := p.mem[8:]
	end := int(min(atomic.LoadUint32(p.end()), uint32(len(data))))
	if end < p.pos {
		return false
	}
	for p.pos < end {
		n, k := binary.Uvarint(data[p.pos:end])
		if k <= 0 || n > uint64(end-p.pos-k) {
			p.pos = end
			return false
		}
		out.add(string(data[p.pos+k : p.pos+k+int(n)]))
		p.pos += k + int(n)
	}
	return true
}
