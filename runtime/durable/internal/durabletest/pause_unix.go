//go:build unix

package durabletest

import (
	"os"
	"os/signal"
	"syscall"
)

// stopUntilContinued stops this process (SIGSTOP) and returns once its SIGCONT has come.
func stopUntilContinued() {
	cont := make(chan os.Signal, 1)
	signal.Notify(cont, syscall.SIGCONT)
	_ = syscall.Kill(os.Getpid(), syscall.SIGSTOP)
	<-cont
	signal.Stop(cont)
}
