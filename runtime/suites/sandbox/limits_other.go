//go:build !linux

package sandbox

import (
	"errors"
	"os"
	"os/exec"
)

const supported = false

type procLimit struct{ fsize int64 }

func newProcLimit(int) (*procLimit, error) { return nil, errors.New("the sandbox needs Linux") }
func (*procLimit) prepare(*exec.Cmd)       {}
func (*procLimit) command(bwrap string, args []string) *exec.Cmd {
	return exec.Command(bwrap, args...)
}
func (*procLimit) started(*exec.Cmd) {}
func (*procLimit) close()            {}
func killTree(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
func signalOf(*os.ProcessState) string { return "" }
func seccompFile() (*os.File, error)   { return nil, nil }
