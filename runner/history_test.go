package runner_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/cdp/proto"
)

// A tab's history: each call's screenshot and full snapshot are files of
// their own, numbered per tab, with a line each in the tab's index; the
// history step lists them, keepArtifacts copies them out, closeTab
// removes them.

// historyFiles are the numbered files in dir, sorted.
func historyFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.Name() != "index.jsonl" {
			out = append(out, e.Name())
		}
	}
	return out
}

// Five calls leave five screenshots and five full snapshots, each call's
// own, and five lines in the index, which history lists newest last.
func TestHistoryOfFiveCalls(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/report.html") // call 1
	dir := filepath.Join(c.tmp, "cdp-skill", tab+".history")
	var shots []string
	for i := 2; i <= 6; i++ {
		steps := `{"click":"#add"}`
		if i == 6 {
			steps = `{"click":{"text":"Add itemz","timeout":500}}`
		}
		res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[%s]}`, tab, steps))
		if (code != 0) != (i == 6) {
			t.Fatalf("call %d: %v", i, res)
		}
		shot, _ := res["screenshot"].(string)
		if want := filepath.Join(dir, fmt.Sprintf("%04d.after.png", i)); shot != want {
			t.Fatalf("call %d's screenshot is %q, want %s", i, shot, want)
		}
		if want := filepath.Join(dir, fmt.Sprintf("%04d.after.yaml", i)); res["fullSnapshot"] != want {
			t.Errorf("call %d's full snapshot is %v, want %s", i, res["fullSnapshot"], want)
		}
		shots = append(shots, shot)
	}
	for _, s := range shots {
		if fi, err := os.Stat(s); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", s, err)
		}
	}
	if got := historyFiles(t, dir); len(got) != 12 { // openTab's and the five calls'
		t.Errorf("history files %v", got)
	}
	// The fourth click's list has four more items than the first call's:
	// each call's files are its own, not one file overwritten.
	first, _ := os.ReadFile(filepath.Join(dir, "0002.after.yaml"))
	last, _ := os.ReadFile(filepath.Join(dir, "0005.after.yaml"))
	if n, m := strings.Count(string(first), "Buy bread"), strings.Count(string(last), "Buy bread"); n != 1 || m != 4 {
		t.Errorf("Buy bread %d times in call 2's snapshot, %d in call 5's", n, m)
	}

	out := c.call(t, tab, `{"history":true}`)[0]
	calls, _ := out["calls"].([]any)
	if num(out["total"]) != 6 || out["dir"] != dir || len(calls) != 6 {
		t.Fatalf("history: %v", out)
	}
	for i, raw := range calls {
		e := raw.(map[string]any)
		n := i + 1
		if num(e["n"]) != n || e["screenshot"] != fmt.Sprintf("%04d.after.png", n) || e["snapshot"] != fmt.Sprintf("%04d.after.yaml", n) ||
			e["url"] != fixture.URL+"/report.html" || e["at"] == nil || e["bytes"] != nil {
			t.Errorf("call %d: %v", n, e)
		}
	}
	first5, _ := calls[1].(map[string]any)
	if s, _ := first5["summary"].(string); !strings.HasPrefix(s, "Clicked.") || first5["error"] != nil {
		t.Errorf("a click's summary: %v", first5)
	}
	failed, _ := calls[5].(map[string]any)
	if e, _ := failed["error"].(string); !strings.HasPrefix(e, "step 1 (click): ") {
		t.Errorf("a failed call's line: %v", failed)
	}
	out = c.call(t, tab, `{"history":{"limit":2}}`)[0]
	if calls, _ := out["calls"].([]any); num(out["total"]) != 6 || len(calls) != 2 || num(calls[0].(map[string]any)["n"]) != 5 {
		t.Errorf("the last two: %v", out)
	}
}

// The history keeps its tab's last calls within its bound (here 3; 50 by
// default), their files with them.
func TestHistoryBound(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	c.history = capture.HistoryBound{Calls: 3}
	tab := c.openTab(fixture.URL + "/report.html")
	for range 4 {
		c.call(t, tab, `{"click":"#add"}`)
	}
	dir := filepath.Join(c.tmp, "cdp-skill", tab+".history")
	want := []string{"0003.after.png", "0003.after.yaml", "0004.after.png", "0004.after.yaml", "0005.after.png", "0005.after.yaml"}
	if got := historyFiles(t, dir); !slices.Equal(got, want) {
		t.Errorf("after 5 calls, bound 3: %v", got)
	}
	out := c.call(t, tab, `{"history":true}`)[0]
	if calls, _ := out["calls"].([]any); num(out["total"]) != 3 || len(calls) != 3 || num(calls[0].(map[string]any)["n"]) != 3 {
		t.Errorf("history: %v", out)
	}
}

// keepArtifacts copies the history where the agent says; closeTab removes
// the tab's, saying what it removed, and leaves the copy.
func TestKeepArtifactsAndCloseTab(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	c.dir = t.TempDir()
	tab := c.openTab(fixture.URL + "/report.html")
	c.call(t, tab, `{"click":"#add"}`)
	c.call(t, tab, `{"click":"#menu"}`)
	out := c.call(t, tab, `{"keepArtifacts":"kept"}`)[0]
	kept := filepath.Join(c.dir, "kept")
	if out["dir"] != kept || num(out["calls"]) != 3 || num(out["files"]) != 6 || num(out["bytes"]) < 1000 {
		t.Fatalf("keepArtifacts: %v", out)
	}
	if got := historyFiles(t, kept); len(got) != 6 {
		t.Errorf("kept %v", got)
	}
	index, err := os.ReadFile(filepath.Join(kept, "index.jsonl"))
	if err != nil || strings.Count(string(index), "\n") != 3 || !strings.Contains(string(index), `"screenshot":"0003.after.png"`) {
		t.Errorf("kept index: %v\n%s", err, index)
	}
	dir := filepath.Join(c.tmp, "cdp-skill", tab+".history")
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"keepArtifacts":%q}]}`, tab, filepath.Join(dir, "x")))
	if e := firstError(res); code != 1 || e["name"] != "StepValidationError" {
		t.Errorf("keeping the history inside itself: %v", res)
	}

	res, code = c.run(fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, tab))
	closed := outputOf(t, res, 0)
	removed, _ := closed["removed"].(string)
	if code != 0 || closed["closed"] != tab || !strings.HasPrefix(removed, "3 screenshots, 3 snapshots, ") {
		t.Fatalf("closeTab: %v", res)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the closed tab's history is still there: %v", err)
	}
	if got := historyFiles(t, kept); len(got) != 6 {
		t.Errorf("the copy after closeTab: %v", got)
	}
}

// A session's tab keeps its history in the session's directory.
func TestSessionHistory(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	s := c.session(t, "hist")
	tab := s.openTab(t, fixture.URL+"/report.html")
	res, code := s.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#add"}]}`, tab))
	dir := filepath.Join(c.tmp, "cdp-skill", "sessions", "hist", tab+".history")
	if code != 0 || res["screenshot"] != filepath.Join(dir, "0002.after.png") {
		t.Fatalf("%v", res)
	}
	if out := s.call(t, tab, `{"history":true}`)[0]; num(out["total"]) != 2 || out["dir"] != dir {
		t.Errorf("history: %v", out)
	}
	res, _ = s.run(fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, tab))
	if removed, _ := outputOf(t, res, 0)["removed"].(string); !strings.HasPrefix(removed, "2 screenshots, 2 snapshots, ") {
		t.Errorf("closeTab: %v", res)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the closed tab's history is still there: %v", err)
	}
}

// A tab closed outside cdpskill loses its history when the registry
// forgets it (here at listTabs): no alias names that history any more.
func TestHistoryOfATabClosedElsewhere(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/report.html")
	dir := filepath.Join(c.tmp, "cdp-skill", tab+".history")
	b := chromium(t)
	list := fmt.Sprintf(`{"steps":[{"listTabs":{"host":%q,"port":%d}}]}`, b.Endpoint.Host, b.Endpoint.Port)
	res, _ := c.run(list)
	id := ""
	for _, lt := range outputOf(t, res, 0)["tabs"].([]any) {
		if lt := lt.(map[string]any); lt["tab"] == tab {
			id, _ = lt["targetId"].(string)
		}
	}
	if _, err := os.Stat(dir); err != nil || id == "" {
		t.Fatalf("tab %s (%q): %v", tab, id, err)
	}
	closeBehindBack(t, b.Conn, id)
	c.run(list)
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the history of a tab the registry forgot: %v", err)
	}
}

// A tab closed by the call that just acted on it leaves no history behind
// (an early screenshot still being written is abandoned first; this test
// does not make one be).
func TestCloseTabAfterAnAction(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/report.html")
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#add"},{"closeTab":%q}]}`, tab, tab))
	if removed, _ := outputOf(t, res, 1)["removed"].(string); code != 0 || !strings.HasPrefix(removed, "1 screenshot, 1 snapshot, ") {
		t.Fatalf("%v", res)
	}
	if _, err := os.Stat(filepath.Join(c.tmp, "cdp-skill", tab+".history")); !os.IsNotExist(err) {
		t.Errorf("the closed tab's history is back: %v", err)
	}
}

// A tab named by its raw target id keeps its history under the id, and
// closeTab by the id removes it.
func TestHistoryOfARawTarget(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	b := chromium(t)
	c.cdpURL = fmt.Sprintf("http://%s:%d", b.Endpoint.Host, b.Endpoint.Port)
	id, err := b.CreateTarget(t.Context(), fixture.URL+"/report.html")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // if closeTab did not
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = proto.TargetCloseTarget{TargetID: id}.Do(ctx, b.Conn.Browser())
	})
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#add"}]}`, id))
	dir := filepath.Join(c.tmp, "cdp-skill", id+".history")
	if code != 0 || res["screenshot"] != filepath.Join(dir, "0001.after.png") {
		t.Fatalf("%v", res)
	}
	res, code = c.run(fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, id))
	if removed, _ := outputOf(t, res, 0)["removed"].(string); code != 0 || !strings.HasPrefix(removed, "1 screenshot, 1 snapshot, ") {
		t.Errorf("closeTab: %v", res)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the closed tab's history is still there: %v", err)
	}
}
