//go:build !unix

package durabletest

// stopUntilContinued cannot stop a process without job-control signals: the pause tests run on unix only.
func stopUntilContinued() { panic("durabletest: -pause-before-model needs SIGSTOP (unix only)") }
