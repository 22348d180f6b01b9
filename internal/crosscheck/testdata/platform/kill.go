// Package platform builds on Linux and darwin, not on Windows: syscall.Kill and syscall.SIGUSR1 exist
// only where there are Unix signals. crosscheck's test checks that it is told so, at the line of the call.
package platform

import (
	"os"
	"syscall"
)

// Signal sends SIGUSR1 to the process.
func Signal(p *os.Process) error {
	return syscall.Kill(p.Pid, syscall.SIGUSR1)
}
