package runner_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
)

// A slow server is not a frozen page (issue 21): a navigation or a wait
// that runs out of time is a TimeoutError saying what was pending, ends
// within its timeout and a bound, and leaves the tab as it was; only a
// page whose own script holds its main thread is PageUnresponsiveError.
//
// These tests do not run in parallel with other tests: a call tells a page
// a navigation holds back from a page its own script holds by whether the
// page's main thread answers a probe within a second (mainThreadBusy), and
// a browser loaded by the tests beside them has missed that second, taking
// the held page for a stuck one (seen under go test).

// slowGrace is how long past its timeout a call that met a slow server
// may end: the look at whether the page's main thread is busy (a second
// at most), stopping the navigation, the report, on a shared machine. A
// correctness bound, not a speed target: the server never answers.
const slowGrace = faultBound

// slowSite serves a page with state to lose, a link to /slow, which
// answers only when the test ends, and a link to /gate, which answers
// once gate is closed.
type slowSite struct {
	*httptest.Server
	gate chan struct{}
}

func newSlowSite(t *testing.T) *slowSite {
	s := &slowSite{gate: make(chan struct{})}
	done := make(chan struct{})
	page := func(w http.ResponseWriter, title string) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><title>%s</title><h1>%s</h1><a href="/slow">Slow</a> <a href="/gate">Gated</a> <input id="f" aria-label="Note">`, title, title)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) { page(w, "Index") })
	mux.HandleFunc("/favicon.ico", http.NotFound)
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-done:
		case <-r.Context().Done():
			return
		}
		page(w, "Slow page")
	})
	mux.HandleFunc("/gate", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-s.gate:
		case <-done:
		case <-r.Context().Done():
			return
		}
		page(w, "Gated page")
	})
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	t.Cleanup(func() { close(done) }) // runs first: no handler holds Close up
	return s
}

// holdState opens a tab on the server's index and leaves in it what a
// reload would lose: a JavaScript global and a typed value.
func (s *slowSite) holdState(t *testing.T, c *cli) string {
	t.Helper()
	tab := c.openTab(s.URL + "/")
	c.call(t, tab, `{"pageFunction":"window.kept = 42"},{"fill":{"selector":"#f","value":"typed"}}`)
	return tab
}

// stateExpr reads the tab's document and what it held.
const stateExpr = `location.pathname + ' ' + window.kept + ' ' + document.querySelector('#f').value`

// keptState checks that a call on tab finds the document it was on, with
// what it held, and was not reloaded.
func keptState(t *testing.T, c *cli, tab, what string) {
	t.Helper()
	res, code, d := c.timedRun(fmt.Sprintf(`{"tab":%q,"timeout":3000,"steps":[{"pageFunction":%q}]}`, tab, stateExpr))
	if code != 0 || stepOut(t, res, 0)["value"] != "/ 42 typed" {
		t.Fatalf("%s: the next call does not find the page as it was: exit %d: %v", what, code, res)
	}
	if w := fmt.Sprint(res["warnings"]); strings.Contains(w, "reload") {
		t.Errorf("%s: the next call reloaded the tab: %s", what, w)
	}
	if d > faultBound {
		t.Errorf("%s: the next call took %v", what, d)
	}
}

// A goto to a server that does not answer in time, waiting for load or
// only for the commit, is a TimeoutError naming the URL and the page the
// tab still shows; the navigation is stopped, and the next call finds the
// page as it was, not reloaded.
func TestSlowServerGoto(t *testing.T) {
	// Not parallel: see the note above.
	s := newSlowSite(t)
	c := newCLI(t)
	tab := s.holdState(t, c)
	for _, waitUntil := range []string{"load", "commit"} {
		res, code, d := c.timedRun(fmt.Sprintf(`{"tab":%q,"timeout":2000,"steps":[{"goto":{"url":%q,"waitUntil":%q}}]}`, tab, s.URL+"/slow", waitUntil))
		what := "a goto waiting for " + waitUntil
		failedWith(t, what, res, code, d, "EXECUTION", "TimeoutError", "no response from "+s.URL+"/slow after", "still shows "+s.URL+"/")
		if d > 2*time.Second+slowGrace {
			t.Errorf("%s: the call ended %v after its 2 s timeout", what, d-2*time.Second)
		}
		keptState(t, c, tab, what)
	}
}

// A wait that runs out while a navigation the page began is still
// pending (a click on a link to a slow server) is a TimeoutError saying
// so, not PageUnresponsiveError: Chrome holds back the page's calls, but
// its main thread is free. The click itself went through. The next call,
// whose setup the navigation holds back for its whole timeout, runs none
// of its steps, says why, and stops the navigation; the call after finds
// the page as it was.
func TestSlowServerWait(t *testing.T) {
	// Not parallel: see the note above.
	s := newSlowSite(t)
	c := newCLI(t)
	tab := s.holdState(t, c)
	res, code, d := c.timedRun(fmt.Sprintf(`{"tab":%q,"timeout":2000,"steps":[{"click":{"text":"Slow"},"timeout":1000},{"wait":{"text":"Slow page"}}]}`, tab))
	failedWith(t, "a wait behind a slow navigation", res, code, d, "EXECUTION", "TimeoutError",
		"timed out", "between documents", s.URL+"/slow", "still shows "+s.URL+"/")
	if click := stepOut(t, res, 0); click["clicked"] != true {
		t.Errorf("the click on the link: %v", res["steps"])
	}
	if d > 3*time.Second+slowGrace {
		t.Errorf("the call ended %v after its steps' 3 s", d-3*time.Second)
	}

	res, code, d = c.timedRun(fmt.Sprintf(`{"tab":%q,"timeout":2000,"steps":[{"pageFunction":%q}]}`, tab, stateExpr))
	failedWith(t, "a call on the tab still navigating", res, code, d, "EXECUTION", "TimeoutError",
		tab, "none of your steps ran", "between documents", "stopped that navigation", "still shows "+s.URL+"/")
	if d > 2*time.Second+slowGrace {
		t.Errorf("the call on the tab still navigating ended %v after its 2 s timeout", d-2*time.Second)
	}
	keptState(t, c, tab, "after the stopped navigation")
}

// A navigation still pending when a call begins may commit while that
// call waits for it: the call then runs on the new page, with no reload.
func TestSlowNavigationCommitsDuringNextCall(t *testing.T) {
	// Not parallel: see the note above.
	s := newSlowSite(t)
	c := newCLI(t)
	tab := s.holdState(t, c)
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"timeout":1000,"steps":[{"click":{"text":"Gated"}}]}`, tab))
	if code != 0 || stepOut(t, res, 0)["clicked"] != true {
		t.Fatalf("the click on the gated link: exit %d: %v", code, res)
	}
	tr := cdp.NewTrace()
	done := c.startTraced(t, tr, fmt.Sprintf(`{"tab":%q,"timeout":15000,"steps":[{"pageFunction":"location.pathname + ' ' + document.title"}]}`, tab))
	// The call's setup has found the page held back (watchSetup looks at
	// its main thread after a second of silence) and waits; then the
	// server answers.
	waitTraced(t, tr, "Performance.getMetrics")
	close(s.gate)
	res, code, d := done()
	if code != 0 || stepOut(t, res, 0)["value"] != "/gate Gated page" {
		t.Fatalf("the call the navigation committed during: exit %d: %v", code, res)
	}
	if w := fmt.Sprint(res["warnings"]); strings.Contains(w, "reload") {
		t.Errorf("the tab was reloaded: %s", w)
	}
	if d > faultBound {
		t.Errorf("the call took %v", d)
	}
}

// Beside those, a page whose own script spins (a timer's endless loop)
// while a wait runs is still PageUnresponsiveError: its main thread is
// proven busy, the script is stopped, and the next call works.
func TestSpinningPageStillUnresponsive(t *testing.T) {
	// Not parallel: see the note above.
	s := newSlowSite(t)
	c := newCLI(t)
	tab := s.holdState(t, c)
	res, code, d := c.timedRun(fmt.Sprintf(`{"tab":%q,"timeout":2000,"steps":[{"pageFunction":"setTimeout(() => { window.spun = true; while (true) {} }, 100)"},{"wait":{"text":"never appears"}}]}`, tab))
	failedWith(t, "a wait on a spinning page", res, code, d, "EXECUTION", "PageUnresponsiveError", tab, "endless loop", "stopped that script")
	if d > 2*time.Second+loopGrace {
		t.Errorf("the call ended %v after its 2 s timeout", d-2*time.Second)
	}
	res, code, _ = c.timedRun(fmt.Sprintf(`{"tab":%q,"timeout":3000,"steps":[{"pageFunction":"window.spun + ' ' + window.kept"}]}`, tab))
	if code != 0 || stepOut(t, res, 0)["value"] != "true 42" {
		t.Fatalf("the call after the stopped script: exit %d: %v", code, res)
	}
}
