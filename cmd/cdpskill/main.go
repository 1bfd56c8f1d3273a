// Command cdpskill drives Chrome for AI agents: one JSON batch of steps in,
// one JSON result out.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"syscall"

	"github.com/cdpskill/cdpskill/keeper"
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
	if os.Getenv("GOMAXPROCS") == "" {
		// A call mostly waits on Chrome, and several agents' calls share
		// the machine's cores with Chrome: a second P only adds threads
		// that spin and wake each other (a pageFunction call: ~8 -> ~7 ms
		// of CPU).
		runtime.GOMAXPROCS(1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	dir, _ := os.Getwd() // "" if it was removed: relative paths then fail as the OS has them
	p := proc{args: os.Args[1:], stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		getenv: os.Getenv, dir: dir, exiting: true}
	if exe, err := os.Executable(); err == nil {
		p.keeper = &keeper.Exe{Path: exe, Args: []string{keeperFlag}}
	}
	code := run(ctx, p)
	stop()
	os.Exit(code)
}
