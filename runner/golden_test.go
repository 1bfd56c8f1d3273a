package runner_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/runner"
)

var (
	hexID   = regexp.MustCompile(`[0-9A-F]{32}`)
	elapsed = regexp.MustCompile(`"elapsed":\d+`)
	// still is how long a search waited and the page stood still before
	// it gave up (dom.NotFoundError): the machine's, not the code's.
	still = regexp.MustCompile(`waited [0-9.]+m?s: the page had not changed for [0-9.ms]+ `)
	// logged counts the page's log messages, which a document restored
	// from the back/forward cache does not log again: Chrome's choice.
	loggedCount = regexp.MustCompile(`"logged":\d+`)
	// requestMs is how long a request of the report's took, and
	// fromCache whether Chrome's cache had it, after the other tests.
	requestMs = regexp.MustCompile(`( \d{3}) \d+ms`)
	fromCache = regexp.MustCompile(` \((disk|memory)-cache\)"`)
)

// normalize replaces what differs between runs: ports, temp dirs, ids.
func normalize(c *cli, tab string, out []byte) string {
	s := string(out)
	s = strings.ReplaceAll(s, `"`+tab+`"`, `"$TAB"`)
	s = strings.ReplaceAll(s, "/"+tab+".", "/$TAB.")
	s = strings.ReplaceAll(s, fixture.URL, "http://fixture")
	s = strings.ReplaceAll(s, strings.ReplaceAll(strings.TrimPrefix(fixture.URL, "http://"), ":", "_"), "fixture")
	s = strings.ReplaceAll(s, c.tmp, "$TMPDIR")
	s = hexID.ReplaceAllString(s, "<targetId>")
	s = elapsed.ReplaceAllString(s, `"elapsed":0`)
	s = still.ReplaceAllString(s, "waited 1s: the page had not changed for 1s ")
	s = loggedCount.ReplaceAllString(s, `"logged":"$$N"`)
	s = requestMs.ReplaceAllString(s, "$1 Nms")
	s = fromCache.ReplaceAllString(s, `"`)
	var pretty bytes.Buffer
	if json.Indent(&pretty, []byte(s), "", "  ") != nil {
		return s
	}
	return pretty.String()
}

// TestGoldenResults pins the exact JSON an agent sees for typical calls.
// Regenerate with: go test ./runner -run TestGoldenResults -update
func TestGoldenResults(t *testing.T) {
	// Not parallel: the result pinned is whole, captures and all, and each
	// capture has a budget (contextBudget, screenshotBudget) that a browser
	// loaded by the tests beside it overruns, leaving its field out.
	c := newCLI(t)
	report := fmt.Sprintf(`{"tab":"$TAB","steps":[{"goto":%q}]}`, fixture.URL+"/report.html")
	cases := []struct{ name, input, setup string }{
		{"validation", `{"steps":[{"gotoo":"x"},{"wait":{"selector":"#a","text":"b"}},{"sleep":1,"getUrl":true}]}`, ""},
		{"parse", `{"steps":[{"goto":"x"}`, ""},
		{"open_snapshot_fill_click", fmt.Sprintf(`{"tab":"$TAB","steps":[{"goto":%q},{"snapshot":true},{"fill":{"label":"User name","value":"ada"}},{"click":"#go"},{"wait":{"text":"Hi ada"}},{"getTitle":true}]}`, fixture.URL+"/form.html"), ""},
		{"goto_404", fmt.Sprintf(`{"tab":"$TAB","steps":[{"goto":%q}]}`, fixture.URL+"/missing.html"), ""},
		{"navigation_error", `{"tab":"$TAB","steps":[{"goto":"http://no-such-host.invalid/"}]}`, ""},
		{"page_function_types", `{"tab":"$TAB","steps":[{"pageFunction":"1+1"},{"pageFunction":"undefined"},{"pageFunction":"({a: [1, NaN], d: new Date(0)})"},{"pageFunction":"() => { throw new TypeError('bad') }"}]}`, ""},
		// The optional wait's second is for its first look at the page,
		// which a loaded machine can take most of: without one its error
		// cannot say what it saw.
		{"history_and_optional", fmt.Sprintf(`{"tab":"$TAB","steps":[{"goto":%q},{"back":true},{"forward":true},{"forward":true},{"wait":{"selector":"#never","timeout":1000},"optional":true},{"getUrl":true}]}`, fixture.URL+"/hello.html"), ""},
		// The after-action report of a click that opens a menu.
		{"click_changes", `{"tab":"$TAB","steps":[{"click":"#menu"}]}`, report},
		// A misspelt click: the failure context, near matches first. The
		// page stands still, so it fails after a second.
		{"failed_click_near_matches", `{"tab":"$TAB","steps":[{"click":{"text":"Add iten"}}]}`, report},
		// since on a page that changed answers with the changes only.
		{"since_changes", `{"tab":"$TAB","steps":[{"click":"#add"},{"snapshot":{"since":"s1"}}]}`,
			strings.Replace(report, `}]}`, `},{"snapshot":true}]}`, 1)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tab := c.openTab("about:blank") // a fresh history for every case
			if tc.setup != "" {
				if res, code := c.run(strings.ReplaceAll(tc.setup, "$TAB", tab)); code != 0 {
					t.Fatalf("setup: %v", res)
				}
			}
			input := strings.ReplaceAll(tc.input, "$TAB", tab)
			_, out := c.exec(t.Context(), c.options(nil), input)
			got := normalize(c, tab, out)
			path := filepath.Join("testdata", "golden", tc.name+".json")
			if *runner.Update {
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("result differs from %s (rerun with -update if intended):\n--- got\n%s--- want\n%s", path, got, want)
			}
		})
	}
}
