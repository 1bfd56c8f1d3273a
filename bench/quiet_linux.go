package main

import (
	"context"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/internal/xcontext"
)

// Quiet: the share of the machine's CPU time that must be idle over a
// window, and the longest wait for it.
const (
	quietWindow = 50 * time.Millisecond
	quietIdle   = 0.85
	quietMax    = 2 * time.Second
)

// awaitQuiet waits, up to quietMax, until the machine's CPUs were idle
// over a whole quietWindow. An agent thinks for seconds between calls,
// long enough for the browser to finish what the last call left it (a
// session's teardown, a renderer's garbage collection); the bench's
// short pause is not, so without this a light call measured after a
// heavy one pays for the heavy one's leftovers. False when the run is
// being stopped.
func awaitQuiet(ctx context.Context) bool {
	deadline := time.Now().Add(quietMax)
	idle, total, ok := cpuTimes()
	for ok && time.Now().Before(deadline) {
		if xcontext.Sleep(ctx, quietWindow) != nil {
			return false
		}
		i, t, got := cpuTimes()
		if !got {
			break
		}
		if t > total && float64(i-idle)/float64(t-total) >= quietIdle {
			return true
		}
		idle, total = i, t
	}
	return ctx.Err() == nil
}

// cpuTimes reads the idle and total jiffies of all CPUs from /proc/stat.
func cpuTimes() (idle, total uint64, ok bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0, false
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 5 || f[0] != "cpu" {
		return 0, 0, false
	}
	for i, v := range f[1:] {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return 0, 0, false
		}
		total += n
		if i == 3 || i == 4 { // idle, iowait
			idle += n
		}
	}
	return idle, total, true
}
