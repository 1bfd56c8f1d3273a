package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/chrome"
	"github.com/cdpskill/cdpskill/dom"
	"github.com/cdpskill/cdpskill/fleet"
	"github.com/cdpskill/cdpskill/page"
	"github.com/cdpskill/cdpskill/tab"
)

// An error the step's context's end caused says so in the agent's words:
// the step's timeout ran out, or the call was interrupted. Only Go's words
// for that cause, at the end of the message, are replaced.
func TestClassifyUnder(t *testing.T) {
	missing := &dom.NotFoundError{Target: dom.Target{Selector: "#a"}}
	cases := []struct {
		err  error
		want string
	}{
		{context.DeadlineExceeded, "timed out after 2000 ms (the step's timeout)"},
		{&page.WaitTimeoutError{Condition: `selector "#x"`, Seen: "found 0", Err: context.DeadlineExceeded}, `timed out waiting for selector "#x" (found 0)`},
		{fmt.Errorf("cannot attach: %w", context.DeadlineExceeded), "cannot attach (timed out after 2000 ms, the step's timeout)"},
		{&dom.TimeoutError{Action: dom.ActionClick, Last: missing, Err: context.DeadlineExceeded}, `element not found: nothing matches selector "#a" (still so when the step timed out)`},
		{&Error{Type: Execution, Message: "held: context deadline exceeded", Err: context.DeadlineExceeded}, "held (timed out after 2000 ms, the step's timeout)"},
		{fmt.Errorf("reading: %w", context.Canceled), "reading: the call was interrupted"},
		{context.Canceled, "the call was interrupted"},
		{errors.New("the page said: context deadline exceeded"), "the page said: context deadline exceeded"},
	}
	for _, c := range cases {
		if got := classifyUnder(c.err, 2*time.Second).Message; got != c.want {
			t.Errorf("classifyUnder(%q) = %q, want %q", c.err, got, c.want)
		}
	}
}

// A miss whose nearest match reads exactly as asked says how to reach it.
func TestExactElsewhere(t *testing.T) {
	exact := &dom.Diagnostics{NearMatches: []dom.ElementHint{{Text: "All", Selector: "li > a", Ref: "s1e4", Role: "link", Score: 100}}}
	close := &dom.Diagnostics{NearMatches: []dom.ElementHint{{Text: "Alls", Selector: "a", Role: "link", Score: 86}}}
	heading := &dom.Diagnostics{NearMatches: []dom.ElementHint{{Text: "todos", Selector: "h1", Role: "heading", Score: 100}}}
	cases := []struct {
		err  error
		d    *dom.Diagnostics
		want string
	}{
		{&dom.NotFoundError{Target: dom.Target{Selector: "All"}}, exact, `; a link reads "All": to click it by its text, give {"text":"All"}, or its ref "s1e4"`},
		{&dom.NotFoundError{Target: dom.Target{Text: "todos"}}, heading, `; a heading reads "todos" but is not something a click by text takes: target it with {"selector":"h1"}`},
		{&dom.NotFoundError{Target: dom.Target{Text: "All"}}, exact, `; a link reading "All" came as the wait ended: run the step again, or target it with "s1e4"`},
		{&dom.NotFoundError{Target: dom.Target{Selector: "All"}}, close, ""},
		{&dom.NotFoundError{Target: dom.Target{Label: "All"}}, exact, ""},
	}
	for _, c := range cases {
		if got := exactElsewhere(c.err, c.d); got != c.want {
			t.Errorf("exactElsewhere(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}

// The tab layer's errors keep their type, subtype and message through
// classify, as the runner's own did: a remote endpoint that did not
// answer in time is a CONNECTION error, not a TimeoutError.
func TestClassifyTabErrors(t *testing.T) {
	remote, _ := chrome.ParseEndpoint("wss://gateway.example/devtools?token=secret")
	cases := []struct {
		err        error
		typ        ErrType
		name, want string
	}{
		{&tab.ConnectError{Endpoint: remote, Alias: "t3", Err: context.DeadlineExceeded}, Connection, "",
			"tab t3: cannot connect to Chrome at wss://gateway.example/devtools?token=***: context deadline exceeded (the remote endpoint refused, dropped or did not answer; no local Chrome is launched when an endpoint is set)"},
		{&tab.HeldError{Alias: "t1", Timeout: 2 * time.Second, Held: page.Held{Shows: "https://a.example/"}, Stopped: true}, Execution, "TimeoutError",
			"tab t1 did not answer within the call's timeout (2000 ms), so none of your steps ran: the tab is between documents: a navigation has had no response yet, and Chrome holds back every call to the page until it commits; cdpskill has stopped that navigation, as the Stop button does, so the tab still shows https://a.example/, as it was, with all it held (go there again with a longer timeout if you need the new page)"},
		{&tab.GoneError{Alias: "t2", During: true}, Connection, "", "tab t2 was closed during the call; open a new one with openTab"},
		{&tab.ConnectError{Endpoint: remote, Alias: "t3", Err: fleet.Explain(context.Background(), remote, &cdp.HandshakeError{Status: 401, Said: "bad token"})}, Connection, "",
			"tab t3: the server at wss://gateway.example/devtools?token=*** refused the token (HTTP 401 Unauthorized: bad token): check the token in its URL"},
		{&tab.DroppedError{Alias: "t4", Remote: true, Err: &cdp.ClosedError{Endpoint: "wss://gateway.example/devtools?token=***", Err: io.EOF, After: 30 * time.Second}}, Connection, "",
			"tab t4: the endpoint at wss://gateway.example/devtools?token=*** closed the connection after 30 s (its job timeout?), so the call stopped there; that alone does not close the tab: run the call again, in shorter batches if the server cuts long calls"},
		{&tab.DroppedError{Alias: "t5", Err: &cdp.ClosedError{Endpoint: "localhost:9222", Err: io.EOF, After: time.Second}}, Connection, "",
			"tab t5: the connection to Chrome at localhost:9222 closed during the call (Chrome exited or was killed, or the endpoint dropped it); open a new tab with openTab"},
		{&tab.UnknownError{Tab: "t9"}, Connection, "", `unknown tab "t9": no such alias; listTabs shows the open tabs, openTab opens a new one`},
	}
	for _, c := range cases {
		e := classify(c.err)
		if e.Type != c.typ || e.Name != c.name || e.Message != c.want || e.Hint != "" {
			t.Errorf("classify(%T) = %s %q %q (hint %q)", c.err, e.Type, e.Name, e.Message, e.Hint)
		}
	}
}
