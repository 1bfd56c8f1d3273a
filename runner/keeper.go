package runner

import (
	"context"

	"github.com/cdpskill/cdpskill/chrome"
	"github.com/cdpskill/cdpskill/keeper"
)

// keeperClient is the call's way to its browsers' keepers; nil when the
// process cannot start one.
func (c *Call) keeperClient(exe *keeper.Exe) *keeper.Client {
	if exe == nil {
		return nil
	}
	idle, err := keeper.IdleFrom(c.getenv)
	if err != nil {
		c.warn("%v", err)
	}
	return &keeper.Client{Exe: exe, Temp: c.files.Temp, Idle: idle}
}

// visitKeeper tells the keeper of the call's browser that the call ran,
// and starts one when the call leaves it something to hold: a session to
// close when idle, a Chrome the call launched.
func (c *Call) visitKeeper(ctx context.Context) {
	if c.keep == nil || c.browser == nil || ctx.Err() != nil {
		return // a call that was cut short has its own news
	}
	launched := ""
	if v := c.browser.Version; c.browser.Launched && v != nil {
		launched = v.WebSocketDebuggerURL
	}
	c.visit(ctx, c.browser.Endpoint, launched)
}

// visit tells the keeper of the browser at ep that the call ran there;
// launched is the websocket URL of the Chrome the call launched, if it
// did.
func (c *Call) visit(ctx context.Context, ep chrome.Endpoint, launched string) {
	if note := c.keep.Visit(ctx, ep, c.tabs.Session(), launched); note != "" {
		c.warn("%s", note)
	}
}
