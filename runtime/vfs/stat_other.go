//go:build !linux

package vfs

import (
	"io/fs"
	"os"
)

// sigOf returns no signature outside Linux: every file is then compared by content at Snapshot and
// Restore (correct, but O(bytes) instead of O(files)).
func sigOf(fi fs.FileInfo) (s sig, ok bool) { return sig{}, false }

// linkCount is 1 outside Linux: hard links are not detected there.
func linkCount(fi fs.FileInfo) uint64 { return 1 }

// copyData copies the whole of src to dst (no sparse-file support outside Linux).
func copyData(dst, src *os.File, size, budget int64) (int64, error) {
	if budget >= 0 && size > budget {
		return 0, errBudget
	}
	return size, copyRange(dst, src, 0, size, make([]byte, 256<<10))
}

// mayChange is true outside Linux: an unreadable entry there fails the snapshot (the safe answer).
func (h *Host) mayChange(p string, dir bool) bool { return true }

// groupOf is unknown outside Linux.
func groupOf(fi fs.FileInfo) (uint32, bool) { return 0, false }

// dataBytes is the file's size outside Linux.
func dataBytes(fi fs.FileInfo) int64 { return fi.Size() }

// dropCapabilities does nothing outside Linux (no file capabilities).
func (h *Host) dropCapabilities(p string) (bool, error) { return false, nil }
