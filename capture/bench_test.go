package capture_test

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/capture"
)

func BenchmarkScreenshot(b *testing.B) {
	s := browser.NewTab(b)
	ctx, cancel := context.WithTimeout(b.Context(), time.Minute)
	defer cancel()
	path := filepath.Join(b.TempDir(), "bench.png")
	for b.Loop() {
		if _, err := (capture.Files{}).Capture(ctx, s, path, capture.ShotOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFlush is the price of the round trip paid after each command.
func BenchmarkFlush(b *testing.B) {
	s := browser.NewTab(b)
	ctx, cancel := context.WithTimeout(b.Context(), time.Minute)
	defer cancel()
	c, err := capture.StartConsole(ctx, s)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	for b.Loop() {
		if err := c.Flush(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNetworkLogAppend is what a call pays to save 20 requests to a
// full log: it is rewritten whole.
func BenchmarkNetworkLogAppend(b *testing.B) {
	log := capture.NetworkLog{Path: filepath.Join(b.TempDir(), "t1.network.jsonl"), Target: "T"}
	reqs := make([]capture.Request, 20)
	for i := range reqs {
		reqs[i] = capture.Request{URL: "https://example.com/api/items?page=" + strconv.Itoa(i), Method: "GET", Status: 200, Type: "Fetch"}
	}
	for range capture.MaxLogRequests / len(reqs) {
		if err := log.Append(reqs); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		if err := log.Append(reqs); err != nil {
			b.Fatal(err)
		}
	}
}
