//go:build !linux

package pgcluster

import (
	"os"
	"syscall"
)

// processAttr runs initdb and the server as the current user (the throwaway cluster is made for Linux
// CI machines; elsewhere it works when the user may run PostgreSQL).
func processAttr(dir string, server bool) (*syscall.SysProcAttr, error) { return nil, nil }

// Kill stops the server at once, without removing the directory.
func (c *Cluster) Kill() {
	if c.cmd != nil && c.cmd.Process != nil {
		_ = c.cmd.Process.Kill()
		<-c.done
	}
}

// chownLike keeps the copy's owner: the files are the current user's (see processAttr).
func chownLike(path string, info os.FileInfo) error { return nil }
