package xcontext

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestSleep(t *testing.T) {
	if err := Sleep(t.Context(), time.Millisecond); err != nil {
		t.Errorf("a whole sleep: %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	for _, d := range []time.Duration{0, time.Hour} {
		if err := Sleep(ctx, d); !errors.Is(err, context.Canceled) {
			t.Errorf("Sleep(%v) on an ended context: %v", d, err)
		}
	}
}

func TestDetached(t *testing.T) {
	type key struct{}
	ctx, cancel := context.WithCancel(context.WithValue(t.Context(), key{}, "v"))
	cancel()
	dctx, dcancel := Detached(ctx, time.Hour)
	defer dcancel()
	if dctx.Err() != nil || dctx.Value(key{}) != "v" {
		t.Errorf("detached: err %v, value %v", dctx.Err(), dctx.Value(key{}))
	}
	if dl, ok := dctx.Deadline(); !ok || time.Until(dl) > time.Hour {
		t.Errorf("deadline %v %v", dl, ok)
	}
}
