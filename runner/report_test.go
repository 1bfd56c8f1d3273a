package runner_test

import (
	"encoding/json"
	"fmt"
	"image/color"
	"os"
	"strings"
	"testing"
)

// act runs steps on tab and returns the whole result, failing on an error.
func (c *cli) act(t *testing.T, tab, steps string) map[string]any {
	t.Helper()
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[%s]}`, tab, steps))
	if code != 0 {
		t.Fatalf("%s: %v", steps, res)
	}
	return res
}

func changesOf(res map[string]any) map[string]any {
	ch, _ := res["changes"].(map[string]any)
	return ch
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// An action whose effects arrive over 300 ms of DOM updates and a slow
// fetch has finished them before the next step of the batch looks, and
// the call's report shows the finished page too.
func TestSettledBeforeTheNextStepLooks(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/report.html")
	res := c.act(t, tab, `{"click":"#load"},{"snapshot":true}`)
	yaml := stepOutputs(t, res)[1]["output"].(map[string]any)["yaml"].(string)
	for _, want := range []string{`status: "Loaded 2 suggestions"`, `listitem: "Apples"`, `listitem: "Pears"`} {
		if !strings.Contains(yaml, want) {
			t.Errorf("the snapshot after the click lacks %s:\n%s", want, yaml)
		}
	}
	ch := changesOf(res)
	if got := jsonText(ch); !strings.Contains(got, `"from":"Nothing loaded","role":"status","to":"Loaded 2 suggestions"`) || !strings.Contains(got, `listitem: \"Apples\"`) {
		t.Errorf("changes: %s", got)
	}
	if _, ok := res["viewportSnapshot"]; ok {
		t.Errorf("the batch ended with the agent's own snapshot; the report must not repeat it")
	}
}

// A rename in place — double-click, fill, Enter, then a save to the
// server and a re-render — is finished when the batch's snapshot looks.
func TestSettledEditInPlace(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/todo.html")
	res := c.act(t, tab, `{"click":{"selector":"#todos label","doubleClick":true}},{"fill":{"selector":".edit","value":"Buy oat milk"}},{"press":"Enter"},{"snapshot":true}`)
	yaml := stepOutputs(t, res)[3]["output"].(map[string]any)["yaml"].(string)
	if !strings.Contains(yaml, `listitem: "Buy oat milk"`) || strings.Contains(yaml, "textbox") {
		t.Errorf("the snapshot shows the edit unfinished:\n%s", yaml)
	}
}

// Each kind of change an action makes comes back in changes, by ref with
// the field that changed, or by role and text for lines without a ref.
func TestChangesOfEachKind(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/report.html")
	cases := []struct {
		name, steps string
		summary     string   // the summary starts so
		has         []string // and the changes hold these JSON fragments (keys sorted)
	}{
		{"menu expands", `{"click":"#menu"}`, "Clicked. 1 added (menu",
			[]string{`"field":"expanded","from":false,"ref":"`, `menuitem \"Rename\" [ref=`}},
		{"checkbox toggles", `{"click":"#done"}`, "Clicked. 1 checked (",
			[]string{`"field":"checked","from":false,"ref":"`}},
		{"list grows, heading follows", `{"click":"#add"}`, "Clicked. 1 added (listitem \"Buy bread\"). 1 text changed (heading).",
			[]string{`"added":["listitem: \"Buy bread\""]`, `{"field":"name","from":"Shopping list (2)","role":"heading","to":"Shopping list (3)"}`}},
		{"status text changes", `{"click":"#load"}`, "Clicked. 2 added (listitem \"Apples\", listitem \"Pears\"). 1 text changed (status).",
			[]string{`{"field":"text","from":"Nothing loaded","role":"status","to":"Loaded 2 suggestions"}`}},
		{"a script rewrites a field", `{"click":"#normalize"}`, "Clicked. 1 value changed (",
			[]string{`"field":"value","from":"555 0101","ref":"`, `"to":"+1 (555) 0101"`}},
		{"nothing changes", `{"hover":"#title"}`, "", nil},
		{"scroll", `{"scroll":"#details"}`, "Scrolled. 2 in view (s0e12, heading \"Details\"). 16 out of view (",
			[]string{`"heading \"Details\" [level=2]"`, `"outOfView":["heading \"Shopping list (3)\" [level=1]"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ch := changesOf(c.act(t, tab, tc.steps))
			if tc.summary == "" {
				if ch != nil {
					t.Fatalf("changes for an action that changed nothing: %s", jsonText(ch))
				}
				return
			}
			got := jsonText(ch)
			if s, _ := ch["summary"].(string); !strings.HasPrefix(s, tc.summary) {
				t.Errorf("summary %q, want it to start %q", s, tc.summary)
			}
			for _, h := range tc.has {
				if !strings.Contains(got, h) {
					t.Errorf("changes lack %s:\n%s", h, got)
				}
			}
		})
	}
}

// Navigation is judged once, for the whole call, whatever step caused it:
// a fragment is not one, a pushState route is, and so are a submitted
// form, Enter in a form's field, a click whose script redirects after a
// fetch, and a page that redirects itself. A navigation drops the diff.
func TestNavigationFromEveryStepKind(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	cases := []struct {
		name, steps string
		navigated   bool
		url         string // the context URL ends so
	}{
		{"fragment link", `{"click":"#frag"}`, false, "/report.html#details"},
		{"pushState route", `{"click":"#route"}`, true, "/cart"},
		{"submit step", `{"fill":{"selector":"#q","value":"milk"}},{"submit":"#search"}`, true, "/report-results.html?q=milk"},
		{"Enter in a field", `{"fill":{"selector":"#q","value":"eggs"}},{"press":"Enter"}`, true, "/report-results.html?q=eggs"},
		{"script redirect after a fetch", `{"click":"#redirect"}`, true, "/report-results.html?from=checkout"},
		{"page that redirects itself", fmt.Sprintf(`{"goto":%q}`, fixture.URL+"/report-redirect.html"), true, "/report-results.html?redirected"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tab := c.openTab(fixture.URL + "/report.html")
			res := c.act(t, tab, tc.steps)
			url := res["context"].(map[string]any)["url"].(string)
			if res["navigated"] != nil != tc.navigated || !strings.HasSuffix(url, tc.url) {
				t.Errorf("navigated %v at %s, want %v at …%s", res["navigated"], url, tc.navigated, tc.url)
			}
			if tc.navigated && res["changes"] != nil {
				t.Errorf("a navigation must skip the diff: %s", jsonText(res["changes"]))
			}
			if res["viewportSnapshot"] == nil || res["fullSnapshot"] == nil {
				t.Errorf("no snapshots after a visual call: %v", res)
			}
		})
	}
}

// A batch that loads a page and then acts on it reports both: navigated,
// and what the actions after the navigation changed on the new page.
// Actions that navigate again leave nothing to compare.
func TestChangesAfterANavigationInTheBatch(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html")
	res := c.act(t, tab, fmt.Sprintf(`{"goto":%q},{"fill":{"Full name":"Ada","Work email":"ada@x.io","Plan":"Team","I accept the terms":true}},{"click":{"text":"Create account"}}`, fixture.URL+"/docs/signup.html"))
	ch := jsonText(changesOf(res))
	if summary, _ := changesOf(res)["summary"].(string); res["navigated"] != true || !strings.HasPrefix(summary, "Filled, clicked.") ||
		!strings.Contains(ch, `"to":"Team"`) || !strings.Contains(ch, `"to":"Welcome, Ada (team plan)"`) {
		t.Errorf("navigated %v, changes %s", res["navigated"], ch)
	}
	res = c.act(t, tab, fmt.Sprintf(`{"goto":%q},{"click":{"text":"Sign in"}}`, fixture.URL+"/docs/index.html"))
	if res["navigated"] != true || res["changes"] != nil {
		t.Errorf("a second navigation: navigated %v, changes %s", res["navigated"], jsonText(res["changes"]))
	}
}

// A click on a small page comes back with what it changed and what the
// screen shows, in less than a kilobyte.
func TestSmallPageClickResultUnderOneKB(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/small.html")
	input := fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#sub"}]}`, tab)
	res, code, out := c.runRaw(input)
	if code != 0 {
		t.Fatal(out)
	}
	if len(out) >= 1024 || res["changes"] == nil || res["viewportSnapshot"] == nil {
		t.Errorf("%d bytes:\n%s", len(out), out)
	}
	if !strings.Contains(res["viewportSnapshot"].(string), `status: "Thanks!"`) {
		t.Errorf("viewportSnapshot: %s", res["viewportSnapshot"])
	}
}

// A batch of reads takes no snapshots at all.
func TestReadsTakeNoSnapshots(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/small.html")
	res := c.act(t, tab, `{"pageFunction":"document.title"},{"getUrl":true}`)
	for _, k := range []string{"changes", "viewportSnapshot", "fullSnapshot", "screenshot"} {
		if res[k] != nil {
			t.Errorf("%s after reads only: %v", k, res[k])
		}
	}
}

// The context names the page's framework on arrival, not on every call.
func TestFrameworkOnArrival(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	res, code := c.run(fmt.Sprintf(`{"steps":[{"openTab":{"url":%q,"host":%q,"port":%d}}]}`,
		fixture.URL+"/app.html", chromium(t).Endpoint.Host, chromium(t).Endpoint.Port))
	tab, _ := res["tab"].(string)
	t.Cleanup(func() { c.run(fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, tab)) })
	if code != 0 || res["context"].(map[string]any)["framework"] != "React" {
		t.Fatalf("openTab: %v", res)
	}
	res = c.act(t, tab, `{"click":"#inc"}`)
	if fw := res["context"].(map[string]any)["framework"]; fw != nil {
		t.Errorf("framework %v repeated on a call that did not navigate", fw)
	}
	res = c.act(t, tab, fmt.Sprintf(`{"goto":%q}`, fixture.URL+"/app.html?again"))
	if res["context"].(map[string]any)["framework"] != "React" {
		t.Errorf("goto: %v", res["context"])
	}
}

// A screen too full to print whole is cut at a line, says so, and the
// full snapshot file has all of it.
func TestViewportSnapshotTruncated(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/small.html")
	c.act(t, tab, `{"pageFunction":"document.body.innerHTML = Array.from({length: 700}, (_, i) => '<button style=\"font-size:8px;margin:0\">Button number ' + i + '</button>').join('')"}`)
	res := c.act(t, tab, `{"hover":"button"}`)
	vs, _ := res["viewportSnapshot"].(string)
	if res["truncated"] != true || len(vs) > 9100 || !strings.HasSuffix(vs, "fullSnapshot has the whole page") {
		t.Fatalf("truncated %v, %d bytes:\n…%s", res["truncated"], len(vs), vs[max(0, len(vs)-200):])
	}
	full, err := os.ReadFile(res["fullSnapshot"].(string))
	if err != nil || !strings.Contains(string(full), `button "Button number 699"`) {
		t.Errorf("the full snapshot lacks the last button: %v", err)
	}
}

// A failed click on misspelt text offers what was meant first, a list
// item's label included; a failed fill lists the fields.
func TestFailureContextThroughTheBinary(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/report.html")
	res, _ := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":{"text":"Buy eggz"},"timeout":500}]}`, tab))
	fc, _ := stepOutputs(t, res)[0]["context"].(map[string]any)
	near, _ := fc["nearMatches"].([]any)
	if len(near) == 0 || near[0].(map[string]any)["text"] != "Buy eggs" || fc["visibleButtons"] == nil {
		t.Errorf("failure context: %s", jsonText(fc))
	}
	res, _ = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"fill":{"label":"Phnoe","value":"1"},"timeout":500}]}`, tab))
	fc, _ = stepOutputs(t, res)[0]["context"].(map[string]any)
	near, _ = fc["nearMatches"].([]any)
	if fc["visibleFields"] == nil || fc["visibleButtons"] != nil || len(near) == 0 || near[0].(map[string]any)["selector"] != "#phone" {
		t.Errorf("failure context of a fill: %s", jsonText(fc))
	}
}

// Scrolling inside a pane moves lines in and out of view; it edits none.
func TestPaneScrollIsNoEdit(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/pane.html")
	ch := changesOf(c.act(t, tab, `{"scroll":"#pane p:last-child"}`))
	s, _ := ch["summary"].(string)
	if !strings.HasPrefix(s, "Scrolled. ") || !strings.Contains(s, "out of view") || ch["changed"] != nil {
		t.Errorf("changes: %s", jsonText(ch))
	}
}

// Screens that cannot be compared say so: no changes never means
// "nothing changed" when nothing was compared.
func TestChangesNotCompared(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/errors-parent.html")
	res := c.act(t, tab, `{"frame":"#child"},{"click":"button"}`)
	if s, _ := changesOf(res)["summary"].(string); !strings.HasPrefix(s, "Clicked. Not compared: the steps ended in another document") {
		t.Errorf("changes: %v", res["changes"])
	}
	c.act(t, tab, `{"frame":"top"}`)
}

// Connecting to another tab mid-call is no navigation of it.
func TestConnectTabIsNoNavigation(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	first := c.openTab(fixture.URL + "/small.html")
	second := c.openTab(fixture.URL + "/report.html")
	res := c.act(t, first, fmt.Sprintf(`{"connectTab":%q},{"click":"#add"}`, second))
	if res["navigated"] != nil || res["tab"] != second {
		t.Errorf("navigated %v on tab %v", res["navigated"], res["tab"])
	}
}

// The report's screenshot is asked for while a click settles. A page
// that changes after that is captured again, as it settled; one that
// changed in the click's handler keeps the shot taken at once.
func TestReportScreenshotShowsTheSettledPage(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/late-paint.html")
	for _, tc := range []struct {
		button string
		want   color.RGBA
	}{
		{"now", color.RGBA{0, 0, 255, 255}},
		{"late", color.RGBA{255, 0, 0, 255}},
	} {
		res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#%s"}]}`, tab, tc.button))
		if code != 0 {
			t.Fatalf("%s: %v", tc.button, res)
		}
		if got := cornerOf(t, res["screenshot"].(string)); got != tc.want {
			t.Errorf("#%s: the screenshot shows %v, the page settled at %v", tc.button, got, tc.want)
		}
		c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"() => { document.body.style.background = 'rgb(255, 255, 255)' }"}]}`, tab))
	}
	log := c.trace(t, tab, `[{"click":"#now"}]`)
	if n := strings.Count(log, `"Page.captureScreenshot"`); n != 1 {
		t.Errorf("a click whose page settled at once was captured %d times", n)
	}
	// A step after the batch's last action may change the page too: the
	// shot taken during the action is then not the page the report shows.
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#now"},{"sleep":150},{"pageFunction":"() => { document.body.style.background = 'rgb(0, 128, 0)' }"}]}`, tab))
	if want := (color.RGBA{0, 128, 0, 255}); code != 0 || cornerOf(t, res["screenshot"].(string)) != want {
		t.Errorf("a page a script changed after the click: the screenshot shows %v, want %v (%v)", cornerOf(t, res["screenshot"].(string)), want, res["steps"])
	}
	log = c.trace(t, tab, `[{"click":"#now"},{"pageFunction":"document.title"}]`)
	if n := strings.Count(log, `"Page.captureScreenshot"`); n != 1 {
		t.Errorf("a click followed by a script that changed nothing was captured %d times", n)
	}
}

// cornerOf is the colour of a PNG's top-left pixel.
func cornerOf(t *testing.T, path string) color.RGBA {
	t.Helper()
	img := decodePNGFile(t, path)
	r, g, b, a := img.At(img.Bounds().Min.X+2, img.Bounds().Min.Y+2).RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
}
