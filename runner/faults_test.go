package runner_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/testbrowser"
	"github.com/cdpskill/cdpskill/runner"
)

// Faults provoked for real, each ending the call in seconds with a typed
// error and exit 1 (issue 12). A dropped websocket is TestRemoteBrowsers'
// gateway killed mid-call; a tab closed or crashed mid-call is in
// dying_test.go.

// faultBound is how long a call that meets a fault may take: seconds, far
// from the 30 s step timeout it would otherwise wait out.
const faultBound = 10 * time.Second

// timedRun runs input and returns the result, exit code and how long the
// call took.
func (c *cli) timedRun(input string) (map[string]any, int, time.Duration) {
	c.t.Helper()
	start := time.Now()
	res, code := c.run(input)
	return res, code, time.Since(start)
}

// startCall starts input and returns a function that waits for it and
// returns its result, exit code and how long it ran.
func (c *cli) startCall(t *testing.T, input string) func() (map[string]any, int, time.Duration) {
	t.Helper()
	return c.startTraced(t, nil, input)
}

// startTraced is startCall recording the call's CDP calls in tr as their
// replies come, so that a test can wait for the call to get somewhere
// (waitTraced).
func (c *cli) startTraced(t *testing.T, tr *cdp.Trace, input string) func() (map[string]any, int, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(cdp.WithTrace(t.Context(), tr), 60*time.Second)
	opts := c.options(nil)
	type ran struct {
		res  *runner.Result
		took time.Duration
	}
	done := make(chan ran, 1)
	start := time.Now()
	go func() {
		res := runner.Run(ctx, []byte(input), opts)
		done <- ran{res, time.Since(start)}
	}()
	return func() (map[string]any, int, time.Duration) {
		t.Helper()
		defer cancel()
		r := <-done
		if ctx.Err() != nil {
			t.Fatalf("%s: still running after %v", input, r.took)
		}
		out, err := runner.Encode(r.res)
		if err != nil {
			t.Fatal(err)
		}
		return decode(t, out), r.res.ExitCode(), r.took
	}
}

// closeBehindBack closes a tab as its user would, not through cdpskill,
// and waits until Chrome lists it no more: Target.closeTarget answers
// before the tab is gone.
func closeBehindBack(t *testing.T, conn *cdp.Conn, targetID string) {
	t.Helper()
	if err := (proto.TargetCloseTarget{TargetID: targetID}).Do(t.Context(), conn.Browser()); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		res, err := proto.TargetGetTargets{}.Do(t.Context(), conn.Browser())
		if err != nil {
			t.Fatal(err)
		}
		listed := false
		for _, ti := range res.TargetInfos {
			listed = listed || ti.TargetID == targetID
		}
		if !listed {
			return
		}
	}
	t.Fatalf("tab %s is still listed after it was closed", targetID)
}

// waitTraced waits until tr has recorded the reply to a call of method.
func waitTraced(t *testing.T, tr *cdp.Trace, method string) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if slices.ContainsFunc(tr.Entries(), func(e cdp.TraceEntry) bool { return e.Method == method }) {
			return
		}
	}
	t.Fatalf("the call never sent %s", method)
}

// waitSpinning waits until the page of targetID stops answering: its own
// script holds the main thread. The session that looked is gone after.
func waitSpinning(t *testing.T, conn *cdp.Conn, targetID string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	s, err := proto.Attach(ctx, conn, targetID)
	if err != nil {
		t.Fatal(err)
	}
	defer proto.Detach(context.WithoutCancel(ctx), s)
	for ctx.Err() == nil {
		// A page that spins never answers; one that does not answers well
		// within 2 s, even on a loaded machine.
		probe, stop := context.WithTimeout(ctx, 2*time.Second)
		_, err := proto.RuntimeEvaluate{Expression: "1"}.Do(probe, s)
		stop()
		if err != nil && probe.Err() != nil && ctx.Err() == nil {
			return // no answer: the page spins
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the page never stopped answering")
}

// failedWith checks a call that met a fault: exit 1, the typed error
// (in errors[] or, before any step ran, in error) whose message holds
// each of words, within faultBound.
func failedWith(t *testing.T, what string, res map[string]any, code int, d time.Duration, typ, name string, words ...string) {
	t.Helper()
	e := firstError(res)
	msg, _ := e["error"].(string)
	if e == nil {
		e, _ = res["error"].(map[string]any)
		msg, _ = e["message"].(string)
	}
	gotName, _ := e["name"].(string)
	if code != 1 || e == nil || e["type"] != typ || gotName != name {
		t.Fatalf("%s: exit %d, want exit 1 with %s %s: %v", what, code, typ, name, res)
	}
	for _, w := range words {
		if !strings.Contains(msg, w) {
			t.Errorf("%s: the message lacks %q: %s", what, w, msg)
		}
	}
	if d > faultBound {
		t.Errorf("%s took %v", what, d)
	}
}

func TestChromeKilledMidStep(t *testing.T) {
	t.Parallel()
	own, err := testbrowser.Start() // not the shared one: this one dies
	if err != nil {
		t.Fatal(err)
	}
	defer own.Stop()
	c := newCLI(t)
	res, code := c.run(fmt.Sprintf(`{"steps":[{"openTab":{"url":%q,"host":%q,"port":%d}}]}`, fixture.URL+"/hello.html", own.Endpoint.Host, own.Endpoint.Port))
	if code != 0 {
		t.Fatal(res)
	}
	tab := res["tab"].(string)
	id := c.registry(t)[tab]["targetId"].(string)
	done := c.startCall(t, fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"window.started = true"},{"wait":{"text":"never appears"}}]}`, tab))
	testbrowser.WaitTrue(t, own.Conn, id, "window.started === true")
	own.Stop() // SIGKILL
	res, code, d := done()
	failedWith(t, "Chrome killed mid-step", res, code, d, "CONNECTION", "", tab, "closed during the call", "openTab")
	res, code, d = c.timedRun(fmt.Sprintf(`{"tab":%q,"steps":[{"getUrl":true}]}`, tab))
	failedWith(t, "the next call", res, code, d, "CONNECTION", "", tab, "openTab")
}

func TestTabClosedBetweenCalls(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html")
	id := c.registry(t)[tab]["targetId"].(string)
	closeBehindBack(t, chromium(t).Conn, id)
	res, code, d := c.timedRun(fmt.Sprintf(`{"tab":%q,"steps":[{"getUrl":true}]}`, tab))
	failedWith(t, "a closed tab", res, code, d, "CONNECTION", "", tab, "closed", "openTab")
}

// A tab whose renderer crashed between calls is reloaded by the next one,
// which says so.
func TestCrashedTabReloadedByNextCall(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html?crash")
	c.call(t, tab, `{"pageFunction":"window.kept = 1"}`)
	id := c.registry(t)[tab]["targetId"].(string)
	s, err := proto.Attach(t.Context(), chromium(t).Conn, id)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	proto.PageCrash{}.Do(ctx, s) // never answers: the renderer is gone
	cancel()
	res, code, d := c.timedRun(fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"location.search + ':' + window.kept"}]}`, tab))
	if code != 0 || stepOut(t, res, 0)["value"] != "?crash:undefined" || !strings.Contains(fmt.Sprint(res["warnings"]), "crashed") {
		t.Fatalf("exit %d: %v", code, res)
	}
	if d > faultBound {
		t.Errorf("took %v", d)
	}
}

// An iframe removed while a step evaluates inside it ends the step at
// once with ContextDestroyedError, whatever the step.
func TestFrameRemovedMidStep(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html")
	addFrame := `{"frame":"top"},{"pageFunction":"window.started = false; document.body.insertAdjacentHTML('beforeend', '<iframe name=f srcdoc=\"<p>in frame</p>\"></iframe>')"},{"wait":{"selector":"iframe"}}`
	for _, step := range []string{
		`{"wait":{"text":"never appears"}}`,
		`{"poll":"() => false"}`,
		`{"pageFunction":"() => new Promise(() => {})"}`,
	} {
		c.call(t, tab, addFrame)
		done := c.startCall(t, fmt.Sprintf(`{"tab":%q,"timeout":20000,"steps":[{"frame":"iframe[name=f]"},{"pageFunction":"parent.started = true"},%s]}`, tab, step))
		c.waitTrue(t, tab, "window.started === true")
		c.waitTrue(t, tab, "(document.querySelector('iframe').remove(), true)")
		res, code, d := done()
		failedWith(t, step, res, code, d, "EXECUTION", "ContextDestroyedError")
	}
}

// loopGrace is how long past its deadline a call on a spinning page may
// end: the second that tells a busy page from a stuck one, and the stop,
// on a shared machine. A correctness bound, not a speed target: the
// script never yields.
const loopGrace = faultBound

// A page whose own script never yields: the step ends at its timeout
// saying the tab stopped answering, cdpskill stops the script, and the
// next call works. A loop that starts between calls, where no session can
// stop it, makes the next call reload the tab, and say so.
func TestEndlessLoopInPage(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html")
	c.call(t, tab, `{"pageFunction":"document.body.insertAdjacentHTML('beforeend', '<button onclick=\"window.spun = true; while (true) {}\">Spin</button>')"}`)
	res, code, d := c.timedRun(fmt.Sprintf(`{"tab":%q,"timeout":3000,"steps":[{"click":{"text":"Spin"}}]}`, tab))
	failedWith(t, "a click whose handler never returns", res, code, d, "EXECUTION", "PageUnresponsiveError", tab, "stopped that script")
	if d > 3*time.Second+loopGrace {
		t.Errorf("the call ended %v after its 3 s deadline", d-3*time.Second)
	}
	res, code, d = c.timedRun(fmt.Sprintf(`{"tab":%q,"timeout":3000,"steps":[{"pageFunction":"window.spun"}]}`, tab))
	if code != 0 || stepOut(t, res, 0)["value"] != true || d > faultBound {
		t.Fatalf("the call after the stopped script: exit %d in %v: %v", code, d, res)
	}

	// The agent's own script that never yields ends at its timeout, stopped.
	res, code, d = c.timedRun(fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":{"fn":"() => { while (true) {} }","timeout":2000}},{"pageFunction":"1"}]}`, tab))
	failedWith(t, "a pageFunction that never yields", res, code, d, "EXECUTION", "TimeoutError", "timed out")
	if d > 2*time.Second+loopGrace {
		t.Errorf("the call ended %v after its 2 s deadline", d-2*time.Second)
	}
	res, code, _ = c.timedRun(fmt.Sprintf(`{"tab":%q,"timeout":3000,"steps":[{"pageFunction":"document.title"}]}`, tab))
	if code != 0 || stepOut(t, res, 0)["value"] != "Hello fixture" {
		t.Fatalf("the call after the stopped pageFunction: exit %d: %v", code, res)
	}

	c.waitTrue(t, tab, "(setTimeout(() => { while (true) {} }, 50), true)")
	// The timer has fired: the page spins with no session of cdpskill's on it.
	waitSpinning(t, chromium(t).Conn, c.registry(t)[tab]["targetId"].(string))
	res, code, d = c.timedRun(fmt.Sprintf(`{"tab":%q,"timeout":3000,"steps":[{"pageFunction":"document.title"}]}`, tab))
	if code != 0 || stepOut(t, res, 0)["value"] != "Hello fixture" || !strings.Contains(fmt.Sprint(res["warnings"]), "reloaded") {
		t.Fatalf("the call on a tab that spun between calls: exit %d: %v", code, res)
	}
	if d > 2*faultBound {
		t.Errorf("the call on a tab that spun between calls took %v", d)
	}
}
