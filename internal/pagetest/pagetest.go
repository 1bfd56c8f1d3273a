// Package pagetest holds the helpers that tests of the packages working on
// a page (dom, query) share: a bounded context and fixture evaluation.
package pagetest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/page"
)

// Ctx bounds one test's browser work.
func Ctx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// Eval evaluates a short fixture expression, awaiting a promise, and
// decodes its value; any failure is fatal.
func Eval[T any](t *testing.T, p *page.Page, expr string) T {
	t.Helper()
	obj, err := p.Evaluate(Ctx(t), map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true})
	if err != nil {
		t.Fatalf("eval %s: %v", expr, err)
	}
	var v T
	if len(obj.Value) > 0 {
		if err := json.Unmarshal(obj.Value, &v); err != nil {
			t.Fatalf("eval %s: decode %s: %v", expr, obj.Value, err)
		}
	}
	return v
}
