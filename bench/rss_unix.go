//go:build unix

package main

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
)

// peakRSSKB is the ended process's peak resident set in KB: getrusage's
// ru_maxrss, which Linux counts in KB and macOS in bytes.
func peakRSSKB(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	return maxrssKB(ru)
}

// selfPeakRSSKB is the high-water mark of this process's memory in KB,
// the figure a child it starts inherits. On Linux that is VmHWM: this
// process's own ru_maxrss is not it, since it too was started by vfork
// and carries its parent's peak.
func selfPeakRSSKB() int64 {
	if data, err := os.ReadFile("/proc/self/status"); err == nil {
		for line := range strings.Lines(string(data)) {
			if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
				if err == nil {
					return kb
				}
			}
		}
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return maxrssKB(&ru)
}

func maxrssKB(ru *syscall.Rusage) int64 {
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) / 1024
	}
	return int64(ru.Maxrss)
}
