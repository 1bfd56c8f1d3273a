package main

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// Every fact a result reports is about the element the agent addressed:
// a ref whose element is gone never acts on the one that took its place.

// doneTitles is the titles of the to-dos that are done, in order.
func doneTitles(t *testing.T, c *cli, tab string) any {
	return c.value(t, tab, "[...document.querySelectorAll('.todo-list li')].filter(li => li.querySelector('.toggle').checked).map(li => li.textContent).join()")
}

// On a to-do list filtered to its completed items, a click on one's
// checkbox unticks it and it leaves the list. The same ref again — in
// the same batch, and in a later call — fails as stale, says what the
// list holds now with those checkboxes' refs, and ticks nothing else —
// at once once the page stands still, as a wrong guess should —
// however the framework re-renders its rows: new elements, rows patched
// in place by position, or keyed rows moved.
func TestStaleRefNeverActsOnItsNeighbour(t *testing.T) {
	for _, mode := range []string{"new", "reuse", "keyed"} {
		t.Run(mode, func(t *testing.T) {
			c := newCLI(t)
			tab := c.openTab(fixture.URL + "/todomvc.html?render=" + mode + "#/completed")
			yaml := c.call(t, tab, `{"snapshot":{"detail":"interactive"}}`)[0]["yaml"].(string)
			mom := refOn(t, yaml, `checkbox [checked] [ref=`+refOn(t, yaml, `in "Call mom"`)+`]`)
			res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":%q},{"click":%q}]}`, tab, mom, mom))
			steps := stepOutputs(t, res)
			if code != 1 || len(steps) != 2 || steps[0]["status"] != "ok" || steps[1]["status"] != "error" {
				t.Fatalf("exit %d: %s", code, jsonText(res))
			}
			msg, _ := steps[1]["error"].(string)
			for _, want := range []string{mom + ` is stale: the checkbox in "Call mom" is gone`, `the list now holds`, `checkbox in "Buy milk"`, `checkbox in "Pay rent"`} {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q lacks %q", msg, want)
				}
			}
			if errs := jsonText(res["errors"]); !strings.Contains(errs, `"name":"StaleElementError"`) {
				t.Errorf("errors = %s", errs)
			}
			near, _ := steps[1]["context"].(map[string]any)["nearMatches"].([]any)
			var texts []string
			for _, m := range near {
				texts = append(texts, m.(map[string]any)["text"].(string))
			}
			if got := strings.Join(texts, "; "); got != `checkbox in "Buy milk"; checkbox in "Pay rent"` {
				t.Errorf("nearMatches = %s", jsonText(near))
			}
			if got := doneTitles(t, c, tab); got != "Buy milk,Pay rent" {
				t.Errorf("done after the batch: %q, want Buy milk,Pay rent", got)
			}
			// The page has stood still since: the later call fails at once.
			if res, code, took := c.timedRun(fmt.Sprintf(`{"tab":%q,"steps":[{"click":%q}]}`, tab, mom)); code != 1 || !strings.Contains(jsonText(res), "StaleElementError") || took > 1500*time.Millisecond {
				t.Errorf("a later call: exit %d after %v: %s", code, took, jsonText(res))
			}
			if got := doneTitles(t, c, tab); got != "Buy milk,Pay rent" {
				t.Errorf("done after a later call: %q, want Buy milk,Pay rent", got)
			}
		})
	}
}

// A ref whose element a re-render replaced finds the element that is the
// same in the agent's eyes — the checkbox in the same row — and the
// output names what it acted on.
func TestReResolvedRefNamesItsTarget(t *testing.T) {
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/todomvc.html?render=new#/")
	yaml := c.call(t, tab, `{"snapshot":{"detail":"interactive"}}`)[0]["yaml"].(string)
	rent := refOn(t, yaml, `in "Pay rent"`)
	out := c.call(t, tab, fmt.Sprintf(`{"click":%q},{"click":%q},{"click":%q}`, rent, rent, rent))
	if out[0]["reResolved"] != nil || out[0]["target"] != nil {
		t.Errorf("the first click found its own element: %v", out[0])
	}
	for _, o := range out[1:] {
		if o["reResolved"] != true || o["target"] != `checkbox in "Pay rent"` {
			t.Errorf("a click after the re-render: %v, want reResolved and target checkbox in \"Pay rent\"", o)
		}
	}
	if got := doneTitles(t, c, tab); got != "Buy milk,Call mom" {
		t.Errorf("done = %q: Pay rent was to be unticked, ticked, unticked", got)
	}
}

// Filtering and sorting a framework's list read as its rows leaving,
// arriving and moving — whether it rebuilds its rows, patches them in
// place by position or moves them by key — never as rows renamed or
// boxes ticked; the summary counts rows, by what they read, and names
// the step that made the change.
func TestListChangesFollowTheRows(t *testing.T) {
	steps := []struct{ steps, want string }{
		{`{"click":{"text":"Active"}}`, `Clicked. 3 removed (listitem "Buy milk", listitem "Call mom", listitem "Pay rent").`},
		{`{"click":{"text":"Completed"}}`, `Clicked. 3 added (listitem "Buy milk", listitem "Call mom", listitem "Pay rent"). 1 removed (listitem "Walk the dog").`},
		{`{"click":{"text":"All"}}`, `Clicked. 1 added (listitem "Walk the dog").`},
		// The click changes nothing; the script sorts Z to A.
		{`{"click":{"text":"All"}},{"pageFunction":"sortDescending()"}`, `Ran pageFunction. 3 moved (listitem "Walk the dog", listitem "Pay rent", listitem "Call mom").`},
	}
	for _, mode := range []string{"new", "reuse", "keyed"} {
		t.Run(mode, func(t *testing.T) {
			c := newCLI(t)
			tab := c.openTab(fixture.URL + "/todomvc.html?render=" + mode + "#/")
			for _, s := range steps {
				ch := changesOf(c.act(t, tab, s.steps))
				if ch["summary"] != s.want || strings.Contains(jsonText(ch), `"from"`) {
					t.Errorf("%s: %s\nwant summary %s", s.steps, jsonText(ch), s.want)
				}
			}
		})
	}
}
