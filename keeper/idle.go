package keeper

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/tabs"
)

// A session no call used for the idle time is closed with its tabs
// (REQ-BT-010), and a Chrome cdpskill launched that no call reached for
// as long is asked to exit. Neither is made again on the quiet: the
// session's registry records why its context is gone, and the keeper
// leaves a note for a Chrome it closed, so the next call that finds them
// gone says so (tab.SessionGoneError, the call that launches another
// Chrome).

// sessions are the sessions with an open browser context in the keeper's
// browser, by name: recorded in their registry, and in Chrome (a context
// recorded in a Chrome that ran before is not the keeper's to hold; the
// session's next call finds it gone).
func (k *keeper) sessions(ctx context.Context) []string {
	regs, _ := filepath.Glob(filepath.Join(k.cfg.Temp.Root(), "sessions", "*", "tabs.json"))
	if len(regs) == 0 {
		return nil
	}
	res, err := (proto.TargetGetBrowserContexts{}).Do(ctx, k.browser.Conn.Browser())
	if err != nil {
		return nil
	}
	var names []string
	for _, p := range regs {
		name := filepath.Base(filepath.Dir(p))
		if tabs.CheckSession(name) != nil {
			continue
		}
		c, found, err := tabs.OpenSession(k.cfg.Temp, name).Context(k.cfg.Endpoint)
		if err == nil && found && c.Closed == "" && slices.Contains(res.BrowserContextIDs, c.ID) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// closeIdleSessions closes the contexts of the sessions (of those open
// here) that had no call for the idle time: since their last call, or
// since the keeper first found their context, for one it has not heard
// from since.
func (k *keeper) closeIdleSessions(ctx context.Context, now time.Time, open []string) {
	if k.cfg.Idle <= 0 {
		return
	}
	for _, name := range open {
		reg := tabs.OpenSession(k.cfg.Temp, name)
		c, found, err := reg.Context(k.cfg.Endpoint)
		if err != nil || !found {
			continue
		}
		found1, ok := k.found[c.ID]
		if !ok {
			found1, k.found[c.ID] = now, now
		}
		k.clock.Lock()
		last := k.seen[name]
		k.clock.Unlock()
		if now.Sub(later(last, found1)) < k.cfg.Idle {
			continue
		}
		err = proto.TargetDisposeBrowserContext{BrowserContextID: c.ID}.Do(ctx, k.browser.Conn.Browser())
		if err != nil {
			k.log.Printf("session %s: cannot close its context %s: %v", name, c.ID, err)
			continue
		}
		why := fmt.Sprintf("cdpskill closed it at %s after %s with no call", now.Local().Format("15:04:05"), Duration(k.cfg.Idle))
		if err := reg.CloseContext(k.cfg.Endpoint, c.ID, why); err != nil {
			k.log.Printf("session %s: %v", name, err)
		}
		delete(k.found, c.ID)
		k.log.Printf("closed session %s: no call for %v", name, k.cfg.Idle)
	}
}

// exitChrome leaves the note that says why Chrome is gone, then asks it
// to exit. A Chrome that stays has the note taken back.
func (k *keeper) exitChrome(ctx context.Context, now time.Time) {
	data, _ := json.Marshal(exitNote{At: now, Idle: k.cfg.Idle})
	if err := k.cfg.Temp.WriteFile(exitPath(k.dir), data); err != nil {
		k.log.Print(err)
	}
	_ = (proto.BrowserClose{}).Do(ctx, k.browser.Conn.Browser()) // Chrome may close the connection before it answers
	select {
	case <-k.browser.Conn.Done():
		_ = os.Remove(launchedPath(k.dir))
	case <-time.After(2 * time.Second):
		k.log.Print("Chrome did not exit when asked")
		_ = os.Remove(exitPath(k.dir))
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
