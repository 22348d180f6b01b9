package vfs

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestNothingBlocksOnASpecialFileSwappedIn: a fifo put in place of a file (or of a directory) at any
// moment, between any check and any open, never makes Read, Write, List, Snapshot or Restore wait for it:
// each returns promptly (with an error when it met the fifo), and a Stat of another path, which needs the
// Host's lock, is never held up. Opening a fifo blocks until its other end is opened, so code that checked
// the path and then opened it hung here, with the snapshot lock held. Run as nobody too
// (TestHostSnapshotsCopeWithEntriesThisUserCannotRead).
func TestNothingBlocksOnASpecialFileSwappedIn(t *testing.T) {
	dir := t.TempDir()
	h, err := NewHost(dir, BackupDir(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for p, c := range map[string]string{"w/f.txt": "file\n", "d/x.txt": "x\n", "other.txt": "other\n"} {
		if err := h.Write(p, []byte(c)); err != nil {
			t.Fatal(err)
		}
	}
	snap, err := h.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	// swap exchanges dir/rel (a file or a directory) with a fifo beside it, atomically and over and over
	// (renameat2 RENAME_EXCHANGE: both stay linked, so a test that fails can still open the fifo an
	// operation is blocked on and end), until stop; then it puts the original back and removes the fifo.
	swap := func(rel string) func(stop *atomic.Bool) {
		return func(stop *atomic.Bool) {
			p := filepath.Join(dir, rel)
			side := p + ".fifo"
			if err := syscall.Mkfifo(side, 0o644); err != nil {
				t.Error(err)
				return
			}
			for !stop.Load() {
				if err := unix.Renameat2(unix.AT_FDCWD, p, unix.AT_FDCWD, side, unix.RENAME_EXCHANGE); err != nil {
					// A rollback removed one of them (a fifo where the snapshot had a file): put it back.
					if _, err := os.Lstat(side); err != nil {
						syscall.Mkfifo(side, 0o644)
					}
					if _, err := os.Lstat(p); err != nil {
						os.WriteFile(p, []byte("file\n"), 0o644)
					}
				}
			}
			unblockFifos(dir)
			if fi, err := os.Lstat(p); err == nil && fi.Mode()&os.ModeNamedPipe != 0 {
				unix.Renameat2(unix.AT_FDCWD, p, unix.AT_FDCWD, side, unix.RENAME_EXCHANGE)
			}
			os.Remove(side)
		}
	}
	for _, c := range []struct {
		name string
		swap func(stop *atomic.Bool)
		op   func() error
	}{
		{"Read", swap("w/f.txt"), func() error { _, err := h.Read("w/f.txt"); return err }},
		{"Write", swap("w/f.txt"), func() error { return h.Write("w/f.txt", []byte("written\n")) }},
		{"List", swap("d"), func() error { _, err := h.List("d"); return err }},
		{"Snapshot", swap("w/f.txt"), func() error { _, err := h.Snapshot(); return err }},
		{"Restore", swap("w/f.txt"), func() error { return h.Restore(snap) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stop atomic.Bool
			var wg sync.WaitGroup
			wg.Add(1)
			go func() { defer wg.Done(); c.swap(&stop) }()
			defer func() { stop.Store(true); wg.Wait() }()
			calls, met := 0, 0
			for end := time.Now().Add(400 * time.Millisecond); time.Now().Before(end); calls++ {
				done := make(chan error, 1)
				go func() { done <- c.op() }()
				select {
				case err := <-done:
					if err != nil {
						met++
					}
				case <-time.After(10 * time.Second):
					stop.Store(true)
					wg.Wait()
					t.Fatalf("%s blocked on a fifo swapped in (call %d)", c.name, calls)
				}
				// Another path's Stat needs the Host's lock: it is never held by a blocked open.
				stat := make(chan error, 1)
				go func() { _, err := h.Stat("other.txt"); stat <- err }()
				select {
				case err := <-stat:
					if err != nil {
						t.Fatal(err)
					}
				case <-time.After(10 * time.Second):
					stop.Store(true)
					wg.Wait()
					t.Fatalf("a Stat of another path waited for %s", c.name)
				}
			}
			t.Logf("%d calls, %d met the fifo", calls, met)
		})
	}
	// The tree is usable again once the swapping stops.
	if err := h.Restore(snap); err != nil {
		t.Fatalf("restore after the swaps: %v", err)
	}
	if b, err := h.Read("w/f.txt"); err != nil || string(b) != "file\n" {
		t.Fatalf("w/f.txt = %q, %v", b, err)
	}
}

// TestSpecialFilesAreRefusedAtOnce: Read and Write of a fifo, and List of one, return an error at once
// (never wait for the other end), naming what is wrong.
func TestSpecialFilesAreRefusedAtOnce(t *testing.T) {
	dir := t.TempDir()
	h, err := NewHost(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := syscall.Mkfifo(filepath.Join(dir, "ff"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := h.Read("ff"); !errors.Is(err, ErrInvalid) || err.Error() != `read "ff": not a regular file` {
			t.Errorf("read: %v", err)
		}
		if err := h.Write("ff", []byte("x")); !errors.Is(err, ErrInvalid) || err.Error() != `write "ff": not a regular file` {
			t.Errorf("write: %v", err)
		}
		if _, err := h.List("ff"); !errors.Is(err, ErrNotDir) {
			t.Errorf("ls: %v", err)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		unblockFifos(dir)
		t.Fatal("blocked on a fifo")
	}
}

// unblockFifos opens every fifo under dir for reading and writing (which never blocks on Linux), so that
// an open blocked on one returns and a failing test can end.
func unblockFifos(dir string) {
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode()&os.ModeNamedPipe != 0 {
			if f, err := os.OpenFile(p, os.O_RDWR, 0); err == nil {
				time.AfterFunc(time.Second, func() { f.Close() })
			}
		}
		return nil
	})
}
