package runner_test

import (
	"fmt"
	"strings"
	"testing"
)

// A confirm dialog that animates in and out (300 ms) over a page holding
// a button of the same name: the first click's result shows the dialog
// it opened, though its panel is still transparent when the page's DOM
// goes quiet; the second click presses the dialog's button, not its
// covered twin, and its result shows the state the page sets once the
// dialog has faded out: the project gone, the toast, no dialog left.
func TestAnimatedDialogOverATwin(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/widgets/dialog.html")
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":{"text":"Delete"}}]}`, tab))
	added := jsonText(changesOf(res)["added"])
	if code != 0 || !strings.Contains(added, `dialog \"Delete Apollo?\"`) || !strings.Contains(added, `button \"Cancel\"`) {
		t.Fatalf("opening: the result does not show the dialog: %s", jsonText(res))
	}
	res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":{"text":"Delete"}}]}`, tab))
	step := stepOutputs(t, res)[0]
	out, _ := step["output"].(map[string]any)
	if code != 0 || out["method"] != "cdp" || step["warning"] != nil {
		t.Fatalf("confirming: want a plain click on the dialog's button: %s", jsonText(res))
	}
	ch := changesOf(res)
	removed, changed := jsonText(ch["removed"]), jsonText(ch["changed"])
	if !strings.Contains(removed, `dialog \"Delete Apollo?\"`) || !strings.Contains(removed, `text: \"Apollo\"`) {
		t.Errorf("confirming: removed %s, want the dialog and the project", removed)
	}
	if !strings.Contains(changed, "Apollo deleted") || !strings.Contains(changed, "0 projects") {
		t.Errorf("confirming: changed %s, want the toast and the count", changed)
	}
	if snap, _ := res["viewportSnapshot"].(string); strings.Contains(snap, "Cancel") {
		t.Errorf("confirming: the closed dialog's buttons are still in the snapshot:\n%s", snap)
	}
	if n := c.value(t, tab, "document.querySelectorAll('#projects li').length"); n != float64(0) {
		t.Errorf("the page holds %v projects, want 0", n)
	}
}

// An API console prints its live response far below the button that
// sent the request: the click's result says where and what it printed,
// though nothing on screen changed.
func TestAChangeOutOfViewShows(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/widgets/console.html")
	res := c.act(t, tab, `{"click":{"text":"Execute"}}`)
	ch := changesOf(res)
	away := jsonText(ch["elsewhere"])
	if !strings.Contains(away, `below, in region \"Server response\": \"Code 201`) || !strings.Contains(away, `Code 201`) || !strings.Contains(away, `\\\"id\\\":7`) {
		t.Errorf("elsewhere %s, want the response section below with its code and body", away)
	}
	if sum, _ := ch["summary"].(string); !strings.Contains(sum, `out of view: below (main "Items API", region "Server response")`) {
		t.Errorf("summary %q", sum)
	}
}
