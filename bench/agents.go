package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/cdpskill/cdpskill/internal/xcontext"
)

// Parallel agents: n agents at once, each making calls on its own tab
// with the agent's pause before each call, all sharing one TMPDIR (so one
// tab registry, as agents on one machine do). Every agent makes the
// same call; the lone agent (n = 1) is the baseline the others' per-call
// median is compared with. The calls are made in chunks, the agent
// counts taking turns chunk by chunk, so that a noisy minute of a shared
// machine falls on all of them alike.
//
// Two kinds of call are measured so. A pageFunction read: each chunk
// starts on a quiet machine (awaitQuiet), the agents' starts spread over
// one pause. A click with its whole report, as agents mostly call: the
// agents start together and each pause is jittered, so their calls
// collide as agents' do, and only the lone agent's chunks start on a
// quiet machine (the baseline is a click on its own); the others start
// on whatever the last chunk left.
//
// The floor of n agents is n sessions over the bench's one websocket,
// each doing the call's floor with the same pauses.

const agentChunk = 10 // calls per agent per turn

// agentCounts are the parallel scenarios of each kind; 1 is the lone
// agent.
var agentCounts = []int{1, 4, 8}

// agentKind is what the agents of a set of parallel scenarios do.
type agentKind struct {
	// label tells the kind's scenarios and tabs from the others'.
	label string
	steps string // each call's
	page  string // the fixture page of every agent's tab
	floor floor
	// busy: the agents start together and pause 2/3 to 2 × -pause,
	// drawn at each call, and only the lone agent's chunks wait for a
	// quiet machine.
	busy bool
	// xLone is the target of the most agents: their median at most
	// xLone × the lone agent's.
	xLone float64
}

var agentKinds = []agentKind{
	{steps: `{"pageFunction":"document.title"}`, page: "/small.html",
		floor: evalFloor("document.title"), xLone: 1.5},
	{label: "click", steps: `{"click":"#sub"}`, page: "/small.html",
		floor: clickFloor("#sub"), busy: true, xLone: 2.5},
}

// name is the scenario of n agents of the kind: agents-8, agents-8-click.
func (k agentKind) name(n int) string {
	s := fmt.Sprintf("agents-%d", n)
	if k.label != "" {
		s += "-" + k.label
	}
	if n == 1 {
		s += " (lone)"
	}
	return s
}

// site is the site of agent i's tab; floor- is prefixed for its floor's.
func (k agentKind) site(i int) string {
	if k.label == "" {
		return fmt.Sprintf("agent-%d", i)
	}
	return fmt.Sprintf("agent-%s-%d", k.label, i)
}

// runAgents measures the counts given (1 among them) of the kind with
// calls calls per agent; results come in the counts' order. Chrome's CPU
// time is read around each chunk of calls, from its start to the
// machine's quiet after it.
func (h *harness) runAgents(ctx context.Context, kind agentKind, counts []int, calls int) ([]result, error) {
	most := slices.Max(counts)
	tabs := make([]string, most)
	floors := make([]*floorTab, most)
	// Every tab is closed at the end, the CLI's too: Chrome's work for
	// each call grows with the tabs open (a browser websocket's close
	// sets every renderer to work), so one kind's tabs must not weigh on
	// the next kind's figures.
	defer func() {
		for _, f := range floors {
			if f != nil {
				f.close()
			}
		}
		for _, t := range tabs {
			if t != "" && ctx.Err() == nil {
				h.cli.must(ctx, fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, t))
			}
		}
	}()
	for i := range most {
		var err error
		if tabs[i], err = h.cli.openTab(ctx, h.addr, h.url(kind.site(i), kind.page)); err != nil {
			return nil, err
		}
		// The first call on a tab is not the agent's usual one.
		if _, err := h.cli.must(ctx, onTab(tabs[i], kind.steps)); err != nil {
			return nil, err
		}
		fctx, cancel := context.WithTimeout(ctx, floorLimit)
		floors[i], err = newFloorTab(fctx, h.conn, h.url("floor-"+kind.site(i), kind.page))
		cancel()
		if err != nil {
			return nil, err
		}
	}
	if !h.restChrome(ctx) {
		return nil, ctx.Err()
	}
	got := make(map[int]*measured, len(counts))
	for _, n := range counts {
		got[n] = &measured{}
	}
	for done := 0; done < calls; done += agentChunk {
		k := min(agentChunk, calls-done)
		for _, n := range counts {
			h.progress("%s: calls %d-%d of %d", kind.name(n), done+1, done+k, calls)
			if (!kind.busy || n == 1) && !awaitQuiet(ctx) {
				return nil, ctx.Err()
			}
			m := got[n]
			c0 := h.chrome.cpuNow()
			ss := h.agentCalls(ctx, kind, tabs[:n], k)
			m.calls = append(m.calls, ss...)
			end := h.chrome.cpuNow() // the others' share: while the calls ran
			if !awaitQuiet(ctx) {
				return nil, ctx.Err()
			}
			c1 := h.chrome.cpuNow()
			m.addWindow(c0, end)
			if c0.chromeOK && c1.chromeOK {
				m.addChrome(c1.chrome-c0.chrome, len(ss))
			}
			h.agentFloors(ctx, kind, floors[:n], k, m)
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
		}
	}
	lone := summarize(okDurations(got[1].calls)).median
	var rs []result
	for _, n := range counts {
		t := target{noError: true, maxRSS: maxRSSKB}
		if n == slices.Max(agentCounts) {
			t.xLone = kind.xLone
		}
		base := lone
		if n == 1 {
			base = 0
		}
		rs = append(rs, judge(kind.name(n), *got[n], t, base))
	}
	return rs, nil
}

// agentCalls runs k calls on each tab at once, one agent per tab.
func (h *harness) agentCalls(ctx context.Context, kind agentKind, tabs []string, k int) []sample {
	var mu sync.Mutex
	var all []sample
	h.asAgents(ctx, len(tabs), k, kind.busy, func(i int) {
		s, _ := h.cli.call(ctx, onTab(tabs[i], kind.steps))
		mu.Lock()
		all = append(all, s)
		mu.Unlock()
	})
	return all
}

// agentFloors is agentCalls' floor, recorded in m.
func (h *harness) agentFloors(ctx context.Context, kind agentKind, tabs []*floorTab, k int, m *measured) {
	var mu sync.Mutex
	h.asAgents(ctx, len(tabs), k, kind.busy, func(i int) {
		d, err := h.timeFloor(ctx, kind.floor, tabs[i])
		mu.Lock()
		m.addFloor(d, err)
		mu.Unlock()
	})
}

// asAgents runs n agents at once, each doing its turn k times after an
// agent's pause, until ctx ends. Agents are not in step: each starts at
// its own point of the pause, spread evenly; or, jittered, all start
// together and each pause is drawn anew from 2/3 to 2 × the pause.
func (h *harness) asAgents(ctx context.Context, n, k int, jittered bool, turn func(agent int)) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if !jittered && xcontext.Sleep(ctx, h.pause*time.Duration(i)/time.Duration(n)) != nil {
				return
			}
			for range k {
				pause := h.pause
				if jittered && pause > 0 {
					pause = pause*2/3 + rand.N(pause*4/3)
				}
				if xcontext.Sleep(ctx, pause) != nil {
					return
				}
				turn(i)
			}
		})
	}
	wg.Wait()
}

func okDurations(ss []sample) []time.Duration {
	var ds []time.Duration
	for _, s := range ss {
		if s.err == nil {
			ds = append(ds, s.dur)
		}
	}
	return ds
}
