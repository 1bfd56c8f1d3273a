package cdp_test

import (
	"context"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/internal/testbrowser"
)

var browser *testbrowser.Browser

func TestMain(m *testing.M) { testbrowser.Main(m, &browser) }

func TestEvaluateOverFlatSession(t *testing.T) {
	s := browser.NewTab(t)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	var res struct {
		Result struct {
			Value float64 `json:"value"`
		} `json:"result"`
	}
	if err := s.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "6*7", "returnByValue": true}, &res); err != nil {
		t.Fatal(err)
	}
	if res.Result.Value != 42 {
		t.Fatalf("got %v", res.Result.Value)
	}
}

func TestLargeMessage(t *testing.T) {
	s := browser.NewTab(t)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	var res struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
	}
	const n = 9 << 20
	if err := s.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "'x'.repeat(9*1024*1024)", "returnByValue": true}, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Result.Value) != n {
		t.Fatalf("got %d bytes, want %d", len(res.Result.Value), n)
	}
}
