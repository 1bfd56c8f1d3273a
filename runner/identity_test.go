package runner_test

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
	t.Parallel()
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
			var texts, refs []string
			for _, m := range near {
				texts = append(texts, m.(map[string]any)["text"].(string))
				ref, _ := m.(map[string]any)["ref"].(string)
				refs = append(refs, ref)
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
			// What stands there now is offered by refs that act on it.
			if len(refs) == 2 && refs[1] != "" && refs[1] != mom {
				c.call(t, tab, fmt.Sprintf(`{"click":%q}`, refs[1]))
				if got := doneTitles(t, c, tab); got != "Buy milk" {
					t.Errorf("done after a click on the near match %s: %q, want Buy milk", refs[1], got)
				}
			} else {
				t.Errorf("near matches' refs = %q, want a ref of its own for each", refs)
			}
		})
	}
}

// A ref whose element a re-render replaced finds the element that is the
// same in the agent's eyes — the checkbox in the same row — and the
// output names what it acted on.
func TestReResolvedRefNamesItsTarget(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	steps := []struct{ steps, want string }{
		{`{"click":{"text":"Active"}}`, `Clicked. 3 removed (listitem "Buy milk", listitem "Call mom", listitem "Pay rent").`},
		{`{"click":{"text":"Completed"}}`, `Clicked. 3 added (listitem "Buy milk", listitem "Call mom", listitem "Pay rent"). 1 removed (listitem "Walk the dog").`},
		{`{"click":{"text":"All"}}`, `Clicked. 1 added (listitem "Walk the dog").`},
		// The click changes nothing; the script sorts Z to A.
		{`{"click":{"text":"All"}},{"pageFunction":"sortDescending()"}`, `Ran pageFunction. 3 moved (listitem "Walk the dog", listitem "Pay rent", listitem "Call mom").`},
		// Two rows each way: a framework that patches rows in place puts
		// the other filter's items into the same two <li>.
		// The script unticks Pay rent: that change is true.
		{`{"click":{"text":"Active"}},{"pageFunction":"state.todos.find(t => t.title === 'Pay rent').done = false, render()"}`,
			`Clicked, ran pageFunction. 2 removed (listitem "Call mom", listitem "Buy milk"). 1 unchecked (`},
		{`{"click":{"text":"Completed"}}`, `Clicked. 2 added (listitem "Call mom", listitem "Buy milk"). 2 removed (listitem "Walk the dog", listitem "Pay rent").`},
		{`{"click":{"text":"Active"}}`, `Clicked. 2 added (listitem "Walk the dog", listitem "Pay rent"). 2 removed (listitem "Call mom", listitem "Buy milk").`},
	}
	for _, mode := range []string{"new", "reuse", "keyed"} {
		t.Run(mode, func(t *testing.T) {
			c := newCLI(t)
			tab := c.openTab(fixture.URL + "/todomvc.html?render=" + mode + "#/")
			for _, s := range steps {
				// A want ending in "(" is a summary's start: the ref varies.
				ch := changesOf(c.act(t, tab, s.steps))
				sum, _ := ch["summary"].(string)
				prefix := strings.HasSuffix(s.want, "(")
				if sum != s.want && !(prefix && strings.HasPrefix(sum, s.want)) {
					t.Errorf("%s: %s\nwant summary %s", s.steps, jsonText(ch), s.want)
				}
				if !prefix && strings.Contains(jsonText(ch), `"from"`) {
					t.Errorf("%s: a change in place: %s", s.steps, jsonText(ch))
				}
			}
		})
	}
}

// Rows that are hard to know again are never guessed at: a nameless
// checkbox whose row says what it is only on its button fails as stale
// rather than tick a look-alike, re-rendered or refilled by position; a
// link a framework refilled with another item's name is not that item's
// link; and a stepper whose row shows a count that its own click changes
// is still its row's stepper.
func TestRowsHardToKnowAgain(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/rows.html")
	yaml := c.call(t, tab, `{"snapshot":{"detail":"interactive"}}`)[0]["yaml"].(string)
	boxes := ariaRefRE.FindAllStringSubmatch(yaml, -1)
	var box, red, alpha, apples string
	for _, line := range strings.Split(yaml, "\n") {
		switch m := ariaRefRE.FindStringSubmatch(line); {
		case m == nil:
		case strings.Contains(line, "- checkbox") && box == "":
			box = m[1]
		case strings.Contains(line, "- checkbox") && strings.Contains(line, `in "red"`):
			red = m[1]
		case strings.Contains(line, `link "Alpha"`):
			alpha = m[1]
		case strings.Contains(line, `button "+"`) && apples == "":
			apples = m[1]
		}
	}
	if box == "" || red == "" || alpha == "" || apples == "" || len(boxes) == 0 {
		t.Fatalf("refs not found in:\n%s", yaml)
	}
	logOf := func() any { return c.value(t, tab, "document.getElementById('log').textContent") }

	// The first box ticks its row away; again, it is gone.
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":%q},{"click":%q}]}`, tab, box, box))
	if code != 1 || !strings.Contains(jsonText(res), "StaleElementError") || logOf() != "ticked Buy milk;" {
		t.Errorf("the same nameless box twice: exit %d, log %q: %s", code, logOf(), jsonText(res["errors"]))
	}

	// The first tag's box now sits in green's row: red's ref does not
	// drop green.
	res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":%q},{"click":%q}]}`, tab, red, red))
	if got := logOf().(string); strings.Contains(got, "dropped green") || !strings.Contains(got, "dropped red") {
		t.Errorf("red's box twice: exit %d, log %q: %s", code, got, jsonText(res["errors"]))
	}

	// The first link's element now shows Bravo: Alpha's ref does not
	// open Bravo.
	res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#hide-first"},{"click":%q}]}`, tab, alpha))
	if got := logOf(); strings.Contains(got.(string), "opened") {
		t.Errorf("Alpha's ref after Alpha left: exit %d, log %q: %s", code, got, jsonText(res))
	}

	// Apples' stepper, twice in a batch and once more later.
	c.call(t, tab, fmt.Sprintf(`{"click":%q},{"click":%q}`, apples, apples))
	c.call(t, tab, fmt.Sprintf(`{"click":%q}`, apples))
	if got := logOf().(string); !strings.HasSuffix(got, "Apples 2;Apples 3;Apples 4;") {
		t.Errorf("log after Apples' stepper three times: %q", got)
	}
}

// A fill that unticks a box whose row then leaves a list that reuses its
// rows by position is judged by that row, not by the row the box now
// sits in: it went through.
func TestFillUntickedRowThatLeft(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/todomvc.html?render=reuse#/completed")
	yaml := c.call(t, tab, `{"snapshot":{"detail":"interactive"}}`)[0]["yaml"].(string)
	first := refOn(t, yaml, `in "Buy milk"`)
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"fill":{%q:false}}]}`, tab, first))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, jsonText(res))
	}
	if got := doneTitles(t, c, tab); got != "Call mom,Pay rent" {
		t.Errorf("done = %q, want Buy milk unticked", got)
	}
}

// A request answered just before its page went elsewhere is over: the
// click that left does not wait for it, nor warn that it still loads.
func TestRequestOfALeftPageIsNotLoading(t *testing.T) {
	// Not parallel: it bounds the click's time, which the tests beside it
	// would stretch on a machine of two cores.
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/leave.html")
	res, code, took := c.timedRun(fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#checkout"}]}`, tab))
	steps := stepOutputs(t, res)
	if code != 0 || steps[0]["warning"] != nil || res["navigated"] != true {
		t.Errorf("exit %d: %s", code, jsonText(res))
	}
	if took > 1500*time.Millisecond {
		t.Errorf("the click took %v: it waited on a request of the page it left", took)
	}
}
