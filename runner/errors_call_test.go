package runner_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp/proto"
)

// goSpeak is what an error message must never say to an agent.
var goSpeak = regexp.MustCompile(`context deadline exceeded|context canceled|Runtime\.evaluate|goroutine|panic|\bnil\b`)

// checkMessage fails when a step error speaks Go or repeats itself.
func checkMessage(t *testing.T, e map[string]any) {
	t.Helper()
	msg, _ := e["error"].(string)
	if goSpeak.MatchString(msg) {
		t.Errorf("the message speaks Go: %q", msg)
	}
	action, _ := e["action"].(string)
	if s := stutter(action, msg); s != "" {
		t.Error(s)
	}
}

// stutter says how a step's error message repeats itself, or "": the
// step's name in front of it (the result names the action), or a wrapped
// error that says again the words before it. Every call the tests make
// is checked (cli.exec), as nothing tidies a message after its source.
func stutter(action, msg string) string {
	if action != "" && strings.HasPrefix(msg, action+": ") {
		return fmt.Sprintf("the message repeats the action %s: %q", action, msg)
	}
	parts := strings.Split(msg, ": ")
	for i := 1; i < len(parts); i++ {
		if parts[i] == parts[i-1] {
			return fmt.Sprintf("the message repeats itself: %q", msg)
		}
	}
	return ""
}

// Every failed step names its spec subtype, provoked for real in a real
// browser, and says what happened in the agent's words. (PageCrashedError
// is TestPageCrashMidCall's, the CONNECTION of a closed tab
// TestTabClosedByOtherMidCall's.)
func TestErrorSubtypes(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	cases := []struct {
		name, page, steps string
		subtype           string
		says              string // the message contains
	}{
		{"missing element", "report.html", `{"click":"#nope","timeout":400}`, "ElementNotFoundError", `"#nope"`},
		{"wait runs out", "report.html", `{"wait":"#never","timeout":300}`, "TimeoutError", "timed out"},
		{"sleep past the step's timeout", "report.html", `{"sleep":500,"timeout":100}`, "TimeoutError", "timed out after 100 ms (the step's timeout)"},
		{"promise that never settles", "report.html", `{"pageFunction":"new Promise(() => {})","timeout":300}`, "TimeoutError", "timed out"},
		{"text into a heading", "report.html", `{"fill":{"selector":"#title","value":"x"}}`, "ElementNotEditableError", "not a form field"},
		{"text into a checkbox", "report.html", `{"fill":{"selector":"#done","value":"x"}}`, "StepValidationError", "give true or false"},
		{"selector that does not parse", "report.html", `{"click":"##bad"}`, "StepValidationError", "##bad"},
		{"host that does not resolve", "report.html", `{"goto":"http://no-such-host.invalid/"}`, "NavigationError", "does not resolve"},
		{"iframe removed mid-evaluation", "errors-parent.html",
			`{"frame":"#child"},{"pageFunction":"() => { parent.setTimeout(() => parent.document.getElementById('child').remove(), 100); return new Promise(() => {}) }"}`,
			"ContextDestroyedError", "went away"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tab := c.openTab(fixture.URL + "/" + tc.page)
			res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[%s]}`, tab, tc.steps))
			e := firstError(res)
			if code != 1 || e == nil || e["type"] != "EXECUTION" || e["name"] != tc.subtype || !strings.Contains(fmt.Sprint(e["error"]), tc.says) {
				t.Fatalf("got %v", res)
			}
			checkMessage(t, e)
		})
	}
}

// A ref from the document before a navigation is stale at once.
func TestStaleRefSubtype(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/report.html")
	ref := refOn(t, c.call(t, tab, `{"snapshot":true}`)[0]["yaml"].(string), `button "Add item"`)
	c.call(t, tab, fmt.Sprintf(`{"goto":%q}`, fixture.URL+"/report.html?again"))
	res, _ := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":%q}]}`, tab, ref))
	if e := firstError(res); e == nil || e["name"] != "StaleElementError" {
		t.Fatalf("got %v", res)
	} else {
		checkMessage(t, e)
	}
}

// A goto superseded by another navigation before its page answered is
// NavigationAbortedError.
func TestNavigationAbortedSubtype(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html")
	id := c.registry(t)[tab]["targetId"].(string)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	for len(slowHits) > 0 {
		<-slowHits
	}
	done := c.startCall(t, fmt.Sprintf(`{"tab":%q,"steps":[{"goto":%q}]}`, tab, fixture.URL+"/api/slow?ms=3000&doc"))
	s, err := proto.Attach(ctx, chromium(t).Conn, id)
	if err != nil {
		t.Fatal(err)
	}
	defer proto.Detach(context.WithoutCancel(ctx), s)
	select { // the goto's request has reached the server
	case <-slowHits:
	case <-time.After(10 * time.Second):
		t.Fatal("the goto never asked for its page")
	}
	if _, err := (proto.PageNavigate{URL: fixture.URL + "/small.html"}).Do(ctx, s); err != nil {
		t.Fatal(err)
	}
	res, _, _ := done()
	if e := firstError(res); e == nil || e["name"] != "NavigationAbortedError" {
		t.Fatalf("got %v", res)
	} else {
		checkMessage(t, e)
	}
}

// A call on an alias no registry knows is a CONNECTION error that does
// not pretend to have used that tab.
func TestUnknownTabIsNotTheCallsTab(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	res, code := c.run(`{"tab":"t77","steps":[{"getTitle":true}]}`)
	if typ, msg := errorOf(res); code != 1 || typ != "CONNECTION" || res["tab"] != nil || !strings.Contains(msg, "t77") {
		t.Errorf("got %v", res)
	}
}
