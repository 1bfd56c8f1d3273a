package page_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/page"
)

func poll(t *testing.T, p *page.Page, req page.PollRequest) *page.PollResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	res, err := page.Poll(ctx, p, req)
	if err != nil {
		t.Fatalf("Poll(%q): %v", req.Source, err)
	}
	return res
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestPollResolvesAfterTimer(t *testing.T) {
	p, _ := evalPage(t, "eval-types.html")
	evalJSON(t, p, page.FuncRequest{Source: `setTimeout(() => { window.ready = {at: 'later'} }, 200)`})
	for _, src := range []string{`() => window.ready`, `window.ready`} {
		res := poll(t, p, page.PollRequest{Source: src, Interval: 50 * time.Millisecond, Timeout: 10 * time.Second})
		if !res.Resolved || mustJSON(t, res.Value) != `{"type":"object","value":{"at":"later"}}` || res.LastValue != nil {
			t.Errorf("%s: got %s", src, mustJSON(t, res))
		}
	}
}

func TestPollTimesOutWithLastValue(t *testing.T) {
	p, _ := evalPage(t, "eval-types.html")
	res := poll(t, p, page.PollRequest{
		Source:   `() => { window.polls = (window.polls || 0) + 1; return 0 }`,
		Interval: 20 * time.Millisecond,
		Timeout:  2 * time.Second, // room for two evaluations on a loaded machine
	})
	if res.Resolved || res.Value != nil || mustJSON(t, res.LastValue) != `{"type":"number","value":0}` || res.LastError != "" {
		t.Errorf("got %s", mustJSON(t, res))
	}
	if got := evalJSON(t, p, page.FuncRequest{Source: `window.polls > 1`}); got != `{"type":"boolean","value":true}` {
		t.Errorf("predicate evaluated once only: %s", got)
	}
}

// TestPollKeepsGoingThroughExceptions: a predicate reading what is not there
// yet throws until it is; the agent sees the last exception on timeout.
func TestPollKeepsGoingThroughExceptions(t *testing.T) {
	p, _ := evalPage(t, "eval-types.html")
	res := poll(t, p, page.PollRequest{Source: `document.querySelector('#later').textContent`, Timeout: 2 * time.Second}) // one evaluation at least, on a loaded machine
	if res.Resolved || !strings.HasPrefix(res.LastError, "TypeError: Cannot read properties of null") {
		t.Errorf("got %s", mustJSON(t, res))
	}

	evalJSON(t, p, page.FuncRequest{Source: `setTimeout(() => { document.body.insertAdjacentHTML('beforeend', '<p id="later">here</p>') }, 200)`})
	res = poll(t, p, page.PollRequest{Source: `document.querySelector('#later').textContent`, Timeout: 10 * time.Second})
	if !res.Resolved || mustJSON(t, res.Value) != `{"type":"string","value":"here"}` {
		t.Errorf("got %s", mustJSON(t, res))
	}
}

func TestPollSyntaxErrorFailsAtOnce(t *testing.T) {
	p, _ := evalPage(t, "eval-types.html")
	_, err := page.Poll(t.Context(), p, page.PollRequest{Source: `document.querySelector('x`, Timeout: time.Minute})
	var je *page.JSError
	if !errors.As(err, &je) || !strings.HasPrefix(je.Message, "SyntaxError") {
		t.Errorf("got %v, want a SyntaxError", err)
	}
}

// TestPollTruthiness checks JavaScript truthiness on every kind of result.
func TestPollTruthiness(t *testing.T) {
	p, _ := evalPage(t, "eval-types.html")
	for _, src := range []string{`0`, `-0`, `NaN`, `''`, `null`, `undefined`, `false`, `0n`} {
		if res := poll(t, p, page.PollRequest{Source: src, Timeout: 50 * time.Millisecond}); res.Resolved {
			t.Errorf("%s resolved", src)
		}
	}
	for _, src := range []string{`1`, `-1`, `'0'`, `Infinity`, `1n`, `true`, `[]`, `({})`, `Symbol()`, `Math.max`} {
		if res := poll(t, p, page.PollRequest{Source: src, Timeout: 5 * time.Second}); !res.Resolved {
			t.Errorf("%s did not resolve", src)
		}
	}
}

// TestPollAcrossNavigation: page A waits on a promise that never settles
// until it navigates to B; the destroyed context is retried, and the
// predicate resolves on B.
func TestPollAcrossNavigation(t *testing.T) {
	p, _ := evalPage(t, "eval-poll-a.html")
	res := poll(t, p, page.PollRequest{
		Source:  `location.pathname.endsWith('/eval-poll-b.html') ? document.title : new Promise(() => {})`,
		Timeout: 10 * time.Second,
	})
	if !res.Resolved || mustJSON(t, res.Value) != `{"type":"string","value":"Poll B"}` {
		t.Errorf("got %s", mustJSON(t, res))
	}
}

// TestPollOuterDeadline: a step deadline shorter than the poll's own
// timeout still ends in the timeout outcome, not an error.
func TestPollOuterDeadline(t *testing.T) {
	p, _ := evalPage(t, "eval-types.html")
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second) // one evaluation at least, on a loaded machine
	defer cancel()
	res, err := page.Poll(ctx, p, page.PollRequest{Source: `false`})
	if err != nil || res.Resolved || mustJSON(t, res.LastValue) != `{"type":"boolean","value":false}` {
		t.Errorf("got %+v, %v", res, err)
	}
}

func TestPollCancelled(t *testing.T) {
	p, _ := evalPage(t, "eval-types.html")
	ctx, cancel := context.WithCancel(t.Context())
	stop := time.AfterFunc(200*time.Millisecond, cancel)
	defer stop.Stop()
	if _, err := page.Poll(ctx, p, page.PollRequest{Source: `false`}); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}
