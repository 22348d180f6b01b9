package eval

import (
	"os"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// printsFD is the print buffer's file descriptor in the child (its first extra file).
const printsFD = 3

// newPrints creates a print buffer for a child: the mapping the parent reads, and the file to hand the
// child (closed by the parent once the child has started).
func newPrints() (*printBuf, *os.File, error) {
	fd, err := unix.MemfdCreate("wink-eval-prints", unix.MFD_CLOEXEC)
	if err != nil {
		return nil, nil, err
	}
	f := os.NewFile(uintptr(fd), "wink-eval-prints")
	p, err := mapPrints(fd)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return p, f, nil
}

// wireOff is where the counts of bytes written to the pipes (wire.go) start in the buffer's file: the
// child's, then the parent's, each on a cache line of its own; then the mailboxes (mailbox.go), the
// parent's, then the child's.
const wireOff = (8 + printsSize + 63) &^ 63

// mapPrints sizes (when new) and maps the buffer's file.
func mapPrints(fd int) (*printBuf, error) {
	const size = wireOff + 128 + 2*mailboxBytes
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, err
	}
	if st.Size == 0 {
		if err := syscall.Ftruncate(fd, size); err != nil {
			return nil, err
		}
	} else if st.Size != size {
		return nil, syscall.EINVAL
	}
	mem, err := syscall.Mmap(fd, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	return &printBuf{mem: mem[:8+printsSize], all: mem}, nil
}

// openPrints maps the buffer the parent handed this child, or returns nil (the parent made none, or
// mapping it failed: the child then sends every print as a frame).
func openPrints() *printBuf {
	if os.Getenv(printsEnv) != childMagic {
		return nil
	}
	p, err := mapPrints(printsFD)
	syscall.Close(printsFD)
	if err != nil {
		return nil
	}
	return p
}

// unmap releases the parent's mapping once the child has ended.
func (p *printBuf) unmap() {
	if p != nil && p.all != nil {
		syscall.Munmap(p.all)
		p.mem, p.all = nil, nil
	}
}

// counts returns the shared counts of the bytes the child and the parent have written to their pipes,
// or nils when there is no buffer.
func (p *printBuf) counts() (child, parent *uint64) {
	if p == nil || p.all == nil {
		return nil, nil
	}
	return (*uint64)(unsafe.Pointer(&p.all[wireOff])), (*uint64)(unsafe.Pointer(&p.all[wireOff+64]))
}

// mailboxes returns the mailboxes of the messages to the parent and to the child (mailbox.go), or nils
// when there is no buffer.
func (p *printBuf) mailboxes() (toParent, toChild *mailbox) {
	if p == nil || p.all == nil {
		return nil, nil
	}
	return mailboxAt(p.all[wireOff+128:]), mailboxAt(p.all[wireOff+128+mailboxBytes:])
}
