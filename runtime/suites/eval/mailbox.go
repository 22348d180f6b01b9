package eval

// DESIGN-notes: answers in shared memory.
//
// A wait that sees its answer come (wire.go) still costs a write(2) and a read(2): the answer crosses the
// pipe. Where the two processes share memory, an answer that fits a mailbox (mailSize bytes: a builtin's
// request, a short file's text, a program's answer) goes through shared memory instead while its reader
// waits for it, and crosses no system call at all. One mailbox per direction, in the same shared file as
// the counts, each a state word, a length, the reader's count of the pipe's bytes it has read, and the
// bytes. The reader owns the offer, the writer the message:
//   - The reader, when it starts to wait (link.await), records how much of the pipe it has read and sets
//     the state to waiting. The writer puts a message there only if the state is waiting (it claims it by
//     compare-and-swap), and the reader has read every byte it wrote to the pipe before: so the message
//     comes after everything in the pipe, and before anything the writer writes after it (the state is no
//     longer waiting), and the order of the frames is the order of the writes.
//   - When the reader stops waiting, it withdraws the offer by compare-and-swap; if the writer claimed the
//     mailbox first, the reader waits (at most mailGiveUp) for the message and takes it, else it abandons
//     the mailbox by compare-and-swap, and the writer, whose own compare-and-swap then fails, sends the
//     message through the pipe. Either way the reader then reads the pipe as before: nothing is lost,
//     nothing is read twice, and a reader never sleeps on the pipe while its message sits in the mailbox.
//   - The parent trusts nothing in the child's mailbox: the length is clamped to the mailbox, the bytes
//     are copied before they are parsed (as frames, with every check of the pipe's), and a state it does
//     not expect ends the wait: it reads the pipe. A dead writer is seen as before, on the pipe, after at
//     most mailGiveUp. Between programs the mailboxes are idle (a reader offers only while it waits for
//     an answer), and a message is copied out and the mailbox emptied before the reader reads it.
//
// A program cannot reach a mailbox: it runs in go.starlark.net's interpreter, which has no pointers, no
// unsafe access and no system calls (see wire.go).

import (
	"sync/atomic"
	"time"
	"unsafe"
)

// mailSize is the most a message through a mailbox may hold: larger writes go through the pipe.
const mailSize = 16 << 10

// mailGiveUp bounds a reader's wait for a message whose writer has claimed the mailbox.
const mailGiveUp = 100 * time.Microsecond

// The states of a mailbox.
const (
	mailIdle      = iota // the reader does not wait
	mailWaiting          // the reader waits, having read readAt bytes of the pipe
	mailClaimed          // the writer is copying a message in
	mailFull             // a message of length bytes is there
	mailAbandoned        // the reader stopped waiting while the writer copied: the message goes through the pipe
)

// mailbox is one direction's mailbox in the shared mapping; a nil *mailbox is none.
type mailbox struct {
	state, length *uint32
	readAt        *uint64
	buf           []byte
}

// mailboxAt returns the mailbox that starts at mem[0] (64 bytes of control words, then mailSize bytes).
func mailboxAt(mem []byte) *mailbox {
	return &mailbox{state: ptr32(mem, 0), length: ptr32(mem, 4), readAt: ptr64(mem, 8), buf: mem[64 : 64+mailSize]}
}

func ptr32(mem []byte, off int) *uint32 { return (*uint32)(unsafe.Pointer(&mem[off])) }
func ptr64(mem []byte, off int) *uint64 { return (*uint64)(unsafe.Pointer(&mem[off])) }

// mailboxBytes is the room of one mailbox in the mapping.
const mailboxBytes = 64 + mailSize

// wireWriter writes to a pipe, counting its bytes in *n (shared, wire.go), or into out, the other side's
// mailbox, when the other side waits for the message and has read the pipe.
type wireWriter struct {
	w   interface{ Write([]byte) (int, error) }
	n   *uint64
	out *mailbox
}

func (c wireWriter) Write(p []byte) (int, error) {
	if b := c.out; b != nil && len(p) <= len(b.buf) && atomic.LoadUint32(b.state) == mailWaiting &&
		atomic.LoadUint64(b.readAt) == atomic.LoadUint64(c.n) && atomic.CompareAndSwapUint32(b.state, mailWaiting, mailClaimed) {
		copy(b.buf, p)
		atomic.StoreUint32(b.length, uint32(len(p)))
		if atomic.CompareAndSwapUint32(b.state, mailClaimed, mailFull) {
			return len(p), nil
		}
		atomic.StoreUint32(b.state, mailIdle) // the reader stopped waiting: it reads the pipe
	}
	n, err := c.w.Write(p)
	atomic.AddUint64(c.n, uint64(n))
	return n, err
}

// offer tells the writer that l waits for its next message, having read the pipe so far.
func (l *link) offer() {
	if b := l.in; b != nil {
		atomic.StoreUint64(b.readAt, l.read)
		atomic.StoreUint32(b.state, mailWaiting)
	}
}

// full reports whether a message waits in l's mailbox.
func (l *link) full() bool { return l.in != nil && atomic.LoadUint32(l.in.state) == mailFull }

// withdraw ends l's offer and reports whether a message came: then it is l's to read, before the pipe.
func (l *link) withdraw() bool {
	b := l.in
	if b == nil || atomic.CompareAndSwapUint32(b.state, mailWaiting, mailIdle) {
		return false
	}
	start := time.Now()
	for i := 1; ; i++ {
		switch atomic.LoadUint32(b.state) {
		case mailFull:
			n := min(int(atomic.LoadUint32(b.length)), len(b.buf))
			l.pendBuf = append(l.pendBuf[:0], b.buf[:n]...)
			l.pending = l.pendBuf
			atomic.StoreUint32(b.state, mailIdle)
			return true
		case mailClaimed:
			if i%64 == 0 && time.Since(start) > mailGiveUp && atomic.CompareAndSwapUint32(b.state, mailClaimed, mailAbandoned) {
				return false
			}
		default: // not a state a writer leaves: no message
			return false
		}
	}
}
