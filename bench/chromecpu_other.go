//go:build !linux

package main

import "time"

// chromeMeter cannot read Chrome's CPU time here: nil, shown as "-".
type chromeMeter struct{}

func newChromeMeter(int) *chromeMeter { return nil }

func (m *chromeMeter) read() (time.Duration, bool) { return 0, false }

func (m *chromeMeter) cpuNow() cpuMark { return cpuMark{at: time.Now()} }
