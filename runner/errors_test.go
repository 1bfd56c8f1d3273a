package runner

import (
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/dom"
)

func TestTidyMessage(t *testing.T) {
	cases := []struct{ msg, action, want string }{
		{"context deadline exceeded", "sleep", "timed out after 2000 ms (the step's timeout)"},
		{`timed out waiting for selector "#x" (found 0): context deadline exceeded`, "wait", `timed out waiting for selector "#x" (found 0)`},
		{"cannot attach: context deadline exceeded", "", "cannot attach (timed out after 2000 ms, the step's timeout)"},
		{`click: element not found: nothing matches selector "#a"`, "click", `element not found: nothing matches selector "#a"`},
		{"fill: fill: value rejected", "fill", "value rejected"},
		{"reading: context canceled", "", "reading: the call was interrupted"},
	}
	for _, c := range cases {
		if got := tidyMessage(c.msg, c.action, 2*time.Second); got != c.want {
			t.Errorf("tidyMessage(%q) = %q, want %q", c.msg, got, c.want)
		}
	}
}

// A miss whose nearest match reads exactly as asked says how to reach it.
func TestExactElsewhere(t *testing.T) {
	exact := &dom.Diagnostics{NearMatches: []dom.ElementHint{{Text: "All", Selector: "li > a", Ref: "s1e4", Role: "link", Score: 100}}}
	close := &dom.Diagnostics{NearMatches: []dom.ElementHint{{Text: "Alls", Selector: "a", Role: "link", Score: 86}}}
	heading := &dom.Diagnostics{NearMatches: []dom.ElementHint{{Text: "todos", Selector: "h1", Role: "heading", Score: 100}}}
	cases := []struct {
		err  error
		d    *dom.Diagnostics
		want string
	}{
		{&dom.NotFoundError{Target: dom.Target{Selector: "All"}}, exact, `; a link reads "All": to click it by its text, give {"text":"All"}, or its ref "s1e4"`},
		{&dom.NotFoundError{Target: dom.Target{Text: "todos"}}, heading, `; a heading reads "todos" but is not something a click by text takes: target it with {"selector":"h1"}`},
		{&dom.NotFoundError{Target: dom.Target{Text: "All"}}, exact, `; a link reading "All" came as the wait ended: run the step again, or target it with "s1e4"`},
		{&dom.NotFoundError{Target: dom.Target{Selector: "All"}}, close, ""},
		{&dom.NotFoundError{Target: dom.Target{Label: "All"}}, exact, ""},
	}
	for _, c := range cases {
		if got := exactElsewhere(c.err, c.d); got != c.want {
			t.Errorf("exactElsewhere(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}
