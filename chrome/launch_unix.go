//go:build !windows

package chrome

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// detach puts Chrome in its own session so it survives our exit and our
// terminal's signals.
// Detach makes cmd start in a session of its own, with no terminal: a
// process that outlives the call that starts it.
func Detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

// listProcesses returns the current user's processes: from /proc where
// there is one (Linux), else from ps (macOS, the BSDs).
func listProcesses(ctx context.Context) ([]procInfo, error) {
	if _, err := os.Stat("/proc/self/cmdline"); err == nil {
		return procProcesses()
	}
	return psProcesses(ctx)
}

func procProcesses() ([]procInfo, error) {
	dirs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil {
		return nil, err
	}
	uid := uint32(os.Getuid())
	var out []procInfo
	for _, dir := range dirs {
		st, err := os.Stat(dir)
		if err != nil {
			continue // the process ended while we looked
		}
		if sys, ok := st.Sys().(*syscall.Stat_t); !ok || sys.Uid != uid {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, "cmdline"))
		if err != nil {
			continue
		}
		if p, ok := parseProcCmdline(data); ok {
			p.pid, _ = strconv.Atoi(filepath.Base(dir))
			out = append(out, p)
		}
	}
	return out, nil
}

// parseProcCmdline reads a NUL-separated argv. Chrome's helpers rewrite
// theirs into one space-joined string, which is parsed like a ps line.
func parseProcCmdline(data []byte) (procInfo, bool) {
	data = bytes.TrimRight(data, "\x00")
	if len(data) == 0 {
		return procInfo{}, false // kernel threads and zombies
	}
	argv := strings.Split(string(data), "\x00")
	if len(argv) == 1 && strings.Contains(argv[0], " ") {
		return parseCommandLine(argv[0], isFile)
	}
	return procInfo{exe: argv[0], args: argv[1:]}, true
}

func psProcesses(ctx context.Context) ([]procInfo, error) {
	// -x without -a: this user's processes, with or without a terminal.
	out, err := exec.CommandContext(ctx, "ps", "-x", "-ww", "-o", "pid=,command=").Output()
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
