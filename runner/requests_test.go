package runner_test

import (
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
}
