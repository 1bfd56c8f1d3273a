//go:build unix

package chrome

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// stopChrome ends a Chrome that Launch started, and every process of its
// group. Launch makes Chrome a session leader, so its pid names the group:
// renderers, the GPU process and crashpad go with it. Waiting for the
// browser alone is not enough; a helper still writing to the profile
// races the test's TempDir cleanup.
func stopChrome(t *testing.T, pid int) {
	t.Helper()
	if syscall.Kill(-pid, syscall.SIGTERM) != nil {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	deadline := time.Now().Add(10 * time.Second)
	killed := false
	for groupAlive(pid) {
		if time.Now().After(deadline) {
			if killed {
				t.Logf("Chrome group %d still alive after SIGKILL", pid)
				return
			}
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			killed, deadline = true, time.Now().Add(5*time.Second)
		}
		time.Sleep(50 * time.Millisecond) // polling a process table: no event to wait on
	}
}

// groupAlive reports whether a process of group pgid still runs. Zombies
// do not count: in a container nobody may ever reap Chrome's orphans.
func groupAlive(pgid int) bool {
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil || len(stats) == 0 {
		return syscall.Kill(-pgid, 0) == nil // no /proc: macOS, the BSDs
	}
	for _, f := range stats {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp …; comm may hold spaces and parens.
		i := bytes.LastIndexByte(data, ')')
		if i < 0 {
			continue
		}
		fields := bytes.Fields(data[i+1:])
		if len(fields) < 3 || string(fields[0]) == "Z" {
			continue
		}
		if g, _ := strconv.Atoi(string(fields[2])); g == pgid {
			return true
		}
	}
	return false
}
