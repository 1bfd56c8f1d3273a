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
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) / 1024
	}
	return int64(ru.Maxrss)
}
