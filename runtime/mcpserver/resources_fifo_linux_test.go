package mcpserver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/winkgen/wink/runtime/vfs"
	"golang.org/x/sys/unix"
)

// TestAFifoOnAWatchedPathStopsNoOne: a fifo exchanged with a subscribed host file over and over (any
// moment between a check and an open) never holds up another client's tools/call, nor a read of the
// path, which fails at once. A watched file's open under the lock every tools/call waited on used to
// block on the fifo and stop the whole server.
func TestAFifoOnAWatchedPathStopsNoOne(t *testing.T) {
	dir := t.TempDir()
	h, err := vfs.NewHost(dir, vfs.BackupDir(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := h.Write("pipe.txt", []byte("a file\n")); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "pipe.txt")
	side := filepath.Join(dir, "side")
	if err := syscall.Mkfifo(side, 0o644); err != nil {
		t.Fatal(err)
	}
	ws := newWorkspaceServer(t, h, time.Millisecond)
	a, _ := ws.connect()
	b, _ := ws.connect()
	if err := subscribe(a, "workspace:///pipe.txt"); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			if err := unix.Renameat2(unix.AT_FDCWD, p, unix.AT_FDCWD, side, unix.RENAME_EXCHANGE); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	defer func() {
		stop.Store(true)
		wg.Wait()
		for _, f := range []string{p, side} { // let a blocked open go, should there be one
			if fi, err := os.Lstat(f); err == nil && fi.Mode()&os.ModeNamedPipe != 0 {
				if fd, err := os.OpenFile(f, os.O_RDWR, 0); err == nil {
					defer fd.Close()
				}
			}
		}
	}()
	for end, n := time.Now().Add(time.Second), 0; time.Now().Before(end); n++ {
		done := make(chan error, 1)
		go func() {
			if _, err := b.CallTool(context.Background(), &mcp.CallToolParams{Name: "chatty", Arguments: map[string]any{}}); err != nil {
				done <- err
				return
			}
			_, err := a.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "workspace:///pipe.txt"})
			if err != nil && !strings.Contains(err.Error(), "not a regular file") {
				done <- err
				return
			}
			done <- nil
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("call %d waited for a fifo", n)
		}
	}
}
