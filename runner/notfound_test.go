package runner_test

import (
	"fmt"
	"testing"
	"time"
)

// A typo'd click on a still page fails fast, the whole call, short of the
// 5 s actionability timeout it would otherwise wait out (a bound, not a
// speed target: the page must stand still for a second, and a loaded
// machine adds its share),
// with the button the agent meant first among the near matches, though a
// textbox shares more of its words (issue 21).
func TestTypoOnAStillPageFailsFast(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/items.html")
	for _, term := range []string{"Sav item", "Submit item"} {
		start := time.Now()
		res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":{"text":%q}}]}`, tab, term))
		took := time.Since(start)
		if e := firstError(res); code != 1 || e == nil || e["name"] != "ElementNotFoundError" {
			t.Fatalf("%q: exit %d: %s", term, code, jsonText(res))
		}
		if took > 4*time.Second {
			t.Errorf("%q: the call took %v, want under 4 s", term, took)
		}
		fc, _ := stepOutputs(t, res)[0]["context"].(map[string]any)
		near, _ := fc["nearMatches"].([]any)
		if len(near) < 2 {
			t.Fatalf("%q: near matches %s", term, jsonText(near))
		}
		if first := near[0].(map[string]any); first["text"] != "Save item" || first["role"] != "button" || first["selector"] != "#save" {
			t.Errorf("%q: near matches %s, want the button \"Save item\" first", term, jsonText(near))
		}
	}
}

// An element a slow API renders (4 s, nothing on the page moving
// meanwhile) is waited for while its request is under way: begun in an
// earlier call, whose settle gave up on it, or earlier in the same call.
func TestElementOfASlowAPIIsWaitedFor(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/slow-list.html?ms=4000")
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":{"text":"Pears"}}]}`, tab))
	if code != 0 {
		t.Fatalf("a request begun in an earlier call: %s", jsonText(res))
	}
	res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#more"},{"click":{"text":"More Pears"}}]}`, tab))
	if code != 0 {
		t.Fatalf("a request begun earlier in the call: %s", jsonText(res))
	}
}
