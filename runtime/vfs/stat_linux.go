//go:build linux

package vfs

import (
	"errors"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// sigOf returns the stat signature of a file; ok is false when the platform gives none.
func sigOf(fi fs.FileInfo) (s sig, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return sig{}, false
	}
	return sig{
		dev: uint64(st.Dev), ino: uint64(st.Ino), size: st.Size,
		mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(), mode: uint32(fi.Mode()),
	}, true
}

// linkCount is the number of hard links of a file (1 where the platform does not say).
func linkCount(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// Linux lseek whences for sparse files.
const (
	seekData = 3
	seekHole = 4
)

// copyData copies the data regions of src (SEEK_DATA/SEEK_HOLE) to dst at the same offsets, leaving holes
// unwritten, and returns the bytes of data copied; on a filesystem without the two whences the whole file
// is one data region.
func copyData(dst, src *os.File, size, budget int64) (int64, error) {
	buf := make([]byte, 256<<10)
	fd := int(src.Fd())
	var total int64
	for off := int64(0); off < size; {
		start, err := syscall.Seek(fd, off, seekData)
		if err != nil {
			if err == syscall.ENXIO { // no data after off: the rest is a hole
				break
			}
			start = off // no SEEK_DATA here: copy everything
			end := size
			if budget >= 0 && total+end-start > budget {
				return 0, errBudget
			}
			return total + end - start, copyRange(dst, src, start, end, buf)
		}
		end, err := syscall.Seek(fd, start, seekHole)
		if err != nil || end > size {
			end = size
		}
		if budget >= 0 && total+end-start > budget {
			return 0, errBudget
		}
		if err := copyRange(dst, src, start, end, buf); err != nil {
			return 0, err
		}
		total += end - start
		off = end
	}
	return total, nil
}

// mayChange reports whether this user could change the entry at p under the root: write a file, or add
// and remove entries of a directory (write and search permission).
func (h *Host) mayChange(p string, dir bool) bool {
	mode := uint32(2) // W_OK
	if dir {
		mode |= 1 // X_OK
	}
	return syscall.Access(h.dir+"/"+p, mode) == nil
}

// groupOf is the group that owns the entry.
func groupOf(fi fs.FileInfo) (uint32, bool) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Gid, true
	}
	return 0, false
}

// dataBytes is the disk space a regular file's data takes, as Growth counts it: its size less the holes
// of a sparse file, plus the space allocated past its end (fallocate --keep-size reserves space without
// changing the size).
func dataBytes(fi fs.FileInfo) int64 {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fi.Size()
	}
	alloc, size := st.Blocks*512, fi.Size()
	n := min(size, alloc)
	bs := int64(st.Blksize)
	if bs <= 0 {
		bs = 4096
	}
	if past := alloc - (size+bs-1)/bs*bs; past > 0 {
		n += past
	}
	return n
}

// dropCapabilities removes the file capabilities (security.capability) of the regular file p, reporting
// whether it had any. The file is opened through the root (never through a symlink out of it); one this
// user cannot open is one it could not have given capabilities either.
func (h *Host) dropCapabilities(p string) (bool, error) {
	f, err := h.root.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false, nil
	}
	defer f.Close()
	fd := int(f.Fd())
	n, err := unix.Fgetxattr(fd, "security.capability", nil)
	if err != nil || n <= 0 {
		return false, nil // none, or no extended attributes here
	}
	if err := unix.Fremovexattr(fd, "security.capability"); err != nil && !errors.Is(err, unix.ENODATA) {
		return false, err
	}
	return true, nil
}
