package runner_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/chrome"
)

// A pattern two tabs match connects to the first of them in Chrome's
// order, every time, and lists the other.
func TestConnectTabPatternPicksTheFirstMatch(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	var ids []string
	for i := range 2 {
		id, err := chromium(t).CreateTarget(t.Context(), fmt.Sprintf("%s/form.html?twin=%d", fixture.URL, i))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
		t.Cleanup(func() { chrome.CloseTargetWS(t.Context(), chromium(t).Conn, id) })
	}
	first := func() (string, string) {
		pages, err := chrome.ListPagesWS(t.Context(), chromium(t).Conn)
		if err != nil {
			t.Fatal(err)
		}
		var twins []string
		for _, p := range pages {
			if strings.Contains(p.URL, "form.html?twin=") {
				twins = append(twins, p.ID)
			}
		}
		if len(twins) != 2 {
			t.Fatalf("Chrome lists %d twins: %v", len(twins), pages)
		}
		return twins[0], twins[1]
	}
	ep := fmt.Sprintf(`"host":%q,"port":%d`, chromium(t).Endpoint.Host, chromium(t).Endpoint.Port)
	for range 6 {
		want, other := first()
		res, code := c.run(fmt.Sprintf(`{"steps":[{"connectTab":{"url":"form\\.html\\?twin=",%s}}]}`, ep))
		if code != 0 {
			t.Fatalf("connectTab: %v", res)
		}
		out := outputOf(t, res, 0)
		if got := c.registry(t)[res["tab"].(string)]["targetId"]; got != want {
			t.Fatalf("connected to %v, not %s, the first match in Chrome's order (%v)", got, want, ids)
		}
		others, _ := out["otherMatches"].([]any)
		if len(others) != 1 || field(others, 0, "targetId") != other || !strings.Contains(fmt.Sprint(field(others, 0, "url")), "twin=") {
			t.Fatalf("the other match is not listed: %v", out)
		}
	}
}
