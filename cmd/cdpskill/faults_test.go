package main

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/testbrowser"
)

// Faults provoked for real, each ending the call in seconds with a typed
// error and exit 1 (issue 12). A dropped websocket is TestRemoteBrowsers'
// gateway killed mid-call; a tab closed or crashed mid-call is in
// dying_test.go.

// faultBound is how long a call that meets a fault may take: seconds, far
// from the 30 s step timeout it would otherwise wait out.
const faultBound = 10 * time.Second

// timedRun runs input and returns the result, exit code and how long the
// process took.
func (c *cli) timedRun(input string) (map[string]any, int, time.Duration) {
	c.t.Helper()
	start := time.Now()
	res, code := c.run(input)
	return res, code, time.Since(start)
}

// startCall starts input as a process and returns a function that waits
// for it and returns its result, exit code and how long it ran.
func (c *cli) startCall(t *testing.T, input string) func() (map[string]any, int, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	cmd := c.cmd(ctx, input)
	var out strings.Builder
	cmd.Stdout = &out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	return func() (map[string]any, int, time.Duration) {
		t.Helper()
		defer cancel()
		err := cmd.Wait()
		d := time.Since(start)
		if ctx.Err() != nil {
			t.Fatalf("%s: still running after %v", input, d)
		}
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		return decode(t, []byte(out.String())), code, d
	}
}

// waitTrueOn polls expr in target over conn until it is true.
func waitTrueOn(t *testing.T, conn *cdp.Conn, targetID, expr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	s, err := proto.Attach(ctx, conn, targetID)
	if err != nil {
		t.Fatal(err)
	}
	defer proto.Detach(context.WithoutCancel(ctx), s)
	for ctx.Err() == nil {
		res, err := proto.RuntimeEvaluate{Expression: expr, ReturnByValue: true}.Do(ctx, s)
		if err == nil && string(res.Result.Value) == "true" {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s never became true", expr)
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
	waitTrueOn(t, own.Conn, id, "window.started === true")
	own.Stop() // SIGKILL
	res, code, d := done()
	failedWith(t, "Chrome killed mid-step", res, code, d, "CONNECTION", "", tab, "closed during the call", "openTab")
	res, code, d = c.timedRun(fmt.Sprintf(`{"tab":%q,"steps":[{"getUrl":true}]}`, tab))
	failedWith(t, "the next call", res, code, d, "CONNECTION", "", tab, "openTab")
}

func TestTabClosedBetweenCalls(t *testing.T) {
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html")
	id := c.registry(t)[tab]["targetId"].(string)
	if err := (proto.TargetCloseTarget{TargetID: id}).Do(t.Context(), chromium(t).Conn.Browser()); err != nil {
		t.Fatal(err)
	}
	res, code, d := c.timedRun(fmt.Sprintf(`{"tab":%q,"steps":[{"getUrl":true}]}`, tab))
	failedWith(t, "a closed tab", res, code, d, "CONNECTION", "", tab, "closed", "openTab")
}

// A tab whose renderer crashed between calls is reloaded by the next one,
// which says so.
func TestCrashedTabReloadedByNextCall(t *testing.T) {
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
// end: the second that tells a busy page from a stuck one, and the stop.
const loopGrace = 3 * time.Second

// A page whose own script never yields: the step ends at its timeout
// saying the tab stopped answering, cdpskill stops the script, and the
// next call works. A loop that starts between calls, where no session can
// stop it, makes the next call reload the tab, and say so.
func TestEndlessLoopInPage(t *testing.T) {
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
	time.Sleep(200 * time.Millisecond) // the timer has fired: the page spins with no session of cdpskill's on it
	res, code, d = c.timedRun(fmt.Sprintf(`{"tab":%q,"timeout":3000,"steps":[{"pageFunction":"document.title"}]}`, tab))
	if code != 0 || stepOut(t, res, 0)["value"] != "Hello fixture" || !strings.Contains(fmt.Sprint(res["warnings"]), "reloaded") {
		t.Fatalf("the call on a tab that spun between calls: exit %d: %v", code, res)
	}
	if d > 2*faultBound {
		t.Errorf("the call on a tab that spun between calls took %v", d)
	}
}
