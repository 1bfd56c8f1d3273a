package capture_test

import (
	"context"
	"path/filepath"
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
		if err := capture.Screenshot(ctx, s, path, capture.ShotOptions{}); err != nil {
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
