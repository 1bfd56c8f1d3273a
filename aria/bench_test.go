package aria_test

import (
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/aria"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/testbrowser"
	"github.com/cdpskill/cdpskill/page"
)

// BenchmarkSnapshot times agent-facing snapshots of generated pages, the
// whole round trip: issue 3 asks ≤ 60 ms at 1,000 elements, ≤ 150 ms at
// 10,000 and ≤ 1 s at 50,000. The first iteration creates the refs; later
// ones reuse them, as an agent's repeated snapshots of one page do. The
// minimum is reported beside the median: on a shared machine it is the
// better measure of the code.
func BenchmarkSnapshot(b *testing.B) {
	for _, n := range []int{1000, 10000, 50000} {
		for _, detail := range []string{aria.DetailFull, aria.DetailInteractive} {
			b.Run(fmt.Sprintf("%d/%s", n, detail), func(b *testing.B) {
				p, got := generatedPage(b, n)
				var size int
				var times []time.Duration
				for b.Loop() {
					start := time.Now()
					res, err := aria.Snapshot(b.Context(), p, aria.Options{Root: "body", Detail: detail})
					if err != nil {
						b.Fatal(err)
					}
					times = append(times, time.Since(start))
					size = len(res.YAML)
				}
				b.ReportMetric(median(times), "median-ms")
				b.ReportMetric(ms(slices.Min(times)), "min-ms")
				b.ReportMetric(float64(size), "yaml-bytes")
				b.ReportMetric(float64(got), "elements")
			})
		}
	}
}

// BenchmarkSearch times a snapshotSearch over the whole 10,000-element
// page.
func BenchmarkSearch(b *testing.B) {
	p, _ := generatedPage(b, 10000)
	var times []time.Duration
	for b.Loop() {
		start := time.Now()
		if _, err := aria.Search(b.Context(), p, aria.SearchOptions{Text: "buy 42", Role: "button"}); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
	}
	b.ReportMetric(median(times), "median-ms")
	b.ReportMetric(ms(slices.Min(times)), "min-ms")
}

// generatedPage is a fresh tab on refs.html with n generated elements
// (testdata/generate.js), and how many it made.
func generatedPage(b *testing.B, n int) (*page.Page, int) {
	b.Helper()
	gen, err := os.ReadFile("testdata/generate.js")
	if err != nil {
		b.Fatal(err)
	}
	p := page.New(browser.NewTab(b))
	srv := testbrowser.Serve(b, "testdata")
	testbrowser.Navigate(b, p.S, srv.URL+"/refs.html")
	var made int
	if err := p.CallJS(b.Context(), string(gen), &made, n); err != nil {
		b.Fatal(err)
	}
	return p, made
}

func median(times []time.Duration) float64 {
	slices.Sort(times)
	return ms(times[len(times)/2])
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// BenchmarkMarks times finding the marks of an annotated screenshot of
// the viewport of the 1,000-element page (one evaluation: the walk, the
// refs and the boxes), beside the floor of the other way, a
// DOM.getBoxModel per element on screen, which would still need the walk
// for the refs.
func BenchmarkMarks(b *testing.B) {
	p, _ := generatedPage(b, 1000)
	var view [2]float64
	if err := p.CallJS(b.Context(), "() => [innerWidth, innerHeight]", &view); err != nil {
		b.Fatal(err)
	}
	opts := aria.MarksOptions{Clip: aria.Region{Width: view[0], Height: view[1]}}
	var n int
	b.Run("evaluation", func(b *testing.B) {
		var times []time.Duration
		for b.Loop() {
			start := time.Now()
			m, err := aria.TakeMarks(b.Context(), p, opts)
			if err != nil {
				b.Fatal(err)
			}
			times = append(times, time.Since(start))
			n = len(m.Marks)
		}
		b.ReportMetric(median(times), "median-ms")
		b.ReportMetric(ms(slices.Min(times)), "min-ms")
		b.ReportMetric(float64(n), "marks")
	})
	b.Run("getBoxModel", func(b *testing.B) {
		node, err := proto.DOMGetNodeForLocation{X: 20, Y: 20}.Do(b.Context(), p.S)
		if err != nil {
			b.Fatal(err)
		}
		var times []time.Duration
		for b.Loop() {
			start := time.Now()
			for range n {
				if _, err := (proto.DOMGetBoxModel{BackendNodeID: node.BackendNodeID}).Do(b.Context(), p.S); err != nil {
					b.Fatal(err)
				}
			}
			times = append(times, time.Since(start))
		}
		b.ReportMetric(median(times), "median-ms")
		b.ReportMetric(ms(slices.Min(times)), "min-ms")
	})
}
