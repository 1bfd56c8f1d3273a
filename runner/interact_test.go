package runner_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// output is step i's output object.
func output(t *testing.T, res map[string]any, i int) map[string]any {
	t.Helper()
	steps := stepOutputs(t, res)
	if len(steps) <= i {
		t.Fatalf("no step %d: %v", i, res)
	}
	out, _ := steps[i]["output"].(map[string]any)
	return out
}

// A tab a click opens gets an alias at once; the next call can use it, and
// later calls on the opener still take their screenshot and snapshot in
// normal time (the opener stays at the front of its window).
func TestClickRegistersNewTabs(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/interact-page.html")
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#blank"}]}`, tab))
	if code != 0 {
		t.Fatalf("click: %v", res)
	}
	out := output(t, res, 0)
	tabs, _ := out["newTabs"].([]any)
	if len(tabs) != 1 {
		t.Fatalf("newTabs = %v", out)
	}
	nt := tabs[0].(map[string]any)
	alias, _ := nt["tab"].(string)
	t.Cleanup(func() { c.run(fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, alias)) })
	if !regexp.MustCompile(`^t\d+$`).MatchString(alias) || alias == tab || !strings.Contains(nt["url"].(string), "from=blank") {
		t.Fatalf("new tab = %v", nt)
	}
	if _, ok := c.registry(t)[alias]; !ok {
		t.Fatalf("%s is not in the registry", alias)
	}
	if out["navigated"] != nil {
		t.Errorf("the opener did not navigate: %v", out)
	}

	// The new tab sits behind its opener in their window; a call on it
	// must still render (it is brought to the front when hidden).
	res, code = c.run(fmt.Sprintf(`{"tab":%q,"timeout":8000,"steps":[{"pageFunction":"document.visibilityState"},{"screenshot":true}]}`, alias))
	if code != 0 {
		t.Fatalf("screenshot of the tab the click opened: %v", res)
	}
	if v := output(t, res, 0)["value"]; v != "visible" {
		t.Fatalf("the new tab is %v to the call: it was not brought to the front", v)
	}

	res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"getTitle":true},{"click":"#here"},{"pageFunction":"document.getElementById('here').textContent"}]}`, alias))
	if code != 0 || output(t, res, 0)["title"] != "Second page" || output(t, res, 2)["value"] != "Clicked" {
		t.Fatalf("the new alias does not work: %v", res)
	}

	start := time.Now()
	res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#nothing"},{"snapshot":true}]}`, tab))
	elapsed := time.Since(start)
	if code != 0 || res["screenshot"] == nil || !strings.Contains(fmt.Sprint(output(t, res, 1)["yaml"]), "Save") {
		t.Fatalf("the opener after a new tab: %v", res)
	}
	if elapsed > 10*time.Second {
		t.Errorf("a call on the opener took %v", elapsed)
	}
}

// A ref from a snapshot in one call is clicked in a later call after the
// page re-rendered its element: re-resolved, and the new element is the
// one clicked.
func TestClickRefAcrossCallsAfterRerender(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/interact-page.html")
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"snapshot":true}]}`, tab))
	if code != 0 {
		t.Fatalf("snapshot: %v", res)
	}
	ref := refOf(t, output(t, res, 0)["yaml"].(string), `button "Save"`)
	res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"rerender()"},{"click":%q},{"pageFunction":"window.log.join()"}]}`, tab, ref))
	if code != 0 {
		t.Fatalf("click: %v", res)
	}
	if out := output(t, res, 1); out["reResolved"] != true || out["clicked"] != true {
		t.Errorf("click output = %v", out)
	}
	if got := output(t, res, 2)["value"]; got != "save-v2" {
		t.Errorf("clicked %v, want the re-rendered button", got)
	}
}

// A ref from before a navigation fails at once with StaleElementError,
// telling the agent to take a new snapshot; the click that navigated said
// so too.
func TestClickRefAfterNavigation(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/interact-page.html")
	res, _ := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"snapshot":true}]}`, tab))
	yaml := output(t, res, 0)["yaml"].(string)
	save, away := refOf(t, yaml, `button "Save"`), refOf(t, yaml, `link "Go away"`)
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":%q}]}`, tab, away))
	out := output(t, res, 0)
	if code != 0 || out["navigated"] != true || !strings.Contains(fmt.Sprint(out["newUrl"]), "interact-second.html?from=away") {
		t.Fatalf("navigating click: %v", res)
	}
	start := time.Now()
	res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":%q}]}`, tab, save))
	e := firstError(res)
	if code != 1 || e == nil || e["name"] != "StaleElementError" || !strings.Contains(e["error"].(string), "navigated") {
		t.Fatalf("stale ref: %v", res)
	}
	if time.Since(start) > 4*time.Second {
		t.Errorf("a ref from before a navigation took %v to fail", time.Since(start))
	}
}

// Batch fill reports each field; one failing field fails the step but the
// others are filled and said to be.
func TestFillBatchCLI(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/form.html")
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"fill":{"fields":{"#user":"ada","#nope":"x"},"timeout":200}},{"getTitle":true}]}`, tab))
	out := output(t, res, 0)
	if code != 1 || out["total"] != float64(2) || out["filled"] != float64(1) || out["failed"] != float64(1) {
		t.Fatalf("batch: %v", res)
	}
	if e := firstError(res); e == nil || e["name"] != "ElementNotFoundError" {
		t.Errorf("errors = %v", res["errors"])
	}
	res, _ = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"document.getElementById('user').value"}]}`, tab))
	if output(t, res, 0)["value"] != "ada" {
		t.Errorf("the good field was not filled: %v", res)
	}
}

// refOf finds the ref of the snapshot line that starts with prefix.
func refOf(t *testing.T, yaml, prefix string) string {
	t.Helper()
	for _, line := range strings.Split(yaml, "\n") {
		if strings.Contains(line, "- "+prefix) {
			if m := regexp.MustCompile(`\[ref=(s\d+e\d+)\]`).FindStringSubmatch(line); m != nil {
				return m[1]
			}
		}
	}
	t.Fatalf("no ref for %s in:\n%s", prefix, yaml)
	return ""
}
