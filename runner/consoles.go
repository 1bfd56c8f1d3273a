package runner

import (
	"context"
	"slices"
	"time"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/tab"
)

// withFrameConsole adds the current frame's messages to the tab's, in the
// order they were logged.
func (e *env) withFrameConsole(ctx context.Context, msgs []capture.Message, pick func(*capture.Console) []capture.Message) []capture.Message {
	if e.tab == nil {
		return msgs
	}
	fc := e.tab.FrameConsole(ctx)
	if fc == nil {
		return msgs
	}
	all := append(slices.Clip(msgs), pick(fc)...)
	slices.SortStableFunc(all, func(a, b capture.Message) int { return a.Timestamp.Compare(b.Timestamp) })
	return all
}

// withWorkerConsoles adds the messages of the tab's service workers
// (marked context "service-worker") to msgs, in the order they were
// logged; the workers' events are flushed within limit first.
func (e *env) withWorkerConsoles(ctx context.Context, msgs []capture.Message, pick func(*capture.Console) []capture.Message, limit time.Duration) []capture.Message {
	if e.tab == nil {
		return msgs
	}
	cons := e.tab.WorkerConsoles(ctx, limit)
	if len(cons) == 0 {
		return msgs
	}
	all := slices.Clip(msgs)
	for _, con := range cons {
		all = append(all, pick(con)...)
	}
	slices.SortStableFunc(all, func(a, b capture.Message) int { return a.Timestamp.Compare(b.Timestamp) })
	return all
}

// discardWorkerConsoles has the tab's service workers forget what they
// logged, as the console step's clear does for the page.
func (e *env) discardWorkerConsoles(ctx context.Context) {
	if e.tab == nil {
		return
	}
	for _, con := range e.tab.WorkerConsoles(ctx, tab.WorkerWait) {
		if con.Discard(ctx) != nil {
			con.Clear() // a worker that stopped took its messages with it
		}
	}
}
