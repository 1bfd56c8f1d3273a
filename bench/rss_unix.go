//go:build unix

package main

import (
	"os"
	"runtime"
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

// selfPeakRSSKB is this process's own peak resident set in KB.
func selfPeakRSSKB() int64 {
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
