//go:build !linux

package devserver

import "syscall"

func sysProcAttr() *syscall.SysProcAttr { return nil }
