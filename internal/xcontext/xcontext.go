// Package xcontext holds the two things every package does with a
// context and a duration: pause for a while unless the context ends
// first, and run cleanup after a call's context has ended.
package xcontext

import (
	"context"
	"time"
)

// Sleep pauses for d, or until ctx ends: then, or when ctx has already
// ended, it returns ctx's error; nil when it slept the whole of d. A d of
// zero or less only looks at ctx.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Detached is a context for the work that must still be done when ctx
// has ended (stopping a navigation the step's time ran out on, releasing
// what a call held in the page, flushing what it captured): it keeps
// ctx's values but not its cancellation or deadline, and ends after d
// of its own, so a page or a browser that no longer answers cannot hold
// the call up.
func Detached(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), d)
}
