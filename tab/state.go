package tab

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/keeper"
	"github.com/cdpskill/cdpskill/page"
)

// --- the tab's emulation across calls

// A tab's emulation is kept between calls in its <alias>.emulation.json
// (keeper.Stored), which the browser's keeper, when one runs, holds.

func (t *Tab) emulationPath() string { return t.opts.Files.TabFile(t.Alias, ".emulation.json") }

// LoadEmulation returns the tab's stored emulation; a missing or
// unreadable file is none.
func (t *Tab) LoadEmulation() page.Emulation { return t.loadStored().Emulation }

func (t *Tab) loadStored() keeper.Stored {
	data, err := t.opts.Files.Temp.ReadFile(t.emulationPath(), 1<<20)
	if err != nil {
		return keeper.Stored{}
	}
	var s keeper.Stored
	if json.Unmarshal(data, &s) != nil || t.Session == nil || s.Target != t.Session.TargetID {
		return keeper.Stored{}
	}
	return s
}

// SaveEmulation stores e for later calls on the tab; no emulation removes
// the file. The tab's call lock keeps two calls from writing it at once.
func (t *Tab) SaveEmulation(e page.Emulation) error {
	return t.store(keeper.Stored{Emulation: e})
}

func (t *Tab) store(s keeper.Stored) error {
	t.Emulation = s.Emulation
	path := t.emulationPath()
	if s.IsZero() {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("emulation: %w", err)
		}
		return nil
	}
	s.Target = t.Session.TargetID
	data, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("emulation: %w", err)
	}
	return t.opts.Files.Temp.WriteFile(path, data)
}

// LeftOn notes doc as the document the call leaves the emulated tab on,
// for the next call to tell whether the page loaded another without it.
func (t *Tab) LeftOn(doc float64) {
	if t.Emulation.IsZero() || doc == 0 {
		return
	}
	if s := t.loadStored(); s.Doc != doc {
		_ = t.store(keeper.Stored{Doc: doc, Emulation: t.Emulation}) // the cost of a failure is a warning missed
	}
}

// restoreEmulation applies the tab's stored emulation e again: Chrome
// ended it when the previous call's session detached. The setup runs it
// once the session is up (its service workers get the network part as
// they attach); with nothing stored the tab keeps the default screen
// (SPEC 5). A failure only warns, and so does a document the page loaded
// between calls: no session held the emulation then.
func (t *Tab) restoreEmulation(ctx context.Context, e page.Emulation) {
	if e.IsZero() {
		return
	}
	own, held := e, false
	if k := keeper.Held(e); !k.IsZero() && t.opts.Keeper != nil {
		already, note, err := t.opts.Keeper.Hold(ctx, t.Browser.Endpoint, t.Session.TargetID)
		if note != "" {
			t.warn("%s", note)
		}
		if err == nil {
			own, held = page.Emulation{Network: e.Network}, already
		} else {
			t.warn("cdpskill's keeper could not hold the tab's emulation (%v): this call applies it itself, and the page's own reloads between calls load without it", err)
		}
	}
	t.selfHeld = own.Viewport != nil || own.Environment != nil
	if err := own.Apply(ctx, t.Page); err != nil {
		t.warn("could not restore the tab's emulation (%s): %v", e.Summary(), err)
	}
	if held {
		return // the keeper held it while no call ran
	}
	if was := t.loadStored().Doc; was != 0 && t.Doc != 0 && t.Doc != was {
		t.warn("the page loaded a new document between calls, when no call held its emulation (%s): "+
			"it is in force again now, but the page loaded without it; reload it to load it emulated", e.Summary())
	}
}

// ChangeEmulation moves the tab's emulation from from to to and stores
// it. The keeper holds the part it holds (keeper.Held), so that it holds
// between calls; the call's session has the network conditions, and the
// rest only when no keeper could be had (then it ends with the call, as
// a warning says). Nothing of a change Chrome refused is kept.
func (t *Tab) ChangeEmulation(ctx context.Context, from, to page.Emulation) error {
	hf, ht := keeper.Held(from), keeper.Held(to)
	if t.opts.Keeper == nil || t.selfHeld || reflect.DeepEqual(hf, ht) {
		if err := page.Change(ctx, t.Page, from, to); err != nil {
			return err
		}
		return t.SaveEmulation(to)
	}
	if err := page.Change(ctx, t.Page, page.Emulation{Network: from.Network}, page.Emulation{Network: to.Network}); err != nil {
		return err
	}
	if err := t.SaveEmulation(to); err != nil {
		return err
	}
	_, note, err := t.opts.Keeper.Hold(ctx, t.Browser.Endpoint, t.Session.TargetID)
	if note != "" {
		t.warn("%s", note)
	}
	var refused *invalid.Option
	switch {
	case err == nil:
		return nil
	case errors.As(err, &refused):
		// Back to what was: the keeper undoes what it set.
		if serr := t.SaveEmulation(from); serr == nil {
			_, _, _ = t.opts.Keeper.Hold(ctx, t.Browser.Endpoint, t.Session.TargetID)
		}
		return err
	}
	t.warn("cdpskill's keeper could not hold the emulation (%v): it is in force for this call only, and the next call applies it again", err)
	t.selfHeld = true
	// The call's session has the network part only: the rest from nothing.
	if err := page.Change(ctx, t.Page, page.Emulation{Network: to.Network}, to); err != nil {
		_ = t.SaveEmulation(from)
		return err
	}
	return nil
}

// EmulateWorkers applies n to the tab's service workers, those running
// and those that start later: what they fetch goes through it too.
func (t *Tab) EmulateWorkers(ctx context.Context, n page.NetworkConditions) {
	if t.workers != nil {
		t.workers.emulate(ctx, n)
	}
}

// --- the network

// Network is the tab's network capture and the tab's log it saves to.
type Network struct {
	*capture.Network
	Log capture.NetworkLog
}

// Network is the tab's network capture; nil when it did not start.
func (t *Tab) Network() *Network { return t.net }

// traffic is what the page asks of the tab's requests (page.TrackRequests):
// those under way, of this call and those earlier calls left under way,
// and when one last ended; nothing known when the call captures no
// network.
func (t *Tab) traffic(ctx context.Context) page.Traffic {
	nc := t.net
	if nc == nil || t.Page == nil {
		return page.Traffic{}
	}
	return nc.InFlight(ctx, nc.Log, t.Page.Top())
}

// startNetwork begins recording the tab's requests. The setup runs it
// beside capture.StartConsole so that the call's requests from the first
// step on are seen.
func (t *Tab) startNetwork(ctx context.Context) error {
	_ = t.stopNetwork() // a restart: the old log is best effort
	n, err := capture.StartNetwork(ctx, t.Session)
	if err != nil {
		return err
	}
	t.net = &Network{Network: n, Log: t.opts.Files.NetworkLog(t.Alias, t.Session.TargetID)}
	return nil
}

// EnsureNetwork returns the tab's capture, starting it if the setup did
// not: then only requests from now on are seen.
func (t *Tab) EnsureNetwork(ctx context.Context) (*Network, error) {
	if t.net != nil {
		return t.net, nil
	}
	if err := t.startNetwork(ctx); err != nil {
		return nil, err
	}
	return t.net, nil
}

// stopNetwork ends the capture, saving to the tab's log what was not
// saved yet.
func (t *Tab) stopNetwork() error {
	nc := t.net
	if nc == nil {
		return nil
	}
	t.net = nil
	nc.Close()
	// Without a page to ask: nothing here waits on Chrome.
	return nc.Save(context.Background(), nc.Log, true, nil)
}

// --- the frame's console

// FrameConsole is the console of the out-of-process iframe the tab is
// switched to, started on first need: the tab's own capture does not see
// what a cross-site frame logs. Runtime.enable replays what the frame
// logged before, with its timestamps, so starting late loses nothing of
// this call. Nil when the current frame shares the tab's process.
func (t *Tab) FrameConsole(ctx context.Context) *capture.Console {
	if t.Page == nil || t.Page.Frame == nil {
		return nil
	}
	s := t.Page.EvalSession()
	if s == t.Page.S {
		return nil
	}
	if t.fconsole != nil && t.fconsole.Session() == s {
		if err := t.fconsole.Flush(ctx); err != nil {
			t.warn("console of frame %s: %v", t.Page.Frame.ID, err)
		}
		return t.fconsole
	}
	if t.fconsole != nil {
		t.fconsole.Close()
		t.fconsole = nil
	}
	fc, err := capture.StartConsole(ctx, s)
	if err != nil {
		t.warn("console of frame %s: %v", t.Page.Frame.ID, err)
		return nil
	}
	t.fconsole = fc
	return fc
}

// EvalConsole is the console that hears evaluations in the current
// frame: the out-of-process frame's own, else the tab's; nil when capture
// did not start.
func (t *Tab) EvalConsole(ctx context.Context) *capture.Console {
	if fc := t.FrameConsole(ctx); fc != nil {
		return fc
	}
	return t.Console
}
