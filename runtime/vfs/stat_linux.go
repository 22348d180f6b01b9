//go:build linux

package vfs

import (
	"io/fs"
	"syscall"
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
