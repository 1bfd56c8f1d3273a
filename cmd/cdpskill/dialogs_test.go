package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
)

// noDialogNews fails the test if a call reported or warned about a dialog.
func noDialogNews(t *testing.T, res map[string]any) {
	t.Helper()
	if w := fmt.Sprint(res["warnings"]); strings.Contains(w, "dialog") {
		t.Errorf("a dialog warning on a call whose tab showed none: %s", w)
	}
	for i, s := range stepOutputs(t, res) {
		if s["dialogs"] != nil {
			t.Errorf("step %d reports dialogs on a tab that showed none: %v", i+1, s["dialogs"])
		}
	}
}

// A page whose main thread is busy is slow to answer, not held by a
// dialog: a call that attaches meanwhile waits for it, warns of no dialog
// and leaves the page where it is.
func TestBusyPageIsNoDialog(t *testing.T) {
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/life-dialogs.html")
	before := c.runOK(t, fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"window.marker = 'kept'; busy(1000, 5000); history.length"}]}`, tab))
	entries := field(stepOutputs(t, before)[0], "output", "value")

	for i := 0; i < 2; i++ { // two calls, each attaching to the busy page
		res := c.runOK(t, fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"[window.marker, history.length, location.href]"}]}`, tab))
		want := fmt.Sprintf(`["kept",%v,%q]`, entries, fixture.URL+"/life-dialogs.html")
		if got := field(stepOutputs(t, res)[0], "output", "value"); !sameJSON(got, want) {
			t.Errorf("call %d: the page moved: %v, want %s", i+1, got, want)
		}
		noDialogNews(t, res)
	}
}

// A page still waiting for its next document is loading, not held by a
// dialog: a call that attaches meanwhile lets the navigation finish.
func TestLoadingPageIsNoDialog(t *testing.T) {
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/life-dialogs.html")
	id := c.registry(t)[tab]["targetId"].(string)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	for len(slowHits) > 0 {
		<-slowHits
	}
	s, err := cdp.Attach(ctx, browser.Conn, id)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Detach(context.WithoutCancel(ctx))
	// As a link would: the page itself leaves for a document that is slow
	// to answer.
	if err := s.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "location.href = '/api/slow?ms=4000&doc'"}, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-slowHits:
	case <-time.After(10 * time.Second):
		t.Fatal("the page never asked for its next document")
	}

	res := c.runOK(t, fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"location.pathname"}]}`, tab))
	if got := field(stepOutputs(t, res)[0], "output", "value"); got != "/api/slow" {
		t.Errorf("the navigation under way was cut short: the page is at %v", got)
	}
	noDialogNews(t, res)
}
