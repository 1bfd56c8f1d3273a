package page

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/xcontext"
)

// How long Collect follows what an action set in motion. It first waits
// the action's grace (dom.ClickGrace, dom.FillGrace), which starts once
// the page has rendered a frame and run a task after the action
// (js/yield.js); once a navigation or a new tab shows up, the wait follows
// it instead, each stage under its own cap, so a slow server cannot hold
// a click for the whole step timeout.
const (
	navCommitMax = 10 * time.Second // a started navigation to commit
	domReadyMax  = 5 * time.Second  // the new document's DOMContentLoaded
	tabURLMax    = 2 * time.Second  // a new tab to learn its URL
)

//go:embed js/yield.js
var yieldJS string

// pageEvents are the tab's events that say a navigation started, committed
// or happened within the document.
var pageEvents = []string{
	proto.EventPageFrameStartedNavigating,
	proto.EventPageFrameNavigated,
	proto.EventPageFrameStoppedLoading,
	proto.EventPageNavigatedWithinDocument,
	proto.EventPageDomContentEventFired,
	proto.EventPageDownloadWillBegin,
}

// Effects watches what an action does to the tab beyond its element: a
// navigation, cross-document or within it (history.pushState and
// replaceState), and tabs it opens. Subscribe before acting (WatchEffects),
// Collect after, Close when done.
type Effects struct {
	p       *Page
	before  string
	events  *cdp.Listener
	targets *cdp.Listener // nil unless new tabs are watched
	known   map[string]bool
}

// Outcome is what Collect saw.
type Outcome struct {
	// Navigated: the tab's URL changed in more than its fragment (SPEC
	// 14.3); NewURL is where it is now.
	Navigated bool
	NewURL    string
	// NewTabs are the tabs this tab opened (their opener is this tab).
	NewTabs []NewTab
	// Warning says what was still going on when the wait gave up.
	Warning string
}

// NewTab is a tab the action opened.
type NewTab struct {
	TargetID string `json:"targetId"`
	URL      string `json:"url,omitempty"`
	Title    string `json:"title,omitempty"`
}

// WatchEffects brings the tab to the front of its window if it is hidden,
// subscribes to its navigation events and, with newTabs, to the browser's
// target events, and records the tab's URL.
// Target discovery is per connection, so turning it on here affects only
// this process; the targets it replays for existing tabs are marked known.
func WatchEffects(ctx context.Context, p *Page, newTabs bool) (*Effects, error) {
	w := &Effects{p: p, events: p.S.Listen(pageEvents...), known: map[string]bool{}}
	conn := p.S.Conn()
	if newTabs {
		// Browser.downloadWillBegin arrives when the call asked Chrome
		// for download events (capture.WatchDownloads), or the keeper
		// brings them (keeper.Relay, cdp.Conn.Deliver).
		w.targets = conn.Listen("", proto.EventTargetCreated, proto.EventTargetInfoChanged, proto.EventTargetDestroyed, proto.EventBrowserDownloadWillBegin)
	}
	var g errgroup.Group
	g.Go(func() error { return proto.PageEnable{}.Do(ctx, p.S) })
	g.Go(func() error { return frontIfHidden(ctx, p) })
	g.Go(func() (err error) {
		w.before, err = TargetURL(ctx, p)
		return err
	})
	if newTabs {
		g.Go(func() error {
			if err := (proto.TargetSetDiscoverTargets{Discover: true}).Do(ctx, conn.Browser()); err != nil {
				return err
			}
			// The replay of existing targets arrives before the reply.
			for _, ev := range w.targets.Drain() {
				if info, ok := targetInfoOf(ev); ok {
					w.known[info.TargetID] = true
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		w.Close()
		return nil, err
	}
	return w, nil
}

// Close unsubscribes.
func (w *Effects) Close() {
	w.events.Close()
	if w.targets != nil {
		w.targets.Close()
	}
}

// Collect waits up to grace for the action's effects and follows any it
// sees: a cross-document navigation until the new document's
// DOMContentLoaded, a new tab until it has a URL. It then compares the
// tab's URL with the one before. When tabs were opened it brings this tab
// back to the front of its window: a hidden tab renders no frames, so its
// screenshots and animation-frame waits would stall.
func (w *Effects) Collect(ctx context.Context, grace time.Duration) *Outcome {
	w.yield(ctx)
	st := &effectState{frame: w.p.S.TargetID, known: w.known, start: time.Now()}
	// What the action set in motion before the page answered the yield
	// has arrived already: events come in order, before the reply.
	for _, l := range []*cdp.Listener{w.events, w.targets} {
		if l != nil {
			for _, ev := range l.Drain() {
				st.handle(ev)
			}
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	events := merge(cctx, w.events, w.targets)
	out := &Outcome{Warning: st.follow(ctx, events, grace)}
	cancel()

	// The rest runs even if the step's time ran out: the click happened,
	// and the agent should hear what it did.
	fctx, fcancel := xcontext.Detached(ctx, time.Second)
	defer fcancel()
	after, err := TargetURL(fctx, w.p)
	switch {
	case err != nil:
		out.Navigated = st.committed
	case Navigated(w.before, after):
		out.Navigated, out.NewURL = true, after
	}
	if st.committed {
		w.p.TopNavigated()
	}
	for _, t := range st.tabs {
		out.NewTabs = append(out.NewTabs, t.result())
	}
	if len(st.tabs) > 0 {
		if err := activate(fctx, w.p.S.Conn(), w.p.S.TargetID); err != nil {
			out.Warning = JoinNotes(out.Warning, "could not bring this tab back to the front: "+err.Error())
		}
	}
	return out
}

// yield runs one macrotask in the page before the grace period starts
// (js/yield.js). Its error is of no interest: a page that navigated or is
// blocked by a dialog has nothing more to queue, and the bound keeps a
// hung page from holding the click.
func (w *Effects) yield(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	_ = w.p.CallJS(ctx, yieldJS, nil)
}

// merge forwards the listeners' events to one channel until ctx ends.
func merge(ctx context.Context, ls ...*cdp.Listener) <-chan cdp.Event {
	ch := make(chan cdp.Event)
	for _, l := range ls {
		if l == nil {
			continue
		}
		go func() {
			for {
				ev, err := l.Next(ctx)
				if err != nil {
					return
				}
				select {
				case ch <- ev:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	return ch
}

// effectState is what the events have said so far.
type effectState struct {
	frame string // the main frame's id, which is the target's id
	known map[string]bool
	start time.Time

	loading     bool // a cross-document navigation started, not yet committed or stopped
	loadingAt   time.Time
	committed   bool
	committedAt time.Time
	domReady    bool
	sameDoc     bool
	tabs        []*trackedTab
	firstTabAt  time.Time
}

type trackedTab struct {
	id, url, title string
	// downloading: the tab began a download; Chrome closes a tab opened
	// only for that (a target=_blank link to an attachment).
	downloading bool
}

func (t *trackedTab) pending() bool { return t.url == "" || t.url == "about:blank" || t.downloading }

// result drops the title Chrome makes up from the URL of an untitled page.
func (t *trackedTab) result() NewTab {
	title := t.title
	if title == t.url || strings.HasSuffix(t.url, title) {
		title = ""
	}
	return NewTab{TargetID: t.id, URL: t.url, Title: title}
}

// follow consumes events until the effects are complete or their caps
// pass, and returns a warning for whatever was still under way.
func (st *effectState) follow(ctx context.Context, events <-chan cdp.Event, grace time.Duration) string {
	for {
		until, stage := st.deadline(grace)
		if stage == "done" {
			return ""
		}
		wait := time.Until(until)
		if wait <= 0 {
			return stage
		}
		timer := time.NewTimer(wait)
		select {
		case ev := <-events:
			st.handle(ev)
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			if stage == "" {
				return ""
			}
			return stage + " when the step's time ran out"
		}
		timer.Stop()
	}
}

// deadline is when the current stage of the wait ends, and what to say if
// it ends unfinished ("" for the grace period, "done" when nothing is left
// to wait for).
func (st *effectState) deadline(grace time.Duration) (time.Time, string) {
	switch {
	case st.loading:
		return st.loadingAt.Add(navCommitMax), "the page was still navigating (no response yet)"
	case st.committed && !st.domReady:
		return st.committedAt.Add(domReadyMax), "the new page was still loading"
	case st.pendingTab():
		return st.firstTabAt.Add(tabURLMax), ""
	case st.committed || st.sameDoc || len(st.tabs) > 0:
		return time.Time{}, "done"
	}
	return st.start.Add(grace), ""
}

func (st *effectState) pendingTab() bool {
	for _, t := range st.tabs {
		if t.pending() {
			return true
		}
	}
	return false
}

func (st *effectState) handle(ev cdp.Event) {
	var e struct {
		FrameID        string `json:"frameId"`
		NavigationType string `json:"navigationType"`
		Frame          struct {
			ID string `json:"id"`
		} `json:"frame"`
	}
	switch ev.Method {
	case proto.EventTargetCreated, proto.EventTargetInfoChanged, proto.EventTargetDestroyed:
		// read by handleTarget and dropTab
	default:
		if json.Unmarshal(ev.Params, &e) != nil {
			return
		}
	}
	now := time.Now()
	switch ev.Method {
	case proto.EventPageFrameStartedNavigating:
		if e.FrameID == st.frame && e.NavigationType != "sameDocument" && e.NavigationType != "historySameDocument" {
			st.loading, st.loadingAt = true, now
		}
	case proto.EventPageFrameNavigated:
		if e.Frame.ID == st.frame {
			st.loading, st.committed, st.committedAt, st.domReady = false, true, now, false
		}
	case proto.EventPageFrameStoppedLoading, proto.EventPageDownloadWillBegin:
		if e.FrameID == st.frame && st.loading {
			st.loading = false // a download, a 204, or an aborted navigation
		}
	case proto.EventPageNavigatedWithinDocument:
		if e.FrameID == st.frame {
			st.sameDoc = true
		}
	case proto.EventPageDomContentEventFired:
		if st.committed {
			st.domReady = true
		}
	case proto.EventTargetCreated, proto.EventTargetInfoChanged:
		st.handleTarget(ev, now)
	case proto.EventTargetDestroyed:
		st.dropTab(ev)
	case proto.EventBrowserDownloadWillBegin:
		for _, t := range st.tabs {
			if t.id == e.FrameID {
				t.downloading = true
			}
		}
	}
}

// dropTab forgets a tab that closed: one that opened only to download a
// file is no tab to report.
func (st *effectState) dropTab(ev cdp.Event) {
	var e proto.TargetDestroyed
	if json.Unmarshal(ev.Params, &e) != nil {
		return
	}
	st.tabs = slices.DeleteFunc(st.tabs, func(t *trackedTab) bool { return t.id == e.TargetID })
}

// handleTarget tracks the tabs this tab opened: only those whose opener
// is this tab, so tabs other agents open meanwhile are never reported.
func (st *effectState) handleTarget(ev cdp.Event, now time.Time) {
	info, ok := targetInfoOf(ev)
	if !ok || info.Type != "page" {
		return
	}
	for _, t := range st.tabs {
		if t.id == info.TargetID {
			t.url, t.title = info.URL, info.Title
			return
		}
	}
	if ev.Method != proto.EventTargetCreated || info.OpenerID != st.frame || st.known[info.TargetID] {
		return
	}
	if len(st.tabs) == 0 {
		st.firstTabAt = now
	}
	st.tabs = append(st.tabs, &trackedTab{id: info.TargetID, url: info.URL, title: info.Title})
}

// targetInfoOf reads a Target.targetCreated or Target.targetInfoChanged.
func targetInfoOf(ev cdp.Event) (proto.TargetInfo, bool) {
	var p proto.TargetCreated
	if json.Unmarshal(ev.Params, &p) != nil || p.TargetInfo.TargetID == "" {
		return proto.TargetInfo{}, false
	}
	return p.TargetInfo, true
}

// activate brings a tab to the front of its window.
func activate(ctx context.Context, conn *cdp.Conn, targetID string) error {
	return proto.TargetActivateTarget{TargetID: targetID}.Do(ctx, conn.Browser())
}

// frontIfHidden activates the tab when it is behind another in its window
// (one a click opened, or that one's opener): a hidden tab renders no
// frames, so input and screenshots would stall. A visible tab is left
// alone, since activating it can focus its window and fire resize.
func frontIfHidden(ctx context.Context, p *Page) error {
	obj, err := p.Evaluate(ctx, proto.RuntimeEvaluate{Expression: "document.visibilityState", ReturnByValue: true})
	if err != nil {
		return err
	}
	if string(obj.Value) != `"hidden"` {
		return nil
	}
	return activate(ctx, p.S.Conn(), p.S.TargetID)
}

// TargetURL asks the browser, not the page, for the URL of p's tab: it
// answers while the page is busy or between documents.
func TargetURL(ctx context.Context, p *Page) (string, error) {
	res, err := proto.TargetGetTargetInfo{TargetID: p.S.TargetID}.Do(ctx, p.S.Conn().Browser())
	if err != nil {
		return "", fmt.Errorf("page: read the tab's URL: %w", err)
	}
	return res.TargetInfo.URL, nil
}

// Navigated compares origin, path and query: a fragment change is not a
// navigation, a pushState route is (SPEC 14.3). An unreadable URL counts
// as navigated. Steps and the call's report both judge by it.
func Navigated(before, after string) bool {
	if before == after {
		return false
	}
	b, err1 := url.Parse(before)
	a, err2 := url.Parse(after)
	if err1 != nil || err2 != nil {
		return true
	}
	return b.Scheme != a.Scheme || b.Host != a.Host || b.Path != a.Path || b.RawQuery != a.RawQuery
}

// JoinNotes joins two notes for the agent, either of which may be empty.
func JoinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}
