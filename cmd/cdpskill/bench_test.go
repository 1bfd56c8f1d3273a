package main

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
)

// benchCall runs the real binary once per iteration, as an agent would,
// and reports the median wall time of a whole process.
// agentPause is the least time between two calls of an agent.
const agentPause = 100 * time.Millisecond

func benchCall(b *testing.B, input func(tab string) string, setup string) {
	c := newCLI(b)
	tab := c.openTab(fixture.URL + "/hello.html")
	if setup != "" {
		c.run(fmt.Sprintf(`{"tab":%q,"steps":[%s]}`, tab, setup))
	}
	in := input(tab)
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		// An agent thinks between calls. Without that pause the renderer is
		// still tearing down the last call's DevTools session (on a page of
		// 6,000 elements that is some 40 ms of work) when the next one
		// attaches, a cost no agent sees.
		b.StopTimer()
		time.Sleep(agentPause)
		b.StartTimer()
		start := time.Now()
		out, err := c.cmd(context.Background(), in).Output()
		times = append(times, time.Since(start))
		if err != nil {
			b.Fatalf("%v: %s", err, out)
		}
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
}

func BenchmarkCallPageFunctionTitle(b *testing.B) {
	benchCall(b, func(tab string) string {
		return fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"document.title"}]}`, tab)
	}, "")
}

func BenchmarkCallGoto(b *testing.B) {
	benchCall(b, func(tab string) string {
		return fmt.Sprintf(`{"tab":%q,"steps":[{"goto":%q}]}`, tab, fixture.URL+"/hello.html")
	}, "")
}

// A click on a small page with the whole after-action report: settle,
// the screen before and after, changes, lean view, full snapshot file,
// screenshot. The click changes the page (a status line), as most do.
func BenchmarkCallClickReport(b *testing.B) {
	benchCall(b, func(tab string) string {
		return fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#sub"}]}`, tab)
	}, fmt.Sprintf(`{"goto":%q}`, fixture.URL+"/small.html"))
}
