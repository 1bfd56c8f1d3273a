//go:build windows

package chrome

import (
	"context"
	"os/exec"
	"strings"
	"syscall"
)

const createNewProcessGroup = 0x00000200
const detachedProcess = 0x00000008

// Detach makes cmd start in a process group of its own, with no
// console: a process that outlives the call that starts it.
func Detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: createNewProcessGroup | detachedProcess}
}

func isExecutable(p string) bool { return isFile(p) }

// listProcesses returns the running chrome.exe processes.
// Windows has no ps that shows them; CIM via PowerShell does.
func listProcesses(ctx context.Context) ([]procInfo, error) {
	const script = `Get-CimInstance Win32_Process -Filter "Name='chrome.exe'" | ForEach-Object { "$($_.ProcessId) $($_.CommandLine)" }`
	out, err := exec.CommandContext(ctx, "powershell", "-NoProfile", "-NonInteractive", "-Command", script).Output()
	if err != nil {
		return nil, err
	}
	var ps []procInfo
	for _, line := range strings.Split(string(out), "\n") {
		if p, ok := parsePIDLine(line, isFile); ok {
			ps = append(ps, p)
		}
	}
	return ps, nil
}
