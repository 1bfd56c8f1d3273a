package dom

import "time"

// How long Collect (page.Effects) waits for an action's effects when none
// has shown up yet. The grace is the spec's "short delay" for SPA routers
// that commit a URL change after the click handler returns (SPEC 9.1,
// 19.15); it starts once the page has rendered a frame and run a task
// after the action, so it only covers what the page's answers may still
// have on the wire, and a loaded machine stretches it.
//
// A fill gets no grace: what typing sets in motion has started by the
// time the page has rendered a frame after it (a field that submits as
// you type), and a router's later step is a click's.
const (
	ClickGrace = 30 * time.Millisecond
	FillGrace  = 0
)
