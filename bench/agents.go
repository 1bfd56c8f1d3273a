package main

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/cdpskill/cdpskill/internal/xcontext"
)

// Parallel agents: n agents at once, each making calls on its own tab
// with the agent's pause before each call, all sharing one TMPDIR (so one
// tab registry, as agents on one machine do). Every agent makes the
// same call, a pageFunction read; the lone agent (n = 1) is the baseline
// the others' per-call median is compared with. The calls are made in
// chunks, the agent counts taking turns chunk by chunk, so that a noisy
// minute of a shared machine falls on all of them alike; each chunk
// starts on a quiet machine (awaitQuiet).
//
// The floor of n agents is n sessions over the bench's one websocket,
// each making the same Runtime.evaluate with the same pause.

const (
	agentSteps = `{"pageFunction":"document.title"}`
	agentExpr  = "document.title"
	agentPage  = "/small.html"
	agentChunk = 10 // calls per agent per turn
)

// agentCounts are the parallel scenarios; 1 is the lone agent.
var agentCounts = []int{1, 4, 8}

func agentName(n int) string {
	if n == 1 {
		return "agents-1 (lone)"
	}
	return fmt.Sprintf("agents-%d", n)
}

// runAgents measures the counts given (1 among them) with calls calls per
// agent; results come in the counts' order.
func (h *harness) runAgents(ctx context.Context, counts []int, calls int) ([]result, error) {
	most := slices.Max(counts)
	tabs := make([]string, most)
	floors := make([]*floorTab, most)
	defer func() {
		for _, f := range floors {
			if f != nil {
				f.close()
			}
		}
	}()
	for i := range most {
		var err error
		if tabs[i], err = h.cli.openTab(ctx, h.addr, h.url(fmt.Sprintf("agent-%d", i), agentPage)); err != nil {
			return nil, err
		}
		// The first call on a tab is not the agent's usual one.
		if _, err := h.cli.must(ctx, onTab(tabs[i], agentSteps)); err != nil {
			return nil, err
		}
		fctx, cancel := context.WithTimeout(ctx, floorLimit)
		floors[i], err = newFloorTab(fctx, h.conn, h.url(fmt.Sprintf("floor-agent-%d", i), agentPage))
		cancel()
		if err != nil {
			return nil, err
		}
	}
	got := make(map[int]*measured, len(counts))
	for _, n := range counts {
		got[n] = &measured{}
	}
	for done := 0; done < calls; done += agentChunk {
		k := min(agentChunk, calls-done)
		for _, n := range counts {
			h.progress("agents: %d at once, calls %d-%d of %d", n, done+1, done+k, calls)
			if !awaitQuiet(ctx) {
				return nil, ctx.Err()
			}
			m := got[n]
			m.calls = append(m.calls, h.agentCalls(ctx, tabs[:n], k)...)
			if !awaitQuiet(ctx) {
				return nil, ctx.Err()
			}
			h.agentFloors(ctx, floors[:n], k, m)
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
		}
	}
	lone := summarize(okDurations(got[1].calls)).median
	var rs []result
	for _, n := range counts {
		t := target{noError: true, maxRSS: maxRSSKB}
		if n == 8 {
			t.xLone = 1.5
		}
		base := lone
		if n == 1 {
			base = 0
		}
		rs = append(rs, judge(agentName(n), *got[n], t, base))
	}
	return rs, nil
}

// agentCalls runs k calls on each tab at once, one agent per tab.
func (h *harness) agentCalls(ctx context.Context, tabs []string, k int) []sample {
	var mu sync.Mutex
	var all []sample
	h.asAgents(ctx, len(tabs), k, func(i int) {
		s, _ := h.cli.call(ctx, onTab(tabs[i], agentSteps))
		mu.Lock()
		all = append(all, s)
		mu.Unlock()
	})
	return all
}

// agentFloors is agentCalls' floor, recorded in m.
func (h *harness) agentFloors(ctx context.Context, tabs []*floorTab, k int, m *measured) {
	var mu sync.Mutex
	h.asAgents(ctx, len(tabs), k, func(i int) {
		d, err := h.timeFloor(ctx, evalFloor(agentExpr), tabs[i])
		mu.Lock()
		m.addFloor(d, err)
		mu.Unlock()
	})
}

// asAgents runs n agents at once, each doing its turn k times after an
// agent's pause, until ctx ends. Agents are not in step: each starts at
// its own point of the pause, spread evenly.
func (h *harness) asAgents(ctx context.Context, n, k int, turn func(agent int)) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if xcontext.Sleep(ctx, h.pause*time.Duration(i)/time.Duration(n)) != nil {
				return
			}
			for range k {
				if !h.think(ctx) {
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
