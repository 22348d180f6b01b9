package vfs

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// Opening without blocking.
//
// A path that named a regular file when it was checked may name a FIFO, a device or a socket by the time
// it is opened (another process swaps it), and open(2) of a FIFO waits for the other end: a read of a
// workspace file, a snapshot's copy or a rollback's rewrite would then hang, with whatever lock its caller
// holds. So nothing here opens a path and then trusts an earlier look at it: every open adds O_NONBLOCK
// (an open that would wait fails or returns at once instead; it changes nothing for regular files and
// directories) and O_NOCTTY, and what was opened is then described with fstat, never by the path again.
// An entry of the wrong type is closed at once and refused.

// openFlags are added to every open of an entry below the root.
const openFlags = syscall.O_NONBLOCK | syscall.O_NOCTTY

// openFile opens the regular file c below root with flag (O_RDONLY, O_WRONLY...) and perm (for
// O_CREATE), without blocking on
// whatever is found there, and returns it with its fstat description. A directory is ErrIsDir; a fifo, a
// socket or a device is errNotRegular (opening a socket, or a fifo for writing with no reader, fails
// with ENXIO: also errNotRegular). The error is not wrapped in a PathError; mapErr applies to the rest.
func openFile(root *os.Root, c string, flag int, perm fs.FileMode) (*os.File, fs.FileInfo, error) {
	f, err := root.OpenFile(c, flag|openFlags, perm)
	if err != nil {
		if errors.Is(err, syscall.ENXIO) {
			return nil, nil, errNotRegular
		}
		return nil, nil, err
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
		f.Close()
		return nil, nil, err
	case fi.IsDir():
		f.Close()
		return nil, nil, ErrIsDir
	case !fi.Mode().IsRegular():
		f.Close()
		return nil, nil, errNotRegular
	}
	return f, fi, nil
}

// openDir opens the directory c below root for listing, without blocking on whatever is found there. Any
// other kind of entry is ErrNotDir.
func openDir(root *os.Root, c string) (*os.File, fs.FileInfo, error) {
	f, err := root.OpenFile(c, os.O_RDONLY|openFlags, 0)
	if err != nil {
		if errors.Is(err, syscall.ENXIO) {
			return nil, nil, ErrNotDir
		}
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.IsDir() {
		err = ErrNotDir
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}
