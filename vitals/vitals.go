// Package vitals measures how a page loads, in web.dev's terms (TTFB,
// FCP, LCP, CLS, TBT, INP, each rated good, needs improvement or poor),
// with the elements behind the figures as refs and snapshot lines
// (package aria), the page's requests in a few numbers, and, when asked,
// Chrome's trace of the load.
//
// A load cdpskill makes (Options.Load) has its observers in place before
// the page's own scripts run: an init script in cdpskill's helper world,
// where the page can neither see nor feed them (PerformanceObserver
// entries, their elements included, reach every world). The current page
// is read from the entries Chrome buffers for a late reader instead.
package vitals

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/aria"
	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/private"
	"github.com/cdpskill/cdpskill/internal/xcontext"
	"github.com/cdpskill/cdpskill/page"
)

var (
	//go:embed js/observe.js
	observeJS string
	//go:embed js/read.js
	readJS string
)

// stateKey names, in the helper world, what observe.js keeps:
// window[Symbol.for(stateKey)].
const stateKey = "cdpskill.vitals"

// loadTypes are the entries a load observes from its start.
var loadTypes = []string{"largest-contentful-paint", "layout-shift", "longtask", "long-animation-frame", "event"}

// Options are the vitals step's parameters.
type Options struct {
	// Load loads the page afresh, from URL, or the current page's URL
	// when empty; without it the current document is read as it is.
	Load bool
	URL  string
	// Cold bypasses the HTTP cache and service workers for the load.
	Cold bool
	// CacheOff: the tab's emulation has the HTTP cache off already, which
	// a cold load leaves so.
	CacheOff bool
	// Trace is where the trace of the load goes, absolute; "" for none.
	Trace string
	Temp  private.Temp
	// Requests are the tab's requests, those of earlier calls included,
	// oldest first; the document's are picked from them by their start.
	Requests func(context.Context) ([]capture.Request, error)
	// SnapshotFloor and ElementFloor are the tab's ref counters as the
	// runner last saw them (aria.Options).
	SnapshotFloor int
	ElementFloor  int
}

// The read waits for the load, then for Quiet without a larger paint, a
// shift or a long task, Settle at most, as the largest paint and the
// shifts go on after load; all of it within the step's time but a
// reserve for describing the elements and answering, the larger with a
// trace to stream.
const (
	Quiet        = 500 * time.Millisecond
	Settle       = 3 * time.Second
	readReserve  = time.Second
	traceReserve = 5 * time.Second
	// defaultWait bounds a step without a deadline (tests).
	defaultWait = 30 * time.Second
)

// Measure loads p's page afresh when o.Load says so, and measures its
// top document.
func Measure(ctx context.Context, p *page.Page, o Options) (*Result, error) {
	p = p.Top()
	m := &measure{o: o}
	defer m.abandon(ctx)
	if o.Load {
		if err := m.load(ctx, p); err != nil {
			return nil, err
		}
	}
	raw, err := m.read(ctx, p)
	if err != nil {
		return nil, err
	}
	return m.result(ctx, p, raw)
}

// measure is one step's measuring: its trace while it runs, what the
// load left to undo, and the notes for the agent.
type measure struct {
	o     Options
	trace *capture.Trace
	notes []string
}

func (m *measure) note(format string, args ...any) {
	m.notes = append(m.notes, fmt.Sprintf(format, args...))
}

// abandon ends a trace the step did not save, as it failed.
func (m *measure) abandon(ctx context.Context) {
	if m.trace != nil {
		actx, cancel := xcontext.Detached(ctx, time.Second)
		defer cancel()
		m.trace.Abandon(actx)
	}
}

// load navigates to the page with the observers in place, and the cache
// off when cold, and returns once the document committed: the read
// waits for its load.
func (m *measure) load(ctx context.Context, p *page.Page) error {
	url := m.o.URL
	if url == "" {
		var err error
		if url, err = currentURL(ctx, p); err != nil {
			return err
		}
	}
	if m.o.Trace != "" {
		t, err := capture.StartTrace(ctx, p.S)
		if err != nil {
			return err
		}
		m.trace = t
	}
	src := "(" + strings.TrimSpace(observeJS) + ")(" + mustJSON(map[string]any{"key": stateKey, "types": loadTypes}) +
		")\n//# sourceURL=" + page.InternalScript
	added, err := proto.PageAddScriptToEvaluateOnNewDocument{Source: src, WorldName: page.WorldName}.Do(ctx, p.S)
	if err != nil {
		return fmt.Errorf("putting the observers in place: %w", err)
	}
	defer func() {
		rctx, cancel := xcontext.Detached(ctx, time.Second)
		defer cancel()
		_ = proto.PageRemoveScriptToEvaluateOnNewDocument{Identifier: added.Identifier}.Do(rctx, p.S)
	}()
	if m.o.Cold {
		restore, err := m.cold(ctx, p)
		if err != nil {
			return err
		}
		defer restore()
	}
	nav, err := page.Goto(ctx, p, url, page.WaitCommit)
	if err != nil {
		return err
	}
	if nav.Download {
		return &page.NavigationError{URL: url, ErrorText: "the server sent it as a file to download (Chrome saved it), not a page to measure"}
	}
	if nav.Status >= 400 {
		m.note("the server answered %d", nav.Status)
	}
	return nil
}

// currentURL is the URL of the page the tab shows, for a load of it
// afresh.
func currentURL(ctx context.Context, p *page.Page) (string, error) {
	url, err := page.TargetURL(ctx, p)
	if err != nil {
		return "", err
	}
	if !strings.HasPrefix(url, "http:") && !strings.HasPrefix(url, "https:") && !strings.HasPrefix(url, "file:") {
		return "", &NoPageError{URL: url}
	}
	return url, nil
}

// NoPageError is a load of the current page when the tab shows none.
type NoPageError struct{ URL string }

func (e *NoPageError) Error() string {
	return fmt.Sprintf(`the tab shows %s, no page to load again: give the page's "url"`, e.URL)
}

// ErrorName is the SPEC 16.2 subtype the runner reports.
func (e *NoPageError) ErrorName() string { return "StepValidationError" }

// cold turns the HTTP cache and service workers off on p's session for
// the load; restore turns them back to what the tab's emulation says.
func (m *measure) cold(ctx context.Context, p *page.Page) (restore func(), err error) {
	err = errors.Join(proto.NetworkEnable{}.Do(ctx, p.S),
		proto.NetworkSetCacheDisabled{CacheDisabled: true}.Do(ctx, p.S),
		proto.NetworkSetBypassServiceWorker{Bypass: true}.Do(ctx, p.S))
	restore = func() {
		rctx, cancel := xcontext.Detached(ctx, time.Second)
		defer cancel()
		_ = proto.NetworkSetCacheDisabled{CacheDisabled: m.o.CacheOff}.Do(rctx, p.S)
		_ = proto.NetworkSetBypassServiceWorker{Bypass: false}.Do(rctx, p.S)
	}
	if err != nil {
		restore()
		return nil, fmt.Errorf("turning the cache off: %w", err)
	}
	return restore, nil
}

// readIn is what read.js takes.
type readIn struct {
	Key     string `json:"key"`
	HeldKey string `json:"heldKey"`
	Held    string `json:"held"`
	Wait    int64  `json:"wait"`
	Quiet   int64  `json:"quiet"`
	Settle  int64  `json:"settle"`
}

// read measures p's document once it loaded, or its time for loading
// ran out, and the page went quiet.
func (m *measure) read(ctx context.Context, p *page.Page) (*readOut, error) {
	left := defaultWait
	if end, ok := ctx.Deadline(); ok {
		left = time.Until(end)
	}
	reserve := readReserve
	if m.trace != nil {
		reserve += traceReserve
	}
	wait := max(left-min(reserve, left/2), 0)
	in := readIn{Key: stateKey, HeldKey: aria.HeldKey, Held: page.Token(),
		Wait: wait.Milliseconds(), Quiet: Quiet.Milliseconds(), Settle: Settle.Milliseconds()}
	var out readOut
	if err := p.CallJS(ctx, readJS, &out, in); err != nil {
		return nil, fmt.Errorf("reading the page's timings: %w", err)
	}
	out.held = in.Held
	if !out.Loaded {
		m.note(`the page had not fired its load event %.1f s into its load: the figures are what it had by then (a longer "timeout" waits longer)`,
			out.At/1000)
	}
	return &out, nil
}

func mustJSON(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(data)
}

// ms rounds a time in milliseconds.
func ms(v float64) int { return int(math.Round(v)) }

// WatchInteractions has p's top document keep the timings of its
// interactions from now on, down to 16 ms (Chrome keeps only those of
// 104 ms and over for a reader that comes later), for a later Measure
// to compute INP from.
func WatchInteractions(ctx context.Context, p *page.Page) error {
	return p.Top().CallJS(ctx, observeJS, nil, map[string]any{"key": stateKey, "types": []string{"event"}})
}
