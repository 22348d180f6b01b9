package devserver

import "syscall"

// sysProcAttr makes the server die with the process that started it.
func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} }
