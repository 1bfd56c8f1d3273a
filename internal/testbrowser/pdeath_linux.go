package testbrowser

import (
	"os/exec"
	"syscall"
)

// dieWithParent kills the test browser when the test binary dies, even
// when it is killed by a test timeout before it can clean up.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
