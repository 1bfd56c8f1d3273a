// Package pagetest holds the helpers that tests of the packages working on
// a page (page, dom, aria, query) share: a bounded context and fixture
// evaluation.
package pagetest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/page"
)

// Ctx bounds one test's browser work.
func Ctx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// Eval evaluates a short fixture expression in the page's own world,
// where the fixture's scripts keep their state, awaiting a promise, and
// decodes its value; any failure is fatal.
func Eval[T any](t *testing.T, p *page.Page, expr string) T {
	t.Helper()
	return eval[T](t, p.Main(), expr)
}

// EvalHelper is Eval in cdpskill's helper world, where refs live.
func EvalHelper[T any](t *testing.T, p *page.Page, expr string) T {
	t.Helper()
	return eval[T](t, p, expr)
}

func eval[T any](t *testing.T, p *page.Page, expr string) T {
	t.Helper()
	obj, err := p.Evaluate(Ctx(t), proto.RuntimeEvaluate{Expression: expr, ReturnByValue: true, AwaitPromise: true})
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

// AdoptRefs copies the refs a fixture minted in the page's own world (with
// testdata/refs.js's makeRef) into cdpskill's helper world, where the
// code under test looks for them: each element is named to the helper
// world by an event dispatched on it, the only way an element crosses
// between worlds; a ref whose element left the page gets a stand-in that
// was never in it. Refs the helper world has already are kept.
func AdoptRefs(t testing.TB, p *page.Page) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := p.CallJS(ctx, adoptListenJS, nil); err != nil {
		t.Fatalf("adopt refs: %v", err)
	}
	if err := p.Main().CallJS(ctx, adoptSendJS, nil); err != nil {
		t.Fatalf("adopt refs: %v", err)
	}
}

// adoptListenJS runs in the helper world: it listens, in every same-origin
// document, for the refs adoptSendJS names.
const adoptListenJS = `function () {
	const on = (e) => {
		e.stopImmediatePropagation();
		const d = JSON.parse(e.detail);
		if (!(window.__ariaRefs instanceof Map)) {
			window.__ariaRefs = new Map();
			window.__ariaRefMeta = new Map();
			window.__ariaRefOf = new WeakMap();
		}
		if (d.counters) {
			[window.__ariaSnapshotId, window.__ariaElementId, window.__ariaDocFloor] = d.counters;
			return;
		}
		if (window.__ariaRefs.has(d.ref)) return;
		// A ref whose element left the page gets one that never was in it.
		const el = d.stale ? document.createElement('div') : e.composedPath()[0];
		window.__ariaRefs.set(d.ref, el);
		window.__ariaRefMeta.set(d.ref, d.meta);
		window.__ariaRefOf.set(el, d.ref);
	};
	const listen = (w) => {
		try {
			if (w.__cdpskillAdopt) return;
			w.__cdpskillAdopt = true;
			w.addEventListener('cdpskill-test-ref', on, true);
			for (const f of w.document.querySelectorAll('iframe,frame')) if (f.contentWindow) listen(f.contentWindow);
		} catch (e) { /* another origin */ }
	};
	listen(window);
}`

// adoptSendJS runs in the page's own world and names its refs.
const adoptSendJS = `function () {
	const refs = window.__ariaRefs, metas = window.__ariaRefMeta;
	if (!(refs instanceof Map)) return;
	const send = (target, d) => target.dispatchEvent(new CustomEvent('cdpskill-test-ref', { detail: JSON.stringify(d), composed: true }));
	for (const [ref, el] of refs) {
		if (el && el.isConnected) send(el, { ref, meta: metas.get(ref) });
		else send(document, { ref, meta: metas.get(ref), stale: true });
	}
	send(document, { counters: [window.__ariaSnapshotId, window.__ariaElementId, window.__ariaDocFloor] });
}`
