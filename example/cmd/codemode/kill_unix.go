//go:build unix

package main

import (
	"os"
	"syscall"
)

// killSelf ends this process as kill -9 does: no deferred function, no flush, no goodbye to the store.
func killSelf() {
	_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {}
}
