//go:build !linux

package main

import "context"

// awaitQuiet cannot see the machine's load here: it returns at once.
func awaitQuiet(ctx context.Context) bool { return ctx.Err() == nil }
