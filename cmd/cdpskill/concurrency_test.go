package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// soakEnv, set to 1 (make soak), runs the concurrency and soak tests at
// the full size; otherwise they run scaled down to keep make test
// well under a minute for them.
const soakEnv = "CDPSKILL_SOAK"

func full() bool { return os.Getenv(soakEnv) == "1" }

// scaled is n at full size, else small.
func scaled(n, small int) int {
	if full() {
		return n
	}
	return small
}

// 8 processes at a time, each driving its own tab of one Chrome through
// pageFunction, click and snapshot calls: no call fails, every alias is
// its own and stays in the registry until its tab is closed, and a reader
// finds the registry whole JSON every time it looks.
func TestConcurrentCallsOnOwnTabs(t *testing.T) { concurrentAgents(t, false) }

// The same 8 agents, each in a session of its own: each gets t1, its own
// in its own registry, and reaches only its own tab.
func TestConcurrentCallsInOwnSessions(t *testing.T) { concurrentAgents(t, true) }

func concurrentAgents(t *testing.T, sessions bool) {
	const workers = 8
	calls := scaled(50, 8)
	c := newCLI(t)
	// in is what a worker's call begins with, path its registry.
	in := func(w int) string { return "{" }
	path := func(w int) string { return filepath.Join(c.tmp, "cdp-skill-tabs.json") }
	if sessions {
		in = func(w int) string { return fmt.Sprintf(`{"session":"w%d",`, w) }
		path = func(w int) string {
			return filepath.Join(c.tmp, "cdp-skill", "sessions", fmt.Sprintf("w%d", w), "tabs.json")
		}
	}

	stop := make(chan struct{})
	var reads, bad atomic.Int64
	var readerDone sync.WaitGroup
	readerDone.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			data, err := os.ReadFile(path(i % workers))
			if err == nil {
				reads.Add(1)
				if !json.Valid(data) {
					bad.Add(1)
				}
			}
			time.Sleep(2 * time.Millisecond)
		}
	})

	aliases := make([]string, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			res, code := c.run(fmt.Sprintf(`%s"steps":[{"openTab":{"url":%q,"host":%q,"port":%d}},{"pageFunction":"document.body.insertAdjacentHTML('beforeend', '<button onclick=\"this.textContent = ++window.n\">Count</button>'); window.n = 0"}]}`,
				in(w), fixture.URL+"/hello.html?w="+strconv.Itoa(w), chromium(t).Endpoint.Host, chromium(t).Endpoint.Port))
			if code != 0 {
				t.Errorf("worker %d openTab: %v", w, res)
				return
			}
			tab := res["tab"].(string)
			aliases[w] = tab
			clicks := 0
			for i := range calls - 2 {
				var step string
				switch i % 3 {
				case 0:
					step = `{"pageFunction":"location.search"}`
				case 1:
					step = `{"click":"button"}`
					clicks++
				case 2:
					step = `{"snapshot":true}`
				}
				res, code := c.run(fmt.Sprintf(`%s"tab":%q,"steps":[%s]}`, in(w), tab, step))
				if code != 0 {
					t.Errorf("worker %d call %d %s: %v", w, i, step, res)
					return
				}
				if i%3 == 0 && stepOut(t, res, 0)["value"] != "?w="+strconv.Itoa(w) {
					t.Errorf("worker %d reached another tab: %v", w, res)
					return
				}
			}
			res, code = c.run(fmt.Sprintf(`%s"tab":%q,"steps":[{"pageFunction":"window.n"}]}`, in(w), tab))
			if code != 0 || stepOut(t, res, 0)["value"] != float64(clicks) {
				t.Errorf("worker %d: %d clicks counted, want %d: %v", w, stepOut(t, res, 0)["value"], clicks, res)
			}
		})
	}
	wg.Wait()
	seen := map[string]bool{}
	for w, a := range aliases {
		if a == "" {
			continue
		}
		if sessions && a != "t1" {
			t.Errorf("worker %d's first tab in its own session is %s", w, a)
		}
		if !sessions && seen[a] {
			t.Errorf("alias %s handed out twice", a)
		}
		seen[a] = true
		if _, ok := c.registryAt(t, path(w))[a]; !ok {
			t.Errorf("worker %d's alias %s left the registry before its tab was closed", w, a)
		}
	}
	for w, a := range aliases {
		if a != "" {
			if res, code := c.run(fmt.Sprintf(`%s"steps":[{"closeTab":%q}]}`, in(w), a)); code != 0 {
				t.Errorf("closeTab %s: %v", a, res)
			}
			if sessions {
				c.disposeSession(t, path(w))
			}
		}
	}
	close(stop)
	readerDone.Wait()
	for w := range workers {
		if reg := c.registryAt(t, path(w)); len(reg) != 0 {
			t.Errorf("the registry keeps closed tabs: %v", reg)
		}
	}
	if bad.Load() > 0 || reads.Load() == 0 {
		t.Errorf("%d of %d reads of the registry were not whole JSON", bad.Load(), reads.Load())
	}
}

// A call killed while it holds a tab leaves no lock behind: the next call
// on the tab goes ahead at once, not after its timeout.
func TestLockHolderKilled(t *testing.T) {
	c := newCLI(t)
	tab := c.openTab("about:blank")
	holder := c.cmd(t.Context(), fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"window.held = true"},{"sleep":30000}]}`, tab))
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	c.waitTrue(t, tab, "window.held === true")
	if err := holder.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	holder.Wait()
	res, code, d := c.timedRun(fmt.Sprintf(`{"tab":%q,"timeout":20000,"steps":[{"pageFunction":"window.held"}]}`, tab))
	if code != 0 || stepOut(t, res, 0)["value"] != true {
		t.Fatalf("the call after a killed holder: exit %d: %v", code, res)
	}
	if d > 10*time.Second { // not at its 20 s timeout
		t.Errorf("the call after a killed holder took %v", d)
	}
}
