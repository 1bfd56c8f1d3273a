package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/internal/testbrowser"
)

func TestParallelOpenTabsGetDistinctAliases(t *testing.T) {
	c := newCLI(t)
	const n = 4
	aliases := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, code := c.run(fmt.Sprintf(`{"steps":[{"openTab":{"host":%q,"port":%d}}]}`, chromium(t).Endpoint.Host, chromium(t).Endpoint.Port))
			if code == 0 {
				aliases[i], _ = res["tab"].(string)
			}
		}()
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, a := range aliases {
		if a == "" || seen[a] {
			t.Fatalf("aliases %v are not distinct", aliases)
		}
		seen[a] = true
		t.Cleanup(func() { c.run(fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, a)) })
	}
	data, err := os.ReadFile(filepath.Join(c.tmp, "cdp-skill-tabs.json"))
	if err != nil {
		t.Fatal(err)
	}
	var reg struct {
		Tabs map[string]any `json:"tabs"`
	}
	if err := json.Unmarshal(data, &reg); err != nil {
		t.Fatal(err)
	}
	for _, a := range aliases {
		if _, ok := reg.Tabs[a]; !ok {
			t.Errorf("registry lost %s: %s", a, data)
		}
	}
}

func TestChromeKilledMidBatch(t *testing.T) {
	own, err := testbrowser.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer own.Stop()
	c := newCLI(t)
	res, code := c.run(fmt.Sprintf(`{"steps":[{"openTab":{"url":%q,"host":%q,"port":%d}}]}`,
		fixture.URL+"/hello.html", own.Endpoint.Host, own.Endpoint.Port))
	if code != 0 {
		t.Fatalf("openTab: %v", res)
	}
	tab := res["tab"].(string)
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	cmd := c.cmd(ctx, fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"window.started = true"},{"wait":{"text":"never appears"}}]}`, tab))
	var out strings.Builder
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	testbrowser.WaitTrue(t, own.Conn, c.registry(t)[tab]["targetId"].(string), "window.started === true") // the call waits
	own.Stop()
	err = cmd.Wait()
	if ctx.Err() != nil {
		t.Fatal("cdpskill hung after Chrome died")
	}
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 1 {
		t.Fatalf("exit: %v", err)
	}
	res = decode(t, []byte(out.String()))
	errs, _ := res["errors"].([]any)
	if len(errs) != 1 || errs[0].(map[string]any)["type"] != "CONNECTION" {
		t.Fatalf("got %v", res)
	}
}

func TestMetricsAndDebugLog(t *testing.T) {
	c := newCLI(t)
	metrics := filepath.Join(c.tmp, "m", "metrics.jsonl")
	work := t.TempDir()
	cmd := exec.Command(binary, "--debug", `{"steps":[{"sleep":1}]}`)
	cmd.Env = append(c.env(), "CDP_METRICS_FILE="+metrics)
	cmd.Dir = work
	if out, err := cmd.Output(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	data, err := os.ReadFile(metrics)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("metrics line: %v: %s", err, data)
	}
	for _, k := range []string{"ts", "input_bytes", "output_bytes", "steps", "time_ms"} {
		if _, ok := m[k]; !ok {
			t.Errorf("metrics lack %s: %s", k, data)
		}
	}
	logs, _ := filepath.Glob(filepath.Join(work, "log", "001-sleep.ok.json"))
	if len(logs) != 1 {
		entries, _ := os.ReadDir(filepath.Join(work, "log"))
		t.Fatalf("debug log missing; log/ has %v", entries)
	}
	// The log says where a call's time went: every CDP call, timed.
	cmd = exec.Command(binary, "--debug", `{"steps":[{"listTabs":true}]}`)
	cmd.Env = append(c.env(), fmt.Sprintf("CDP_URL=http://%s:%d", chromium(t).Endpoint.Host, chromium(t).Endpoint.Port))
	cmd.Dir = work
	if out, err := cmd.Output(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	type cdpCall struct {
		Method string
		Ms     float64
	}
	var log struct {
		Ms  *int64
		CDP []cdpCall
	}
	data, _ = os.ReadFile(filepath.Join(work, "log", "002-listTabs.ok.json"))
	if err := json.Unmarshal(data, &log); err != nil || log.Ms == nil ||
		!slices.ContainsFunc(log.CDP, func(e cdpCall) bool { return e.Method == "Target.getTargets" }) {
		t.Errorf("debug log lacks the call's time or its CDP calls (%v): %s", err, data)
	}
}

// Processes acting on one tab at once each get a number of their own in
// its history: they take turns with the tab, and each reads the history
// the one before left.
func TestCallsOnOneTabNumberApart(t *testing.T) {
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/report.html") // call 1
	const n = 4
	shots := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#add"}]}`, tab))
			if code != 0 {
				t.Errorf("call %d: %v", i, res)
			}
			shots[i], _ = res["screenshot"].(string)
		}()
	}
	wg.Wait()
	dir := filepath.Join(c.tmp, "cdp-skill", tab+".history")
	slices.Sort(shots)
	for i, s := range shots {
		if want := filepath.Join(dir, fmt.Sprintf("%04d.after.png", i+2)); s != want {
			t.Errorf("screenshots %v, want 0002 to 0005", shots)
			break
		}
	}
	index, err := os.ReadFile(filepath.Join(dir, "index.jsonl"))
	if err != nil || strings.Count(string(index), "\n") != n+1 {
		t.Errorf("index: %v\n%s", err, index)
	}
}

// Two calls on one tab take turns instead of interleaving.
func TestCallsOnOneTabTakeTurns(t *testing.T) {
	c := newCLI(t)
	tab := c.openTab("about:blank")
	// The first call holds the tab long enough for the second, a process
	// started on a loaded machine, to find it held.
	first := c.cmd(t.Context(), fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"window.log='a1'"},{"sleep":5000},{"pageFunction":"window.log+='a2'"}]}`, tab))
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	c.waitTrue(t, tab, "window.log === 'a1'") // the first call holds the tab
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"window.log+='b'"},{"pageFunction":"window.log"}]}`, tab))
	first.Wait()
	out := stepOutputs(t, res)[1]["output"].(map[string]any)
	if code != 0 || out["value"] != "a1a2b" {
		t.Fatalf("the calls interleaved: %v", res)
	}
	if w := fmt.Sprint(res["warnings"]); !strings.Contains(w, "waited") {
		t.Errorf("the second call does not say it waited: %v", res)
	}
	// Held until the test has seen it held, however long a loaded machine
	// takes to start the next process; then interrupted.
	busy := c.cmd(t.Context(), fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"window.busy=1"},{"sleep":30000}]}`, tab))
	if err := busy.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = busy.Process.Signal(syscall.SIGTERM)
		_ = busy.Wait()
	}()
	c.waitTrue(t, tab, "window.busy === 1")
	res, code = c.run(fmt.Sprintf(`{"tab":%q,"timeout":300,"steps":[{"getUrl":true}]}`, tab))
	if typ, msg := errorOf(res); code != 1 || typ != "CONNECTION" || !strings.Contains(msg, "busy") {
		t.Fatalf("a tab held past the timeout: %v", res)
	}
}

// A call its harness gives up on (SIGTERM, or Ctrl-C's SIGINT) ends at
// once, still printing its one JSON line, an error, with exit 1; the tab
// is free for the next call.
func TestInterruptedCall(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			c := newCLI(t)
			tab := c.openTab(fixture.URL + "/hello.html")
			ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
			defer cancel()
			cmd := c.cmd(ctx, fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"window.started = true"},{"wait":{"text":"never appears"}}]}`, tab))
			var out strings.Builder
			cmd.Stdout = &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			c.waitTrue(t, tab, "window.started === true")
			start := time.Now()
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			if d := time.Since(start); d > 15*time.Second { // not at the 30 s its wait would take
				t.Errorf("the call ended %v after the signal", d)
			}
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
				t.Fatalf("exit: %v: %s", err, out.String())
			}
			if strings.Count(out.String(), "\n") != 1 {
				t.Fatalf("want one JSON line, got %q", out.String())
			}
			if res := decode(t, []byte(out.String())); res["status"] != "error" || firstError(res) == nil {
				t.Fatalf("got %v", res)
			}
			if _, code, d := c.timedRun(fmt.Sprintf(`{"tab":%q,"steps":[{"getUrl":true}]}`, tab)); code != 0 || d > 10*time.Second {
				t.Errorf("the next call: exit %d after %v", code, d)
			}
		})
	}
}
