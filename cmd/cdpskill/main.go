// Command cdpskill drives Chrome for AI agents: one JSON batch of steps in,
// one JSON result out.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
)

// memoryLimit bounds the heap: a call lives for milliseconds and most
// allocate a few megabytes, so collecting before the limit is near only
// costs time, while a snapshot of a huge page is kept from growing past
// what eight agents on one machine can each afford.
const memoryLimit = 18 << 20

func main() {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetGCPercent(-1)
		debug.SetMemoryLimit(memoryLimit)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}
