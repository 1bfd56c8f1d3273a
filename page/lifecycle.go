package page

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/invalid"
)

// WaitUntil values: how far a navigation must get before it counts as done.
const (
	WaitCommit           = "commit"
	WaitDOMContentLoaded = "domcontentloaded"
	WaitLoad             = "load"
	WaitNetworkIdle      = "networkidle"
)

// lifecycleNames maps a waitUntil value to the Page.lifecycleEvent name
// that satisfies it. Chrome's "networkIdle" means no requests for 500 ms,
// exactly the spec's network-idle rule, so no request counting is needed.
var lifecycleNames = map[string]string{
	WaitCommit:           "init",
	WaitDOMContentLoaded: "DOMContentLoaded",
	WaitLoad:             "load",
	WaitNetworkIdle:      "networkIdle",
}

// CheckWaitUntil rejects anything but a waitUntil value ("" means load),
// so callers can refuse a bad step before touching Chrome.
func CheckWaitUntil(s string) error {
	if _, ok := lifecycleNames[s]; ok || s == "" {
		return nil
	}
	return &invalid.Option{Field: "waitUntil", Value: s, Reason: "must be commit, domcontentloaded, load or networkidle"}
}

// navEvents are the events a navigation is followed by. Network is not
// among them: Chrome's lifecycle events already say everything needed.
var navEvents = []string{
	proto.EventPageLifecycleEvent,
	proto.EventPageFrameStartedNavigating,
	proto.EventPageFrameNavigated,
	proto.EventPageNavigatedWithinDocument,
}

// EnableLifecycle turns on the Page domain and its lifecycle events. Both
// are idempotent, so every navigation calls it rather than trusting that
// session setup did.
func EnableLifecycle(ctx context.Context, p *Page) error {
	if err := (proto.PageEnable{}).Do(ctx, p.S); err != nil {
		return err
	}
	return proto.PageSetLifecycleEventsEnabled{Enabled: true}.Do(ctx, p.S)
}

// mainFrameID returns the id of the tab's top frame.
func mainFrameID(ctx context.Context, p *Page) (string, error) {
	res, err := proto.PageGetFrameTree{}.Do(ctx, p.S)
	if err != nil {
		return "", err
	}
	return res.FrameTree.Frame.ID, nil
}

// follower tracks one main-frame navigation through its events: which
// loader (document) it is on, and which lifecycle points each loader has
// reached. Events may arrive before the command that caused them returns,
// so everything seen is recorded and checked against the current loader.
type follower struct {
	frameID   string
	waitUntil string
	target    string // lifecycle event name that ends the wait
	loader    string // "" until the navigation reveals it
	// committed is set once the frame has a document from this navigation.
	committed bool
	sameDoc   bool
	done      bool
	seen      map[string]map[string]bool // loaderId -> lifecycle names
	// unreachable is the URL Chrome could not load, when it shows an error page.
	unreachable string
}

func newFollower(frameID, waitUntil string) *follower {
	if waitUntil == "" {
		waitUntil = WaitLoad
	}
	return &follower{frameID: frameID, waitUntil: waitUntil, target: lifecycleNames[waitUntil], seen: map[string]map[string]bool{}}
}

// handle folds one event into the state and reports a malformed event.
func (f *follower) handle(ev cdp.Event) error {
	switch ev.Method {
	case proto.EventPageLifecycleEvent:
		var e proto.PageLifecycleEvent
		if err := json.Unmarshal(ev.Params, &e); err != nil {
			return err
		}
		if f.seen[e.LoaderID] == nil {
			f.seen[e.LoaderID] = map[string]bool{}
		}
		f.seen[e.LoaderID][e.Name] = true
	case proto.EventPageFrameStartedNavigating:
		var e proto.PageFrameStartedNavigating
		if err := json.Unmarshal(ev.Params, &e); err != nil {
			return err
		}
		if e.FrameID == f.frameID && f.loader == "" {
			f.loader = e.LoaderID
			f.sameDoc = e.NavigationType == "sameDocument" || e.NavigationType == "historySameDocument"
		}
	case proto.EventPageFrameNavigated:
		var e proto.PageFrameNavigated
		if err := json.Unmarshal(ev.Params, &e); err != nil {
			return err
		}
		if e.Frame.ID != f.frameID {
			return nil
		}
		if e.Type == "BackForwardCacheRestore" {
			f.done = true // no lifecycle event will fire
			return nil
		}
		// A later commit (a client-side redirect) is followed, not failed:
		// the caller wants the page the tab ends up on.
		f.loader, f.committed, f.unreachable = e.Frame.LoaderID, true, e.Frame.UnreachableURL
	case proto.EventPageNavigatedWithinDocument:
		var e proto.PageNavigatedWithinDocument
		if err := json.Unmarshal(ev.Params, &e); err != nil {
			return err
		}
		if e.FrameID == f.frameID && (f.sameDoc || f.loader == "") && !f.committed {
			f.done = true
		}
	}
	if f.committed && (f.waitUntil == WaitCommit || f.seen[f.loader][f.target]) {
		f.done = true
	}
	return nil
}

// reached names the furthest lifecycle point the current loader got to,
// for timeout messages.
func (f *follower) reached() string {
	if !f.committed {
		return "nothing (the document never committed)"
	}
	for _, w := range []string{WaitNetworkIdle, WaitLoad, WaitDOMContentLoaded} {
		if f.seen[f.loader][lifecycleNames[w]] {
			return w
		}
	}
	return WaitCommit
}

// run consumes events until the navigation is done or ctx ends.
func (f *follower) run(ctx context.Context, l *cdp.Listener) error {
	for !f.done {
		ev, err := l.Next(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("page did not reach %q (got as far as %s): %w", f.waitUntil, f.reached(), err)
			}
			return err
		}
		if err := f.handle(ev); err != nil {
			return fmt.Errorf("page: decode %s: %w", ev.Method, err)
		}
	}
	return nil
}
