package runner_test

import (
	"fmt"
	"strings"
	"testing"
)

// A phone preset is the phone, in this call and the next ones: its user
// agent and touch (which the page's scripts see once it loads again, as
// the step says), its mobile screen. A page without a meta viewport lays
// out 980 px wide on it, and the context says why its viewport is not
// the phone's.
func TestPhonePresetEndToEnd(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html")
	res := c.act(t, tab, `{"viewport":"iphone-15"}`)
	out := outputOf(t, res, 0)
	if out["width"] != 393.0 || out["height"] != 852.0 || out["deviceScaleFactor"] != 3.0 || out["mobile"] != true ||
		!strings.Contains(fmt.Sprint(stepOutputs(t, res)[0]["warning"]), "reload") {
		t.Errorf("viewport step: %v", stepOutputs(t, res)[0])
	}
	if vp := field(res, "context", "viewport"); jsonText(field(vp, "width")) != "980" || field(vp, "note") != "layout width 980 px: the page has no meta viewport" {
		t.Errorf("context.viewport of a page without a meta viewport: %v", vp)
	}

	const look = `{"pageFunction":"[navigator.userAgent, 'ontouchstart' in window, navigator.maxTouchPoints, matchMedia('(pointer: coarse)').matches, innerWidth]"}`
	iphone := "[Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1 true 5 true 980]"
	// The next call's session applies it all again; the reloaded page
	// loads as the phone.
	if got := fmt.Sprint(c.call(t, tab, `{"reload":true},`+look)[1]["value"]); got != iphone {
		t.Errorf("reloaded in the next call:\n got %s\nwant %s", got, iphone)
	}
	if got := fmt.Sprint(c.call(t, tab, look)[0]["value"]); got != iphone {
		t.Errorf("a later call:\n got %s\nwant %s", got, iphone)
	}

	// A page made for phones lays out at the phone's width: nothing to
	// explain. Setting the same phone again needs no reload.
	res = c.act(t, tab, fmt.Sprintf(`{"goto":%q},{"viewport":"iphone-15"}`, fixture.URL+"/phone.html"))
	if vp := field(res, "context", "viewport"); jsonText(vp) != `{"height":852,"width":393}` {
		t.Errorf("context.viewport of a page with a meta viewport: %v", vp)
	}
	if step := stepOutputs(t, res)[1]; step["warning"] != nil {
		t.Errorf("the same phone again: %v", step)
	}

	// Reset: the page loaded as the phone until it loads again.
	res = c.act(t, tab, `{"viewport":"reset"}`)
	if step := stepOutputs(t, res)[0]; field(step, "output", "reset") != true || !strings.Contains(fmt.Sprint(step["warning"]), "reload") {
		t.Errorf("reset: %v", step)
	}
	got := fmt.Sprint(c.call(t, tab, `{"reload":true},`+look)[1]["value"])
	if strings.Contains(got, "iPhone") || !strings.Contains(got, " false 0 false ") {
		t.Errorf("after reset and a reload: %s", got)
	}
}
