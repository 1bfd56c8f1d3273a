package keeper

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/page"
	"github.com/cdpskill/cdpskill/route"
)

// Chrome keeps an emulation as long as the session that set it: a call's
// ends with the call, and the page's own reload between two calls loaded
// without it. The keeper's session stays, and holds it (the part Held
// names). Calls must then leave those overrides alone: a call's session
// that sets the time zone or locale is refused while another's holds one,
// and one that sets the screen and detaches clears it for every session.
// So while a keeper holds a tab's emulation, calls change it only by
// asking the keeper (Client.Hold), and restore none of it themselves.

// wanted reads every tab's stored emulation and routes, in the default
// session's files and each session's, and returns what a keeper holds by
// target id: the part of the emulation it holds, the rules. Two files
// naming one target (an alias a rebuilt registry reissued) count by the
// newer.
func (k *keeper) wanted() map[string]wantedTab {
	want := map[string]wantedTab{}
	newest := map[string]time.Time{}
	for _, p := range k.tabFiles(".emulation.json") {
		var s Stored
		if !k.readNewest(p, &s, func() string { return s.Target }, newest) {
			continue
		}
		if held := Held(s.Emulation); !held.IsZero() {
			want[s.Target] = wantedTab{em: held, label: label(k.cfg.Temp.Root(), p, ".emulation.json"),
				log: k.logOf(p, ".emulation.json", s.Target)}
		}
	}
	clear(newest)
	for _, p := range k.tabFiles(".routes.json") {
		var f route.File
		if !k.readNewest(p, &f, func() string { return f.Target }, newest) || len(f.Rules) == 0 {
			continue
		}
		w := want[f.Target]
		w.routes, w.rules = p, f.Rules
		if w.label == "" {
			w.label, w.log = label(k.cfg.Temp.Root(), p, ".routes.json"), k.logOf(p, ".routes.json", f.Target)
		}
		want[f.Target] = w
	}
	return want
}

// tabFiles are the paths of the tabs' files that end in suffix.
func (k *keeper) tabFiles(suffix string) []string {
	root := k.cfg.Temp.Root()
	var paths []string
	for _, pattern := range []string{filepath.Join(root, "*"+suffix), filepath.Join(root, "sessions", "*", "*"+suffix)} {
		found, _ := filepath.Glob(pattern)
		paths = append(paths, found...)
	}
	return paths
}

// readNewest reads the tab file at p into v, unless it names no target
// (target says which) or one a newer file named already.
func (k *keeper) readNewest(p string, v any, target func() string, newest map[string]time.Time) bool {
	fi, err := os.Stat(p)
	if err != nil {
		return false
	}
	data, err := k.cfg.Temp.ReadFile(p, 1<<22)
	if err != nil || json.Unmarshal(data, v) != nil || target() == "" || fi.ModTime().Before(newest[target()]) {
		return false
	}
	newest[target()] = fi.ModTime()
	return true
}

// wantedTab is what a tab's files say, and its label.
type wantedTab struct {
	em    page.Emulation
	label string
	// routes is the path of the tab's rules, which are rules.
	routes string
	rules  []route.Rule
	// log is the tab's network log, beside which the keeper keeps the
	// requests it sees.
	log capture.NetworkLog
}

// label is the alias a tab's file is named for, a session's tab's as
// session/alias.
func label(root, path, suffix string) string {
	alias := strings.TrimSuffix(filepath.Base(path), suffix)
	if dir := filepath.Dir(path); dir != root {
		return filepath.Base(dir) + "/" + alias
	}
	return alias
}

// sync makes what the keeper holds what the files say, for the tabs of
// its browser: it attaches to a tab newly emulated, changes what changed,
// and lets go of a tab whose emulation was reset, which ends it. It
// returns, by target, the tabs whose emulation it could not hold in full.
func (k *keeper) sync(ctx context.Context) map[string]*Failure {
	failed := map[string]*Failure{}
	want := k.wanted()
	k.wanting = want
	pages, err := proto.TargetGetTargets{}.Do(ctx, k.browser.Conn.Browser())
	if err != nil {
		k.log.Printf("cannot list the tabs: %v", err)
		for id := range want {
			failed[id] = failure(err)
		}
		return failed
	}
	here := map[string]bool{}
	for _, t := range pages.TargetInfos {
		if t.Type == "page" {
			here[t.TargetID] = true
		}
	}
	for id, h := range k.held {
		if _, ok := want[id]; !ok || !here[id] {
			k.release(ctx, id, h)
		}
	}
	for id, w := range want {
		if !here[id] {
			continue // another browser's tab, or one closed
		}
		if err := k.hold(ctx, id, w); err != nil {
			k.log.Printf("tab %s: %v", id, err)
			failed[id] = failure(err)
		}
	}
	return failed
}

// hold makes the tab id's emulation and routes what w says, attaching to
// it first.
func (k *keeper) hold(ctx context.Context, id string, w wantedTab) error {
	h := k.held[id]
	if h == nil {
		s, err := proto.Attach(ctx, k.browser.Conn, id)
		if err != nil {
			return err
		}
		h = &heldTab{page: page.New(s), label: w.label}
		k.held[id] = h
		k.log.Printf("holds tab %s (%s)", w.label, id)
		k.record(ctx, h, w.log)
	}
	h.label = w.label
	err := k.holdRoutes(ctx, id, h, w)
	if !reflect.DeepEqual(h.em, w.em) {
		if err = errors.Join(err, page.Change(ctx, h.page, h.em, w.em)); err == nil {
			h.em = w.em
		}
	}
	if err != nil {
		// What the session has now is not known: letting go of the tab
		// ends it all, and the next sync starts from nothing, and says
		// what fails again.
		k.release(ctx, id, h)
	}
	return err
}

// holdRoutes serves the tab's rules on its session, and stops when it has
// none left.
func (k *keeper) holdRoutes(ctx context.Context, id string, h *heldTab, w wantedTab) error {
	if reflect.DeepEqual(h.rules, w.rules) {
		return nil
	}
	if h.routes == nil {
		path, temp := w.routes, k.cfg.Temp
		h.routes = route.Serve(h.page.S, route.LoadHits(temp, path, id), func(hits route.Hits) {
			if err := route.SaveHits(temp, path, hits); err != nil {
				k.log.Printf("tab %s: %v", w.label, err)
			}
		})
	}
	if err := h.routes.Set(ctx, w.rules); err != nil {
		return err
	}
	h.rules = w.rules
	if len(w.rules) == 0 {
		h.routes.Close()
		h.routes = nil
	}
	return nil
}

// release lets go of the tab id: detaching ends its emulation and
// routes.
func (k *keeper) release(ctx context.Context, id string, h *heldTab) {
	h.stopRecording()
	if h.routes != nil {
		h.routes.Close()
	}
	delete(k.held, id)
	if err := proto.Detach(ctx, h.page.S); err != nil && !cdp.IsTargetGone(err) {
		k.log.Printf("tab %s: %v", id, err)
	}
	k.log.Printf("let go of tab %s", id)
}

// followDetaches forgets a tab whose session Chrome ended: it was closed,
// or its browser context was.
func (k *keeper) followDetaches() {
	l := k.browser.Conn.Listen("", proto.EventTargetDetachedFrom)
	defer l.Close()
	for {
		ev, err := l.Next(context.Background())
		if err != nil {
			return
		}
		id := gjson.GetBytes(ev.Params, "targetId").String()
		k.mu.Lock()
		if h := k.held[id]; h != nil && h.page.S.ID == gjson.GetBytes(ev.Params, "sessionId").String() {
			h.stopRecording()
			if h.routes != nil {
				h.routes.Close()
			}
			delete(k.held, id)
			k.log.Printf("tab %s is gone", id)
		}
		k.mu.Unlock()
	}
}

// failure carries err to the call: an *invalid.Option field by field.
func failure(err error) *Failure {
	var opt *invalid.Option
	if errors.As(err, &opt) {
		return &Failure{Message: err.Error(), Field: opt.Field, Value: opt.Value, Reason: opt.Reason}
	}
	return &Failure{Message: err.Error()}
}
