package runner_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/chrome"
)

// playwrightDir holds the Playwright side of the state checks
// (state.mjs) and, once make playwright ran, playwright-core.
const playwrightDir = "testdata/playwright"

// stateScript is state.mjs ready to run: node, and the Chromium it
// drives (the tests' own).
type stateScript struct{ node, browser string }

// needPlaywright finds node and playwright-core; without them the test
// is skipped, saying how to get them.
func needPlaywright(t *testing.T) stateScript {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the Playwright check needs Node 20 or later and make playwright")
	}
	if _, err := os.Stat(filepath.Join(playwrightDir, "node_modules", "playwright-core")); err != nil {
		t.Skipf("playwright-core is not installed in runner/%s: make playwright installs it (npm ci there)", playwrightDir)
	}
	browser, err := chrome.Find(os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	return stateScript{node, browser}
}

// run runs state.mjs in mode with args and returns what it printed.
func (s stateScript) run(t *testing.T, mode string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.node, append([]string{"state.mjs", mode, s.browser}, args...)...)
	cmd.Dir = playwrightDir
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("node state.mjs %s: %v\n%s", mode, err, stderr)
	}
	return out
}

// Playwright and cdpskill read each other's state files, logins by
// cookie, localStorage and IndexedDB alike: a file saveState wrote makes
// a Playwright context (browser.newContext({storageState})) whose first
// navigations land logged in, and a file Playwright wrote
// (context.storageState({path, indexedDB: true})) does so for a cdpskill
// tab opened with it.
func TestStatePlaywright(t *testing.T) {
	t.Parallel()
	pw := needPlaywright(t)
	c := newCLI(t)
	cookieSite, storageSite := loginSites(t)
	logins := []string{cookieSite + "/login", storageSite + "/app/login", storageSite + "/idb/login"}
	pages := []string{cookieSite + "/home", storageSite + "/app", storageSite + "/idb"}

	t.Run("cdpskill to Playwright", func(t *testing.T) {
		saver := c.session(t, "saver")
		tb := saver.openTab(t, logins[0])
		file := filepath.Join(c.tmp, "cdpskill.json")
		saver.call(t, tb, fmt.Sprintf(`{"goto":%q},{"goto":%q},{"poll":"() => document.title === 'saved'"},{"saveState":{"path":%q,"indexedDB":true}}`,
			logins[1], logins[2], file))
		var titles map[string]string
		out := pw.run(t, "load", append([]string{file}, pages...)...)
		t.Logf("state.mjs load printed %s", out)
		if err := json.Unmarshal(out, &titles); err != nil {
			t.Fatalf("state.mjs printed %s: %v", out, err)
		}
		for _, u := range pages {
			if titles[u] != "logged in" {
				t.Errorf("in Playwright, %s landed %q", u, titles[u])
			}
		}
	})

	t.Run("Playwright to cdpskill", func(t *testing.T) {
		file := filepath.Join(c.tmp, "playwright.json")
		pw.run(t, "save", append([]string{file}, logins...)...)
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), `"indexedDB"`) {
			t.Fatalf("Playwright saved no IndexedDB: %s", data)
		}
		b := chromium(t)
		loader := c.session(t, "loader")
		res, code := loader.run(fmt.Sprintf(`{"steps":[{"openTab":{"url":%q,"state":%q,"host":%q,"port":%d}},{"goto":%q},{"goto":%q},{"poll":"() => document.title !== '?'"},{"getTitle":true}]}`,
			pages[0], file, b.Endpoint.Host, b.Endpoint.Port, pages[1], pages[2]))
		if code != 0 {
			t.Fatalf("openTab with Playwright's state: %v\n%s", res, data)
		}
		outs := stepOutputs(t, res)
		for i, by := range map[int]string{0: "cookie", 1: "localStorage", 4: "IndexedDB"} {
			if title := outs[i]["output"].(map[string]any)["title"]; title != "logged in" {
				t.Errorf("by %s, the first navigation landed %v\n%s", by, title, data)
			}
		}
	})
}
