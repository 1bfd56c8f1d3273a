package runner

import (
	"context"
	"slices"

	"github.com/cdpskill/cdpskill/capture"
)

// frameConsole is the console of the out-of-process iframe the tab is
// switched to, started on first need: the tab's own capture does not see
// what a cross-site frame logs. Runtime.enable replays what the frame
// logged before, with its timestamps, so starting late loses nothing of
// this call. Nil when the current frame shares the tab's process.
func (c *Call) frameConsole(ctx context.Context) *capture.Console {
	if c.page == nil || c.page.Frame == nil {
		return nil
	}
	s := c.page.EvalSession()
	if s == c.page.S {
		return nil
	}
	if c.fconsole != nil && c.fconsole.Session() == s {
		if err := c.fconsole.Flush(ctx); err != nil {
			c.warn("console of frame %s: %v", c.page.Frame.ID, err)
		}
		return c.fconsole
	}
	if c.fconsole != nil {
		c.fconsole.Close()
		c.fconsole = nil
	}
	fc, err := capture.StartConsole(ctx, s)
	if err != nil {
		c.warn("console of frame %s: %v", c.page.Frame.ID, err)
		return nil
	}
	c.fconsole = fc
	return fc
}

// evalConsole is the console that hears evaluations in the current frame:
// the out-of-process frame's own, else the tab's; nil when capture did
// not start.
func (c *Call) evalConsole(ctx context.Context) *capture.Console {
	if fc := c.frameConsole(ctx); fc != nil {
		return fc
	}
	return c.console
}

// withFrameConsole adds the current frame's messages to the tab's, in the
// order they were logged.
func (c *Call) withFrameConsole(ctx context.Context, msgs []capture.Message, pick func(*capture.Console) []capture.Message) []capture.Message {
	fc := c.frameConsole(ctx)
	if fc == nil {
		return msgs
	}
	all := append(slices.Clip(msgs), pick(fc)...)
	slices.SortStableFunc(all, func(a, b capture.Message) int { return a.Timestamp.Compare(b.Timestamp) })
	return all
}
