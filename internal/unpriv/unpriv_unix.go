//go:build unix

package unpriv

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Lock takes the machine-wide lock of the runs as nobody (an flock on a file in the temporary directory),
// waiting for another package's run to end, and releases it when t ends.
func Lock(t testing.TB) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(os.TempDir(), "wink-as-nobody.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatalf("unpriv: %v", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		t.Fatalf("unpriv: locking %s: %v", f.Name(), err)
	}
	t.Cleanup(func() { f.Close() }) // closing the file releases the lock
}
