//go:build !linux

package vfs

// tracker is Linux-only (inotify); elsewhere every Snapshot and Restore walks the tree.
type tracker struct {
	dirty  map[string]bool
	broken bool
}

func newTracker() *tracker                       { return nil }
func (t *tracker) arm()                          {}
func (t *tracker) watch(abs, p string)           {}
func (t *tracker) watchFile(abs, p string) error { return nil }
func (t *tracker) drain()                        {}
func (t *tracker) take() map[string]bool         { return nil }
func (t *tracker) close()                        {}
func (t *tracker) peek() map[string]bool         { return nil }
