package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/testbrowser"
)

// holdings is what a Chrome and cdpskill hold at one moment.
type holdings struct {
	pages, targets int // Chrome's page targets, and targets of any kind
	procs          int // Chrome's processes: the browser and its descendants
	fds            int // the browser process's open files
	cdpskill       int // cdpskill calls still running (keepers, which outlive calls by design, are not calls)
	entries        int // registry entries
	files          []string
}

func (u holdings) String() string {
	return fmt.Sprintf("%d pages, %d targets, %d Chrome processes, %d browser fds, %d cdpskill processes, %d registry entries, %d temp files",
		u.pages, u.targets, u.procs, u.fds, u.cdpskill, u.entries, len(u.files))
}

func measure(t *testing.T, b *testbrowser.Browser, c *cli) holdings {
	t.Helper()
	var u holdings
	res, err := proto.TargetGetTargets{}.Do(t.Context(), b.Conn.Browser())
	if err != nil {
		t.Fatal(err)
	}
	u.targets = len(res.TargetInfos)
	for _, ti := range res.TargetInfos {
		if ti.Type == "page" {
			u.pages++
		}
	}
	u.procs = len(descendants(b.PID())) + 1
	fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", b.PID()))
	u.fds = len(fds)
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		if exe, err := os.Readlink(filepath.Join("/proc", p.Name(), "exe")); err == nil && exe == binary {
			if cmd, _ := os.ReadFile(filepath.Join("/proc", p.Name(), "cmdline")); !bytes.Contains(cmd, []byte(keeperFlag)) {
				u.cdpskill++
			}
		}
	}
	if _, err := os.Stat(filepath.Join(c.tmp, "cdp-skill-tabs.json")); err == nil {
		u.entries = len(c.registry(t))
	}
	filepath.WalkDir(c.tmp, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(c.tmp, path)
			u.files = append(u.files, rel)
		}
		return nil
	})
	return u
}

// descendants lists the processes below pid, from /proc.
func descendants(pid int) []int {
	parent := map[int]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces and parentheses.
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(f) > 1 {
			parent[p], _ = strconv.Atoi(f[1])
		}
	}
	var out []int
	for p := range parent {
		for q := parent[p]; q > 1; q = parent[q] {
			if q == pid {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// Many calls on one tab, then many tabs opened and closed, leave Chrome,
// the machine and the temp directory as they were, but for the per-alias
// artifacts. make soak runs the 1,000 calls and 200 cycles.
func TestSoak(t *testing.T) {
	b, err := testbrowser.Start() // its own, so only this test's tabs count
	if err != nil {
		t.Fatal(err)
	}
	defer b.Stop()
	calls, cycles := scaled(1000, 30), scaled(200, 8)
	c := newCLI(t)
	open := fmt.Sprintf(`{"steps":[{"openTab":{"url":%q,"host":%q,"port":%d}}]}`, fixture.URL+"/hello.html", b.Endpoint.Host, b.Endpoint.Port)

	res, code := c.run(open)
	if code != 0 {
		t.Fatal(res)
	}
	tab := res["tab"].(string)
	c.call(t, tab, `{"pageFunction":"document.body.insertAdjacentHTML('beforeend', '<button onclick=\"this.textContent = ++window.n\">Count</button>'); window.n = 0"}`)
	// A click has the browser's keeper started (its downloads): it stays,
	// one per browser, and is no growth.
	c.call(t, tab, `{"click":"button"}`)
	before := measure(t, b, c)
	for i := range calls {
		step := `{"pageFunction":"window.n"}`
		if i%10 == 9 {
			step = `{"click":"button"}`
		}
		if res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[%s]}`, tab, step)); code != 0 {
			t.Fatalf("call %d: %v", i, res)
		}
	}
	afterCalls := measureSettled(t, b, c, before)
	t.Logf("%d calls on one tab: before %v; after %v", calls, before, afterCalls)
	checkNoGrowth(t, "calls on one tab", before, afterCalls)

	for i := range cycles {
		res, code := c.run(open)
		if code != 0 {
			t.Fatalf("cycle %d openTab: %v", i, res)
		}
		a := res["tab"].(string)
		if res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"document.title"},{"snapshot":true}]}`, a)); code != 0 {
			t.Fatalf("cycle %d: %v", i, res)
		}
		if res, code := c.run(fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, a)); code != 0 {
			t.Fatalf("cycle %d closeTab: %v", i, res)
		}
	}
	afterCycles := measureSettled(t, b, c, afterCalls)
	t.Logf("%d open/close cycles: after %v", cycles, afterCycles)
	checkNoGrowth(t, "open/close cycles", afterCalls, afterCycles)
}

// measureSettled measures until nothing has grown since before, for 10 s
// at most: a closed window's own targets, and its renderer, go a moment
// after the tab, a moment a loaded machine stretches, while a leak stays.
func measureSettled(t *testing.T, b *testbrowser.Browser, c *cli, before holdings) holdings {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		u := measure(t, b, c)
		if grown(before, u) == "" || time.Now().After(deadline) {
			return u
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// perAlias matches the files a call leaves for its tab's alias: its
// network log (with its exchanges, the keeper's requests and when it was
// cleared), which the agent may still read after the tab is closed,
// and the open tab's history, which its bound keeps from growing (closeTab
// removes it).
var perAlias = regexp.MustCompile(`^cdp-skill/t\d+\.(network(\.exchanges|\.keeper)?\.jsonl|network\.cleared|history/(\d{4,}\.after\.(png|yaml)|index\.jsonl))$`)

// grown says what Chrome or cdpskill holds more of after than before,
// beyond what comes and goes; "" for nothing.
func grown(before, after holdings) string {
	switch {
	case after.pages > before.pages:
		return fmt.Sprintf("Chrome's pages grew from %d to %d", before.pages, after.pages)
	case after.targets > before.targets:
		return fmt.Sprintf("Chrome's targets grew from %d to %d", before.targets, after.targets)
	case after.procs > before.procs+4: // Chrome keeps spare renderers as it sees fit; a leak grows per call
		return fmt.Sprintf("Chrome's processes grew from %d to %d", before.procs, after.procs)
	case after.fds > before.fds+20:
		return fmt.Sprintf("the browser's open files grew from %d to %d", before.fds, after.fds)
	case after.cdpskill > 0:
		return fmt.Sprintf("%d cdpskill processes are still running", after.cdpskill)
	case after.entries > before.entries:
		return fmt.Sprintf("registry entries grew from %d to %d", before.entries, after.entries)
	}
	return ""
}

func checkNoGrowth(t *testing.T, what string, before, after holdings) {
	t.Helper()
	if g := grown(before, after); g != "" {
		t.Errorf("%s: %s", what, g)
	}
	var extra []string
	for _, f := range after.files {
		if !slices.Contains(before.files, f) && !perAlias.MatchString(f) {
			extra = append(extra, f)
		}
	}
	if len(extra) > 0 {
		t.Errorf("%s: %d more temp files: %v", what, len(extra), extra)
	}
	history := map[string]int{}
	for _, f := range after.files {
		if tab, _, ok := strings.Cut(f, ".history/"); ok {
			history[tab]++
		}
	}
	for tab, n := range history {
		if n > 2*capture.MaxHistoryCalls+1 { // a screenshot and a snapshot a call, and the index
			t.Errorf("%s: %s's history has %d files, over its bound of %d calls", what, tab, n, capture.MaxHistoryCalls)
		}
	}
}
