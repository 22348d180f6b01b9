//go:build !linux

package eval

import "os"

// newPrints makes no print buffer outside Linux: the child sends each print as a frame.
func newPrints() (*printBuf, *os.File, error) { return nil, nil, nil }

// openPrints returns no buffer outside Linux.
func openPrints() *printBuf { return nil }

func (p *printBuf) unmap() {}

// counts returns nils: there is no shared memory outside Linux.
func (p *printBuf) counts() (child, parent *uint64) { return nil, nil }

// mailboxes returns nils: there is no shared memory outside Linux.
func (p *printBuf) mailboxes() (toParent, toChild *mailbox) { return nil, nil }
