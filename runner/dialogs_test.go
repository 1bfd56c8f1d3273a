package runner_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
)

// watchDialogs attaches the test's own session to the tab and enables its
// Page domain, so the test hears the tab's dialogs open; it answers none.
func watchDialogs(t *testing.T, c *cli, tab string) (*cdp.Session, *cdp.Listener) {
	t.Helper()
	id := c.registry(t)[tab]["targetId"].(string)
	s, err := proto.Attach(t.Context(), chromium(t).Conn, id)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { proto.Detach(context.Background(), s) })
	opened := s.Listen(proto.EventPageJavascriptDialogOpening)
	t.Cleanup(opened.Close)
	if err := (proto.PageEnable{}).Do(t.Context(), s); err != nil {
		t.Fatal(err)
	}
	return s, opened
}

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

// A dialog of another tab is that tab's business: a call on this tab
// neither reports it nor answers it.
func TestOtherTabsDialogIsNotThisCalls(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	mine := c.openTab(fixture.URL + "/life-dialogs.html")
	other := c.openTab(fixture.URL + "/life-dialogs.html")
	s, opened := watchDialogs(t, c, other)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	c.runOK(t, fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"setTimeout(() => alert('Not yours'), 300); 1"}]}`, other))
	if _, err := opened.Next(ctx); err != nil {
		t.Fatalf("the other tab's alert never opened: %v", err)
	}

	res := c.runOK(t, fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#confirm"},{"pageFunction":"document.title"}]}`, mine))
	steps := stepOutputs(t, res)
	if ds := dialogsOf(steps[0]); len(ds) != 1 || ds[0]["message"] != "Delete it?" {
		t.Errorf("this tab's own confirm: %v", steps[0])
	}
	steps[0]["dialogs"] = nil
	noDialogNews(t, res)

	// The other tab's alert is still showing, for its own session to answer.
	if err := (proto.PageHandleJavaScriptDialog{Accept: true}).Do(ctx, s); err != nil {
		t.Errorf("the other tab's alert was touched: %v", err)
	}
}

// A page whose main thread is busy is slow to answer, not held by a
// dialog: a call that attaches meanwhile waits for it, warns of no dialog
// and leaves the page where it is.
func TestBusyPageIsNoDialog(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/life-dialogs.html")
	id := c.registry(t)[tab]["targetId"].(string)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	for len(slowHits) > 0 {
		<-slowHits
	}
	s, err := proto.Attach(ctx, chromium(t).Conn, id)
	if err != nil {
		t.Fatal(err)
	}
	defer proto.Detach(context.WithoutCancel(ctx), s)
	// As a link would: the page itself leaves for a document that is slow
	// to answer.
	if _, err := (proto.RuntimeEvaluate{Expression: "location.href = '/api/slow?ms=4000&doc'"}).Do(ctx, s); err != nil {
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
