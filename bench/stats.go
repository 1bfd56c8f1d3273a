package main

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// stats sums up a list of durations.
type stats struct {
	n                     int
	median, p90, min, max time.Duration
}

func summarize(ds []time.Duration) stats {
	if len(ds) == 0 {
		return stats{}
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	// p90: the nearest rank, the least duration 90% of the list are not
	// above.
	p90 := s[(len(s)*9+9)/10-1]
	return stats{n: len(s), median: m, p90: p90, min: s[0], max: s[len(s)-1]}
}

// medianInt is the median of ints (the lower middle one: a byte count
// that was printed).
func medianInt(xs []int) int {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[(len(s)-1)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// target is what a scenario's median must meet; zero fields ask nothing.
type target struct {
	ms      float64 // median ≤ ms
	xFloor  float64 // median ≤ xFloor × the floor's median
	xLone   float64 // median ≤ xLone × a lone agent's median
	maxRSS  int64   // every call's peak RSS ≤ maxRSS KB
	noError bool    // every call succeeded
}

func (t target) String() string {
	var parts []string
	if t.ms > 0 {
		parts = append(parts, fmt.Sprintf("≤%gms", t.ms))
	}
	if t.xFloor > 0 {
		parts = append(parts, fmt.Sprintf("≤%g×floor", t.xFloor))
	}
	if t.xLone > 0 {
		parts = append(parts, fmt.Sprintf("≤%g×lone", t.xLone))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}

// result is one scenario's line of the report, and its JSON line.
type result struct {
	Scenario string  `json:"scenario"`
	Calls    int     `json:"calls"`
	MedianMS float64 `json:"medianMs"`
	MinMS    float64 `json:"minMs"`
	MaxMS    float64 `json:"maxMs"`
	P90MS    float64 `json:"p90Ms"`
	// CLICPUMS is the median of a call's process's user and system CPU
	// time. ChromeCPUMS is the CPU time Chrome's processes spent per
	// call (chromeMeter): the calls are taken in chunks of chromeChunk,
	// each chunk's time divided by its calls, and the median chunk's
	// figure given, so that a burst of Chrome's own (a collection of
	// garbage, the leftovers of opening tabs) sways one chunk only.
	CLICPUMS    float64 `json:"cliCpuMs,omitempty"`
	ChromeCPUMS float64 `json:"chromeCpuMs,omitempty"`
	// OthersCores is how many of the machine's cores other work kept
	// busy, on average, while the calls ran: on a shared machine, what
	// the figures were measured against.
	OthersCores float64 `json:"othersCores"`
	FloorMS     float64 `json:"floorMs,omitempty"`
	// FloorMinMS: on a shared machine the least time is the better
	// measure of the work itself.
	FloorMinMS float64 `json:"floorMinMs,omitempty"`
	XFloor     float64 `json:"xFloor,omitempty"`
	// LoneMS is a lone agent's median of the same call (parallel
	// scenarios).
	LoneMS float64 `json:"loneMs,omitempty"`
	XLone  float64 `json:"xLone,omitempty"`
	Bytes  int     `json:"stdoutBytes"`
	RSSKB  int64   `json:"peakRssKb"`
	// RSSUpperBound: some call's peak RSS could not be told from the
	// spawner's own (spawn.go), so PeakRSSKB may be above the truth.
	RSSUpperBound bool `json:"rssUpperBound,omitempty"`
	Errors        int  `json:"errors"`
	// FirstError is the first failed call's error, so a miss can be
	// followed up.
	FirstError string   `json:"firstError,omitempty"`
	Target     string   `json:"target"`
	Met        bool     `json:"met"`
	Misses     []string `json:"misses,omitempty"`
}

// measured is what a scenario collected: the CLI's calls and the floor's.
type measured struct {
	calls []sample
	floor []time.Duration
	// floorErr is the first error of the floor; a failing floor has no
	// figure.
	floorErr error
	// chrome is Chrome's CPU time per call, one figure per chunk of
	// calls; chromeSum and chromeN gather the chunk under way, call by
	// call.
	chrome    []time.Duration
	chromeSum time.Duration
	chromeN   int
	// others is the CPU time the machine spent on work not the bench's
	// (the other users of a shared machine) over the windows the calls
	// ran in, window their length.
	others, window time.Duration
}

// cpuMark is a reading of the CPU time spent so far (chromeMeter.cpuNow):
// Chrome's, the bench's own processes' (Chrome's among them) and the
// machine's.
type cpuMark struct {
	at                   time.Time
	chrome, own, machine time.Duration
	chromeOK, machineOK  bool
}

// addWindow records the others' CPU time between two readings.
func (m *measured) addWindow(a, b cpuMark) {
	if a.machineOK && b.machineOK && b.at.After(a.at) {
		m.others += max(0, (b.machine-a.machine)-(b.own-a.own))
		m.window += b.at.Sub(a.at)
	}
}

// chromeChunk is the calls of a chunk of Chrome's CPU time.
const chromeChunk = 10

// addChrome records Chrome's CPU time over a chunk of calls.
func (m *measured) addChrome(d time.Duration, calls int) {
	if calls > 0 {
		m.chrome = append(m.chrome, d/time.Duration(calls))
	}
}

// gatherChrome records Chrome's CPU time over one call, and the chunk
// once it has chromeChunk; flushChrome records a last, shorter one.
func (m *measured) gatherChrome(d time.Duration) {
	m.chromeSum += d
	m.chromeN++
	if m.chromeN == chromeChunk {
		m.flushChrome()
	}
}

func (m *measured) flushChrome() {
	m.addChrome(m.chromeSum, m.chromeN)
	m.chromeSum, m.chromeN = 0, 0
}

// addFloor records one run of the floor.
func (m *measured) addFloor(d time.Duration, err error) {
	switch {
	case err == nil:
		m.floor = append(m.floor, d)
	case m.floorErr == nil:
		m.floorErr = err
	}
}

// judge turns the measurements into the report's line, checking t; lone
// is a lone agent's median, for parallel scenarios.
func judge(name string, m measured, t target, lone time.Duration) result {
	ds := make([]time.Duration, 0, len(m.calls))
	cpus := make([]time.Duration, 0, len(m.calls))
	sizes := make([]int, 0, len(m.calls))
	r := result{Scenario: name, Target: t.String()}
	for _, s := range m.calls {
		if s.err != nil {
			r.Errors++
			if r.FirstError == "" {
				r.FirstError = s.err.Error()
			}
			continue
		}
		ds = append(ds, s.dur)
		cpus = append(cpus, s.cpu)
		sizes = append(sizes, s.bytes)
		r.RSSKB = max(r.RSSKB, s.rssKB)
		r.RSSUpperBound = r.RSSUpperBound || s.rssUnsure
	}
	st := summarize(ds)
	r.Calls = len(m.calls)
	r.MedianMS, r.P90MS, r.MinMS, r.MaxMS = ms(st.median), ms(st.p90), ms(st.min), ms(st.max)
	r.CLICPUMS = ms(summarize(cpus).median)
	r.ChromeCPUMS = ms(summarize(m.chrome).median)
	if m.window > 0 {
		r.OthersCores = round2(float64(m.others) / float64(m.window))
	}
	r.Bytes = medianInt(sizes)
	if m.floorErr == nil && len(m.floor) > 0 {
		fs := summarize(m.floor)
		r.FloorMS, r.FloorMinMS = ms(fs.median), ms(fs.min)
		if r.FloorMS > 0 {
			r.XFloor = round2(r.MedianMS / r.FloorMS)
		}
	}
	if lone > 0 {
		r.LoneMS = ms(lone)
		r.XLone = round2(r.MedianMS / r.LoneMS)
	}
	miss := func(format string, a ...any) { r.Misses = append(r.Misses, fmt.Sprintf(format, a...)) }
	switch {
	case st.n == 0:
		miss("no call succeeded")
	default:
		if t.ms > 0 && r.MedianMS > t.ms {
			miss("median %.1f ms > %g ms", r.MedianMS, t.ms)
		}
		if t.xFloor > 0 {
			if r.FloorMS == 0 {
				miss("no floor to compare with (%v)", m.floorErr)
			} else if r.XFloor > t.xFloor {
				miss("median %.2f× the floor > %g×", r.XFloor, t.xFloor)
			}
		}
		if t.xLone > 0 && r.LoneMS > 0 && r.XLone > t.xLone {
			miss("median %.2f× a lone agent's > %g×", r.XLone, t.xLone)
		}
	}
	if t.noError && r.Errors > 0 {
		miss("%d of %d calls failed: %s", r.Errors, r.Calls, r.FirstError)
	}
	if t.maxRSS > 0 && r.RSSKB > t.maxRSS {
		miss("peak RSS %.1f MB > %g MB", mb(r.RSSKB), mb(t.maxRSS))
	}
	r.Met = len(r.Misses) == 0
	return r
}

func round2(x float64) float64 { return float64(int64(x*100+0.5)) / 100 }

func mb(kb int64) float64 { return float64(kb) / 1024 }
