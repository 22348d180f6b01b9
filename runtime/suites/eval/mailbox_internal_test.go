package eval

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"os"
	"sync/atomic"
	"testing"
)

// mailPair is a writer and a reader as the two processes have them, in one process: a pipe, the
// writer's count of the pipe's bytes and the reader's mailbox.
type mailPair struct {
	r   *link
	br  *bufio.Reader
	raw wireWriter
	w   *bufio.Writer
	box *mailbox
	n   *uint64
}

func newMailPair(t *testing.T) *mailPair {
	t.Helper()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pr.Close(); pw.Close() })
	n := new(uint64)
	box := mailboxAt(make([]byte, mailboxBytes))
	r := newLink(pr, n, nil, box, nil)
	raw := wireWriter{pw, n, box}
	return &mailPair{r: r, br: bufio.NewReader(r), raw: raw, w: bufio.NewWriter(raw), box: box, n: n}
}

func (m *mailPair) send(t *testing.T, kind byte, payload []byte) {
	t.Helper()
	if err := writeFrame(m.w, kind, payload); err != nil {
		t.Fatal(err)
	}
}

func (m *mailPair) recv(t *testing.T, kind byte, payload []byte) {
	t.Helper()
	k, b, err := readFrame(m.br, 1<<20)
	if err != nil || k != kind || !bytes.Equal(b, payload) {
		t.Fatalf("read %q %d bytes (%v), want %q %d bytes", k, len(b), err, kind, len(payload))
	}
}

// The class: a message goes through the reader's mailbox only while the reader waits for it and has read
// everything the writer sent through the pipe before; otherwise through the pipe. Either way the reader
// gets every frame once, in the order written.
func TestMailboxKeepsTheFramesAndTheirOrder(t *testing.T) {
	big := bytes.Repeat([]byte("b"), mailSize+1)
	t.Run("while the reader waits", func(t *testing.T) {
		m := newMailPair(t)
		m.r.offer()
		m.send(t, 'O', []byte("file text"))
		if atomic.LoadUint32(m.box.state) != mailFull || atomic.LoadUint64(m.n) != 0 {
			t.Fatalf("state %d, %d bytes through the pipe: want the mailbox", *m.box.state, *m.n)
		}
		if !m.r.withdraw() {
			t.Fatal("the message was not taken")
		}
		m.recv(t, 'O', []byte("file text"))
		if atomic.LoadUint32(m.box.state) != mailIdle {
			t.Fatalf("state %d after the message was taken", *m.box.state)
		}
	})
	t.Run("the next frames through the pipe", func(t *testing.T) {
		m := newMailPair(t)
		m.r.offer()
		m.send(t, 'A', nil) // the mailbox
		m.send(t, 'R', []byte("data.txt"))
		m.send(t, 'W', big)
		if !m.r.withdraw() {
			t.Fatal("the first message was not taken")
		}
		m.recv(t, 'A', nil)
		m.recv(t, 'R', []byte("data.txt"))
		m.recv(t, 'W', big)
	})
	t.Run("the reader behind on the pipe", func(t *testing.T) {
		m := newMailPair(t)
		m.send(t, 'P', []byte("first")) // the pipe: nobody waits
		m.r.offer()                     // as if it had not seen the pipe's bytes yet
		m.send(t, 'P', []byte("second"))
		if atomic.LoadUint32(m.box.state) != mailWaiting {
			t.Fatalf("state %d: the second message overtook the first", *m.box.state)
		}
		if m.r.withdraw() {
			t.Fatal("a message was taken from an empty mailbox")
		}
		m.recv(t, 'P', []byte("first"))
		m.recv(t, 'P', []byte("second"))
	})
	t.Run("too large", func(t *testing.T) {
		m := newMailPair(t)
		m.r.offer()
		frame := append([]byte{'O', 0, 0, 0, 0}, big...)
		binary.BigEndian.PutUint32(frame[1:], uint32(len(big)))
		if _, err := m.raw.Write(frame); err != nil { // one write larger than the mailbox
			t.Fatal(err)
		}
		if m.r.withdraw() {
			t.Fatal("a write larger than the mailbox went through it")
		}
		m.recv(t, 'O', big)
	})
	t.Run("a frame larger than the mailbox in parts", func(t *testing.T) {
		// bufio writes a large frame in parts: the first may go through the mailbox, the rest through
		// the pipe, and the frame arrives whole.
		m := newMailPair(t)
		m.r.offer()
		m.send(t, 'W', big)
		m.r.withdraw()
		m.recv(t, 'W', big)
	})
	t.Run("the writer stalls", func(t *testing.T) {
		// The writer claimed the mailbox and does not finish: the reader abandons it, so the writer's
		// message goes through the pipe, and a later wait offers the mailbox again.
		m := newMailPair(t)
		m.r.offer()
		atomic.StoreUint32(m.box.state, mailClaimed)
		if m.r.withdraw() || atomic.LoadUint32(m.box.state) != mailAbandoned {
			t.Fatalf("state %d: the reader did not abandon the mailbox", *m.box.state)
		}
		m.send(t, 'O', []byte("late")) // an abandoned mailbox is not claimed
		m.recv(t, 'O', []byte("late"))
		m.r.offer()
		m.send(t, 'O', []byte("next"))
		if !m.r.withdraw() {
			t.Fatal("the mailbox was not offered again")
		}
		m.recv(t, 'O', []byte("next"))
	})
}

// The class: the parent trusts nothing in the child's mailbox: a length past the mailbox is clamped to
// it, and a state no writer leaves ends the wait with no message.
func TestMailboxFromALyingWriter(t *testing.T) {
	m := newMailPair(t)
	m.r.offer()
	atomic.StoreUint32(m.box.length, 1<<31)
	atomic.StoreUint32(m.box.state, mailFull)
	if !m.r.withdraw() || len(m.r.pending) != mailSize {
		t.Fatalf("took %d bytes, want the mailbox's %d", len(m.r.pending), mailSize)
	}
	m.r.pending = nil
	m.r.offer()
	atomic.StoreUint32(m.box.state, 9)
	if m.r.withdraw() || len(m.r.pending) != 0 {
		t.Fatal("a message was taken from a mailbox in no known state")
	}
}

// The class: with both sides running at once, every frame arrives once and in order, whichever way each
// went (mailbox or pipe, and a writer claiming the mailbox while the reader withdraws it), and the reader
// never sleeps on the pipe while its message sits in the mailbox (the test would hang).
func TestMailboxUnderConcurrency(t *testing.T) {
	was := spinning
	spinning = true
	defer func() { spinning = was }()
	m := newMailPair(t)
	const frames = 20000
	done := make(chan error, 1)
	go func() {
		var head [8]byte
		for i := range frames {
			binary.BigEndian.PutUint64(head[:], uint64(i))
			filler := bytes.Repeat([]byte{byte(i)}, (i*7919)%(mailSize+mailSize/4))
			if err := writeFrame(m.w, 'X', head[:], filler); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for i := range frames {
		m.r.await(m.br, awaitNext)
		k, b, err := readFrame(m.br, 1<<20)
		if err != nil || k != 'X' || len(b) < 8 || binary.BigEndian.Uint64(b) != uint64(i) || len(b)-8 != (i*7919)%(mailSize+mailSize/4) {
			t.Fatalf("frame %d: %q, %d bytes, %v", i, k, len(b), err)
		}
		for _, c := range b[8:] {
			if c != byte(i) {
				t.Fatalf("frame %d: bytes of another frame", i)
			}
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if atomic.LoadUint32(m.box.state) != mailIdle {
		t.Fatalf("state %d at the end", *m.box.state)
	}
}
