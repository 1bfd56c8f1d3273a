package runner_test

import (
	"os/exec"
	"syscall"
)

// dieWithTest kills a server the test started when the test binary dies,
// even by a test timeout before its cleanup runs.
func dieWithTest(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
