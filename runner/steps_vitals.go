package runner

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/keeper"
	"github.com/cdpskill/cdpskill/vitals"
)

// vitalsSteps measure how the page loads.
var vitalsSteps = []step{
	defineFiles("vitals", `true | "url" | {url, cold, trace: "t.json"|true}`,
		"", needsTab, decodeVitals, runVitals).
		out(`{url, ttfb, fcp, lcp: {ms, rating, element}, cls: {value, rating, shifts}, tbt, longTasks, inp?, domContentLoaded, load, requests, slowest, largest, cold?, emulated?, trace?}`).
		also(`{"vitals":true}`, "webVitals", "coreWebVitals", "lighthouse", "performanceMetrics", "getMetrics", "pageSpeed", "measurePerformance", "lcp", "cls"),
}

// vitalsParams read the current page (none set), or load one afresh:
// URL, or the current page's when only cold or trace is given.
type vitalsParams struct {
	URL   string          `json:"url"`
	Cold  bool            `json:"cold"`
	Trace json.RawMessage `json:"trace"`

	trace recordPath
}

// navigates: these params load a page, which no diff spans.
func (p vitalsParams) navigates() bool { return p.URL != "" || p.Cold || p.trace.wanted() }

func decodeVitals(raw json.RawMessage, files capture.Files) (vitalsParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *vitalsParams) error {
		if s, ok := asString(raw); ok && s != "" {
			p.URL = s
			return nil
		}
		return trueOnly(raw, p)
	})
	if err != nil {
		return p, err
	}
	if p.URL != "" {
		if err := checkURL(p.URL); err != nil {
			return p, err
		}
	}
	p.trace, err = decodeRecordPath(files, "trace", p.Trace, ".json")
	return p, err
}

func runVitals(ctx context.Context, e *env, p vitalsParams) (output, error) {
	em := e.tab.Emulation
	o := vitals.Options{Load: p.navigates(), URL: p.URL, Cold: p.Cold, Trace: p.trace.path, Temp: e.files.Temp,
		CacheOff: em.Environment != nil && em.Environment.Cache != nil && !*em.Environment.Cache, Requests: e.tabRequests}
	if p.trace.auto {
		o.Trace = e.files.NextPath(e.alias(), "trace", "json")
	}
	o.SnapshotFloor, o.ElementFloor = e.tab.RefFloors()
	res, err := vitals.Measure(ctx, e.page(), o)
	if errors.Is(err, capture.ErrTraceBusy) {
		return output{}, e.traceBusy(ctx)
	}
	if err != nil {
		return output{}, err
	}
	e.tab.SaveRefCounters(res.LastSnapshot, res.LastElement)
	res.Emulated = em.Summary()
	return value(res, nil)
}

// tabRequests are the tab's requests: its log's, brought up to date, and
// this call's not in it yet.
func (e *env) tabRequests(ctx context.Context) ([]capture.Request, error) {
	nc, logged, err := e.savedNetwork(ctx)
	if err != nil {
		return nil, err
	}
	return nc.WithUnsaved(logged), nil
}

// traceBusy says who holds Chrome's one trace: a recording of cdpskill's,
// named, or another tool.
func (e *env) traceBusy(ctx context.Context) error {
	lctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if st := keeper.Look(lctx, e.files.Temp, e.tab.Browser.Endpoint); st != nil {
		for _, label := range st.Recording {
			if strings.Contains(label, "trace") {
				alias := label[:strings.IndexByte(label+" ", ' ')]
				alias = alias[strings.LastIndexByte(alias, '/')+1:]
				return newError(Execution, `Chrome records one trace at a time, and tab %s is recording one: stop it first ({"tab":%q,"steps":[{"record":"stop"}]}), or measure without "trace"`,
					label, alias)
			}
		}
	}
	return newError(Execution, `%v: end that trace, or measure without "trace"`, capture.ErrTraceBusy)
}

// watchBudget bounds putting the interaction observer in place: a
// courtesy to a later step, which must not hold the action up.
const watchBudget = 500 * time.Millisecond

// watchInteractions has the page keep the timings of its interactions
// down to 16 ms before step i, an action, when a vitals step comes later
// in the batch: Chrome keeps only those of 104 ms and over for a reader
// that comes after them.
func (c *Call) watchInteractions(ctx context.Context, req *request, i int) {
	ps := req.steps[i]
	if ps.def.verb == "" || ps.loads() || c.page() == nil || c.dead() ||
		!slices.ContainsFunc(req.steps[i+1:], func(s plannedStep) bool { return s.def.name == "vitals" }) {
		return
	}
	wctx, cancel := context.WithTimeout(ctx, watchBudget)
	defer cancel()
	_ = vitals.WatchInteractions(wctx, c.page())
}
