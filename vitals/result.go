package vitals

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/aria"
	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/page"
)

// Result is what the step answers: the figures in ms (CLS a score), each
// rated as web.dev rates it, the elements behind them, and the requests.
type Result struct {
	URL  string `json:"url"`
	Cold bool   `json:"cold,omitempty"`
	// Emulated names the emulation in force (page.Emulation.Summary),
	// which the figures are under; the runner sets it.
	Emulated  string     `json:"emulated,omitempty"`
	TTFB      *Timing    `json:"ttfb,omitempty"`
	FCP       *Timing    `json:"fcp,omitempty"`
	LCP       *LCP       `json:"lcp,omitempty"`
	CLS       *CLS       `json:"cls,omitempty"`
	TBT       *Timing    `json:"tbt,omitempty"`
	LongTasks *LongTasks `json:"longTasks,omitempty"`
	INP       *INP       `json:"inp,omitempty"`
	// DOMContentLoaded and Load are when those events fired; absent when
	// they had not.
	DOMContentLoaded int                     `json:"domContentLoaded,omitempty"`
	Load             int                     `json:"load,omitempty"`
	Requests         *capture.RequestSummary `json:"requests,omitempty"`
	// Slowest and Largest are the five slowest and largest requests, a
	// line each.
	Slowest []string   `json:"slowest,omitempty"`
	Largest []string   `json:"largest,omitempty"`
	Trace   *TraceFile `json:"trace,omitempty"`

	// Notes are what the agent is told beside the figures: what could
	// not be measured, and why.
	Notes []string `json:"-"`
	// LastSnapshot and LastElement are the ref counters after the refs
	// the step handed out, for the tab registry.
	LastSnapshot int `json:"-"`
	LastElement  int `json:"-"`
}

// StepWarning is the notes, for the step's warning.
func (r *Result) StepWarning() string { return strings.Join(r.Notes, "; ") }

// Timing is a figure in ms and its rating.
type Timing struct {
	Ms     int    `json:"ms"`
	Rating string `json:"rating"`
}

// LCP is the largest contentful paint: when, and what.
type LCP struct {
	Ms      int      `json:"ms"`
	Rating  string   `json:"rating"`
	Element *Element `json:"element,omitempty"`
	// Phases split an image's time as web.dev does: the server's answer,
	// the wait before the image was asked for, its download, the wait to
	// paint it. The one that stands out is what to work on.
	Phases *Phases `json:"phases,omitempty"`
}

// Phases are an image LCP's parts, in ms; they add up to its time.
type Phases struct {
	TTFB        int `json:"ttfb"`
	LoadDelay   int `json:"loadDelay"`
	LoadTime    int `json:"loadTime"`
	RenderDelay int `json:"renderDelay"`
}

// Element is an element behind a figure: its ref and snapshot line, and
// for the largest paint what it is (text, image, background image,
// video) and the image's address. Gone: it left the page since.
type Element struct {
	Ref  string `json:"ref,omitempty"`
	Line string `json:"line,omitempty"`
	Kind string `json:"kind,omitempty"`
	URL  string `json:"url,omitempty"`
	Gone bool   `json:"gone,omitempty"`
}

// CLS is the cumulative layout shift (web.dev's largest session window)
// and the elements that moved most in it, each with the score of the
// shifts it moved in.
type CLS struct {
	Value  float64  `json:"value"`
	Rating string   `json:"rating"`
	Shifts []*Shift `json:"shifts,omitempty"`
}

// Shift is an element that moved.
type Shift struct {
	Ref   string  `json:"ref,omitempty"`
	Line  string  `json:"line"`
	Value float64 `json:"value"`
}

// LongTasks are the main thread's tasks over 50 ms, and the scripts that
// ran longest in them ("/app.js 420ms").
type LongTasks struct {
	Count     int      `json:"count"`
	LongestMs int      `json:"longestMs,omitempty"`
	Scripts   []string `json:"scripts,omitempty"`
}

// INP is the interaction to next paint of the interactions the document
// had: Ms, or, when Chrome kept none of them, Under: each was quicker.
type INP struct {
	Ms           int      `json:"ms,omitempty"`
	Under        int      `json:"under,omitempty"`
	Rating       string   `json:"rating"`
	Interactions int      `json:"interactions"`
	Element      *Element `json:"element,omitempty"`
}

// TraceFile is the trace written.
type TraceFile struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
}

// The ratings, as web.dev names them.
const (
	Good             = "good"
	NeedsImprovement = "needs improvement"
	Poor             = "poor"
)

// limits are a figure's thresholds: good up to good, poor above poor.
type limits struct{ good, poor float64 }

// web.dev's thresholds (TBT's are Lighthouse's, a lab figure).
var (
	ttfbLimits = limits{800, 1800}
	fcpLimits  = limits{1800, 3000}
	lcpLimits  = limits{2500, 4000}
	clsLimits  = limits{0.1, 0.25}
	tbtLimits  = limits{200, 600}
	inpLimits  = limits{200, 500}
)

func rate(v float64, l limits) string {
	switch {
	case v <= l.good:
		return Good
	case v <= l.poor:
		return NeedsImprovement
	}
	return Poor
}

func timing(v float64, l limits) *Timing { return &Timing{Ms: ms(v), Rating: rate(v, l)} }

// readOut is what read.js returns; El are indexes into the elements it
// held.
type readOut struct {
	URL        string   `json:"url"`
	TimeOrigin float64  `json:"timeOrigin"`
	Loaded     bool     `json:"loaded"`
	At         float64  `json:"at"`   // when it read, ms into the load
	Held       int      `json:"held"` // how many elements wait for aria.Describe
	TTFB       *float64 `json:"ttfb"`
	FCP        *float64 `json:"fcp"`
	DCL        float64  `json:"dcl"`
	Load       float64  `json:"load"`
	LCP        *struct {
		Ms     float64 `json:"ms"`
		Kind   string  `json:"kind"`
		URL    string  `json:"url"`
		El     *int    `json:"el"`
		Phases *struct {
			TTFB        float64 `json:"ttfb"`
			LoadDelay   float64 `json:"loadDelay"`
			LoadTime    float64 `json:"loadTime"`
			RenderDelay float64 `json:"renderDelay"`
		} `json:"phases"`
	} `json:"lcp"`
	CLS struct {
		Value  float64 `json:"value"`
		Shifts []struct {
			Value float64 `json:"value"`
			El    *int    `json:"el"`
		} `json:"shifts"`
	} `json:"cls"`
	Tasks struct {
		Count   int     `json:"count"`
		Longest float64 `json:"longest"`
		TBT     float64 `json:"tbt"`
		Scripts []struct {
			Src string  `json:"src"`
			Ms  float64 `json:"ms"`
		} `json:"scripts"`
	} `json:"tasks"`
	INP *struct {
		Ms           float64 `json:"ms"`
		Under        int     `json:"under"`
		Interactions int     `json:"interactions"`
		El           *int    `json:"el"`
	} `json:"inp"`

	held string // the token the elements wait under
}

// result turns what read.js measured into the step's answer: the
// elements described, the trace saved, the requests summed up.
func (m *measure) result(ctx context.Context, p *page.Page, raw *readOut) (*Result, error) {
	res := &Result{URL: raw.URL, Cold: m.o.Cold && m.o.Load, DOMContentLoaded: ms(raw.DCL), Load: ms(raw.Load),
		LastSnapshot: m.o.SnapshotFloor, LastElement: m.o.ElementFloor}
	if m.trace != nil {
		m.saveTrace(ctx, res)
	}
	d := &aria.DescribeResult{}
	if raw.Held > 0 {
		var err error
		if d, err = aria.Describe(ctx, p, aria.DescribeRequest{Held: raw.held, SnapshotFloor: m.o.SnapshotFloor, ElementFloor: m.o.ElementFloor}); err != nil {
			return nil, err
		}
		res.LastSnapshot, res.LastElement = max(res.LastSnapshot, d.LastSnapshot), max(res.LastElement, d.LastElement)
	}
	el := func(i *int) *Element {
		if i == nil || *i >= len(d.Items) {
			return nil
		}
		if it := d.Items[*i]; it != nil {
			return &Element{Ref: it.Ref, Line: it.Line}
		}
		return &Element{Gone: true}
	}
	origin := originOf(raw.URL)
	m.figures(res, raw, el, origin)
	m.requests(ctx, res, raw, origin)
	res.Notes = m.notes
	return res, nil
}

// figures fills in the page's figures and their elements.
func (m *measure) figures(res *Result, raw *readOut, el func(*int) *Element, origin string) {
	if raw.TTFB != nil {
		res.TTFB = timing(*raw.TTFB, ttfbLimits)
	}
	if raw.FCP != nil {
		res.FCP = timing(*raw.FCP, fcpLimits)
	} else {
		m.note("the page painted no content yet: no FCP or LCP")
	}
	if l := raw.LCP; l != nil {
		t := timing(l.Ms, lcpLimits)
		res.LCP = &LCP{Ms: t.Ms, Rating: t.Rating, Element: el(l.El)}
		if res.LCP.Element == nil {
			res.LCP.Element = &Element{}
		}
		res.LCP.Element.Kind, res.LCP.Element.URL = l.Kind, shortURL(l.URL, origin)
		if ph := l.Phases; ph != nil {
			res.LCP.Phases = &Phases{TTFB: ms(ph.TTFB), LoadDelay: ms(ph.LoadDelay), LoadTime: ms(ph.LoadTime), RenderDelay: ms(ph.RenderDelay)}
		}
	}
	res.CLS = &CLS{Value: score(raw.CLS.Value), Rating: rate(raw.CLS.Value, clsLimits)}
	for _, s := range raw.CLS.Shifts {
		if e := el(s.El); e != nil && !e.Gone {
			res.CLS.Shifts = append(res.CLS.Shifts, &Shift{Ref: e.Ref, Line: e.Line, Value: score(s.Value)})
		}
	}
	t := raw.Tasks
	res.TBT = timing(t.TBT, tbtLimits)
	res.LongTasks = &LongTasks{Count: t.Count, LongestMs: ms(t.Longest)}
	for _, s := range t.Scripts {
		res.LongTasks.Scripts = append(res.LongTasks.Scripts, fmt.Sprintf("%s %dms", shortURL(s.Src, origin), ms(s.Ms)))
	}
	if in := raw.INP; in != nil {
		res.INP = &INP{Interactions: in.Interactions, Element: el(in.El)}
		if in.Under > 0 {
			res.INP.Under, res.INP.Rating = in.Under, Good
		} else {
			res.INP.Ms, res.INP.Rating = ms(in.Ms), rate(in.Ms, inpLimits)
		}
	}
}

// topRequests is how many of the slowest and the largest are listed.
const topRequests = 5

// requests sums up the document's requests and lists the slowest and
// largest.
func (m *measure) requests(ctx context.Context, res *Result, raw *readOut, origin string) {
	if m.o.Requests == nil {
		return
	}
	all, err := m.o.Requests(ctx)
	if err != nil {
		m.note("no requests: the tab's network log could not be read: %v", err)
		return
	}
	reqs := capture.DocumentRequests(all, raw.TimeOrigin)
	res.Requests = capture.SummarizeRequests(reqs)
	now := time.Now().UnixMilli()
	res.Slowest = capture.TopRequests(reqs, capture.SortSlowest, topRequests, raw.URL, now)
	res.Largest = capture.TopRequests(reqs, capture.SortLargest, topRequests, raw.URL, now)
}

// saveTrace writes the trace where the agent asked.
func (m *measure) saveTrace(ctx context.Context, res *Result) {
	t := m.trace
	m.trace = nil
	saved, err := t.Save(ctx, m.o.Temp, m.o.Trace)
	if err != nil {
		m.note("no trace: %v", err)
		return
	}
	if saved.Full {
		m.note("Chrome's trace buffer (%d MB) filled, so the trace misses what came after", capture.TraceBufferKB>>10)
	}
	res.Trace = &TraceFile{Path: m.o.Trace}
	if fi, err := os.Stat(m.o.Trace); err == nil {
		res.Trace.Size = fi.Size()
	}
}

// score rounds a layout shift score to three places.
func score(v float64) float64 { return math.Round(v*1000) / 1000 }

// shortURL is u by its path when it is on origin, cut to its start when
// long (a data: URL).
func shortURL(u, origin string) string {
	if origin != "" && strings.HasPrefix(u, origin+"/") {
		u = u[len(origin):]
	}
	const most = 120
	if len(u) > most {
		u = u[:most] + "…"
	}
	return u
}

func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}
