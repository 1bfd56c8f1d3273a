package runner_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A click's report lists the requests it started that carry what the
// page does: its POST with the status, time and the size of the body the
// app got, and the probe that failed (also among the errors); the
// network step's entries carry the sizes too.
func TestReportListsRequests(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/save.html")
	res := c.act(t, tab, `{"click":"#save"}`)
	lines, _ := field(res, "network", "requests").([]any)
	post := regexp.MustCompile(`^POST /api/items 201 \d+ms 27B$`)
	probe := regexp.MustCompile(`^GET /favicon-probe\.png 404 \d+ms \d+B$`)
	if len(lines) != 2 || !probe.MatchString(lines[0].(string)) || !post.MatchString(lines[1].(string)) {
		t.Errorf("network.requests: %s", jsonText(field(res, "network")))
	}
	out := jsonText(c.call(t, tab, `{"network":true}`)[0])
	if !strings.Contains(out, `"decoded":27`) || !strings.Contains(out, `"transferred":`) {
		t.Errorf("network step: %s", out)
	}
	// Each request says when it began after the page began to load.
	for _, r := range c.call(t, tab, `{"network":{"filter":"/api/items"}}`)[0]["requests"].([]any) {
		if at := r.(map[string]any)["at"]; at == nil || at.(float64) <= 0 {
			t.Errorf("the POST began %v ms into the page's load", at)
		}
	}
}

// The bodies of what a call's page sent and got are kept for later calls:
// two calls after the click, its POST reads back whole, by a part of its
// URL or by its id; a body never kept is a StepValidationError that says
// what is kept.
func TestBodiesReadBackLater(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/save.html")
	c.act(t, tab, `{"click":"#save"}`)
	c.call(t, tab, `{"pageFunction":"document.title"}`)
	got := c.call(t, tab, `{"network":{"body":"/api/items"}}`)[0]
	if jsonText(got["request"]) != `{"name":"Oat milk"}` || jsonText(got["body"]) != `{"id":7,"name":"Oat milk"}` ||
		got["status"] != 201.0 || got["method"] != "POST" || got["id"] == "" {
		t.Errorf("the POST's bodies: %s", jsonText(got))
	}
	again := c.call(t, tab, fmt.Sprintf(`{"network":{"body":%q}}`, got["id"]))[0]
	if jsonText(again) != jsonText(got) {
		t.Errorf("by id: %s", jsonText(again))
	}
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"network":{"body":"/nowhere"}}]}`, tab))
	if e := firstError(res); code != 1 || e["name"] != "StepValidationError" || !strings.Contains(fmt.Sprint(e["error"]), `no body matches "/nowhere" among the tab's`) {
		t.Errorf("an unknown body: %v", res)
	}
	// They go with the tab.
	dir := filepath.Join(c.tmp, "cdp-skill", tab+".bodies")
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the kept bodies: %v", err)
	}
	c.run(fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, tab))
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a closed tab's bodies stay: %v", err)
	}
}
