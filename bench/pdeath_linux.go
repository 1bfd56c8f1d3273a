package main

import (
	"os/exec"
	"syscall"
)

// dieWithParent ends the spawner with the bench, even a killed one.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
