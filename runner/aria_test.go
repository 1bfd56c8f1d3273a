package runner_test

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// The ARIA steps across separate calls, each with nothing in memory from
// the last: refs live in the page and ref counters in the tab registry, so
// each call picks up where the last one left off.

var ariaRefRE = regexp.MustCompile(`\[ref=(s\d+e\d+)\]`)

// refOn returns the ref on the YAML line that contains text.
func refOn(t *testing.T, yaml, text string) string {
	t.Helper()
	for _, line := range strings.Split(yaml, "\n") {
		if m := ariaRefRE.FindStringSubmatch(line); m != nil && strings.Contains(line, text) {
			return m[1]
		}
	}
	t.Fatalf("no ref on a line with %q in:\n%s", text, yaml)
	return ""
}

// call runs one batch on tab and returns the outputs of its steps; any
// failure is fatal.
func (c *cli) call(t *testing.T, tab, steps string) []map[string]any {
	t.Helper()
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[%s]}`, tab, steps))
	if code != 0 {
		t.Fatalf("%s: exit %d: %v", steps, code, res)
	}
	var outs []map[string]any
	for _, s := range stepOutputs(t, res) {
		o, _ := s["output"].(map[string]any)
		outs = append(outs, o)
	}
	return outs
}

func (c *cli) value(t *testing.T, tab, expr string) any {
	t.Helper()
	return c.call(t, tab, fmt.Sprintf(`{"pageFunction":%q}`, expr))[0]["value"]
}

func TestRefsAcrossCalls(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/form.html")
	yaml := c.call(t, tab, `{"snapshot":true}`)[0]["yaml"].(string)
	user, button := refOn(t, yaml, `textbox "User name"`), refOn(t, yaml, `button "Sign in"`)
	c.call(t, tab, fmt.Sprintf(`{"fill":{"ref":%q,"value":"Ada"}},{"click":%q}`, user, button))
	if got := c.value(t, tab, "document.getElementById('out').textContent"); got != "Hi Ada" {
		t.Errorf("after fill and click by ref: %q", got)
	}
}

func TestSnapshotSearchRefNextCall(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/form.html")
	out := c.call(t, tab, `{"snapshotSearch":{"text":"sign in","role":"button"}}`)[0]
	matches := out["matches"].([]any)
	if len(matches) != 1 || out["matchCount"] != float64(1) {
		t.Fatalf("search: %v", out)
	}
	ref := matches[0].(map[string]any)["ref"].(string)
	c.call(t, tab, fmt.Sprintf(`{"click":%q}`, ref))
	if got := c.value(t, tab, "document.getElementById('out').textContent"); got != "Hi " {
		t.Errorf("after click by the search's ref: %q", got)
	}
	// The search started no snapshot number: the first snapshot is s1 and
	// shows the same ref.
	snap := c.call(t, tab, `{"snapshot":true}`)[0]
	if snap["snapshotId"] != "s1" || refOn(t, snap["yaml"].(string), `button "Sign in"`) != ref {
		t.Errorf("snapshot after search: %v", snap)
	}
}

func TestQueryRoleRefNextCall(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/form.html")
	out := c.call(t, tab, `{"query":{"role":"checkbox","name":"remember"}}`)[0]
	results := out["results"].([]any)
	m := results[0].(map[string]any)
	if out["total"] != float64(1) || m["checked"] != false || m["name"] != "Remember me" {
		t.Fatalf("query: %v", out)
	}
	c.call(t, tab, fmt.Sprintf(`{"click":%q}`, m["ref"]))
	if got := c.value(t, tab, "document.getElementById('remember').checked"); got != true {
		t.Errorf("checkbox after click by the query's ref: %v", got)
	}
}

// since answers across calls: unchanged, only what changed, or, in a
// new document, the whole snapshot.
func TestSinceAcrossCalls(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/report.html")
	if id := c.call(t, tab, `{"snapshot":true}`)[0]["snapshotId"]; id != "s1" {
		t.Fatalf("first snapshot id %v", id)
	}
	out := c.call(t, tab, `{"snapshot":{"since":"s1"}}`)[0]
	if len(out) != 2 || out["unchanged"] != true || out["snapshotId"] != "s1" {
		t.Errorf("since s1 on an unchanged page: %v", out)
	}
	c.call(t, tab, `{"click":"#add"}`)
	out = c.call(t, tab, `{"snapshot":{"since":"s1"}}`)[0]
	got := jsonText(out["changes"])
	if out["yaml"] != nil || out["snapshotId"] != "s2" || out["since"] != "s1" ||
		!strings.Contains(got, `"added":["listitem: \"Buy bread\""]`) || !strings.Contains(got, `"to":"Shopping list (3)"`) ||
		!strings.HasPrefix(out["changes"].(map[string]any)["summary"].(string), "Since s1. 1 added (listitem \"Buy bread\"). 1 text changed (heading).") {
		t.Errorf("since s1 after a change: %v", out)
	}
	c.call(t, tab, fmt.Sprintf(`{"goto":%q}`, fixture.URL+"/form.html"))
	out = c.call(t, tab, `{"snapshot":{"since":"s2"}}`)[0]
	if !strings.Contains(fmt.Sprint(out["yaml"]), `heading "Sign in"`) || !strings.Contains(fmt.Sprint(out["note"]), "s2 cannot be compared with") {
		t.Errorf("since s2 in a new document must answer with the snapshot: %v", out)
	}
}

// The interactive level says which row an unnamed or repeated control
// is in; since compares such snapshots without calling a context that
// appears (a second "Edit" arrives) a change.
func TestSinceWithContexts(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/report.html")
	row := `'<tr><td><input type=checkbox></td><td>' + n + '</td><td><button>Edit</button></td></tr>'`
	c.call(t, tab, `{"pageFunction":"(() => { const n = 'Ada'; document.querySelector('main').insertAdjacentHTML('beforeend', '<table><tbody>' + `+row+` + '</tbody></table>'); })()"}`)
	yaml := fmt.Sprint(c.call(t, tab, `{"snapshot":{"detail":"interactive"}}`)[0]["yaml"])
	if !regexp.MustCompile(`- checkbox \[ref=s1e\d+\] in "Ada"\n  - button "Edit" \[ref=s1e\d+\]$`).MatchString(yaml) {
		t.Fatalf("interactive snapshot:\n%s", yaml)
	}
	c.call(t, tab, `{"pageFunction":"(() => { const n = 'Alan'; document.querySelector('tbody').insertAdjacentHTML('beforeend', `+row+`); })()"}`)
	out := c.call(t, tab, `{"snapshot":{"detail":"interactive","since":"s1"}}`)[0]
	want := regexp.MustCompile(`^\{"added":\["checkbox \[ref=s2e\d+\] in \\"Alan\\"","button \\"Edit\\" \[ref=s2e\d+\] in \\"Alan\\""\],"summary":"Since s1\. 2 added \(s2e\d+, s2e\d+\)\."\}$`)
	if got := jsonText(out["changes"]); !want.MatchString(got) {
		t.Errorf("since s1: %s\n%v", got, out)
	}
}

// TestRefsAfterNavigation is the navigation case of issue 3: the next
// document numbers its refs above the last one's, and an old ref is
// reported stale instead of naming a new element.
func TestRefsAfterNavigation(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/form.html")
	old := refOn(t, c.call(t, tab, `{"snapshot":true}`)[0]["yaml"].(string), `button "Sign in"`)
	c.call(t, tab, fmt.Sprintf(`{"goto":%q}`, fixture.URL+"/form.html?again"))
	out := c.call(t, tab, `{"snapshot":true}`)[0]
	now := refOn(t, out["yaml"].(string), `button "Sign in"`)
	// The goto's report already gave the new document's button a ref,
	// numbered above the three of s1's document.
	var n int
	if _, err := fmt.Sscanf(now[strings.Index(now, "e")+1:], "%d", &n); err != nil || out["snapshotId"] != "s2" || n <= 3 {
		t.Errorf("after navigation: %s with the button at %s, want s2 and a ref above s1's three", out["snapshotId"], now)
	}
	if e := c.registry(t)[tab]; e["snapshotId"] != float64(2) || e["elementId"].(float64) < float64(n) {
		t.Errorf("registry counters: %v", e)
	}
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":%q}]}`, tab, old))
	e := firstError(res)
	if code != 1 || e == nil || e["name"] != "StaleElementError" || !strings.Contains(fmt.Sprint(e["error"]), "navigated") {
		t.Errorf("click on a ref of the previous document: %v", res)
	}
	if got := c.value(t, tab, "document.getElementById('out').textContent"); got != "" {
		t.Errorf("the old ref clicked something: %q", got)
	}
}

// TestRefAfterRerender: a framework-style re-render replaces the element a
// ref named; the ref still finds its successor.
func TestRefAfterRerender(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/form.html")
	ref := refOn(t, c.call(t, tab, `{"snapshot":true}`)[0]["yaml"].(string), `button "Sign in"`)
	c.call(t, tab, `{"pageFunction":"const b = document.getElementById('go'); b.replaceWith(b.cloneNode(true))"}`)
	out := c.call(t, tab, fmt.Sprintf(`{"click":%q}`, ref))[0]
	if out["reResolved"] != true {
		t.Errorf("click after re-render: %v", out)
	}
	if got := c.value(t, tab, "document.getElementById('out').textContent"); got != "Hi " {
		t.Errorf("the re-rendered button was not clicked: %q", got)
	}
}

func TestLargeSnapshotGoesToFiles(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html")
	c.call(t, tab, `{"pageFunction":"document.body.innerHTML = Array.from({length: 1200}, (_, i) => '<button>Button ' + i + '</button>').join('<br>')"}`)
	out := c.call(t, tab, `{"snapshot":{"inlineLimit":2000}}`)[0]
	arts, _ := out["artifacts"].(map[string]any)
	if out["truncatedInline"] != true || out["yaml"] != nil || out["refCount"] != float64(1200) || arts == nil {
		t.Fatalf("output: %v", out)
	}
	want := c.tmp + "/cdp-skill/" + tab + ".s1.yaml"
	if arts["snapshot"] != want || !strings.Contains(out["message"].(string), want) {
		t.Errorf("snapshot artifact %v, message %v; want %s", arts["snapshot"], out["message"], want)
	}
	data, err := os.ReadFile(want)
	if err != nil || !strings.Contains(string(data), `- button "Button 1199" [ref=s1e1200]`) {
		t.Errorf("snapshot file: %v\n%.300s", err, data)
	}
	vp, _ := out["viewportSnapshot"].(string)
	if !strings.Contains(vp, `button "Button 0" [ref=s1e1]`) || strings.Contains(vp, "Button 1199") || len(vp) > 2000 {
		t.Errorf("viewportSnapshot: %.500s", vp)
	}
	var refs map[string]map[string]any
	data, err = os.ReadFile(fmt.Sprint(arts["refs"]))
	if err != nil || json.Unmarshal(data, &refs) != nil || len(refs) != 1200 {
		t.Fatalf("refs file %v: %v (%d refs)", arts["refs"], err, len(refs))
	}
	if r := refs["s1e5"]; r["role"] != "button" || r["name"] != "Button 4" || r["selector"] != "body > button:nth-of-type(5)" {
		t.Errorf("refs map entry: %v", r)
	}

	// Under the limit the YAML stays inline, with the refs map beside it.
	out = c.call(t, tab, `{"snapshot":{"inlineLimit":100000}}`)[0]
	if y, _ := out["yaml"].(string); !strings.HasPrefix(y, `- button "Button 0" [ref=s1e1]`) || out["artifacts"].(map[string]any)["refs"] == nil {
		t.Errorf("inline output: %.300v", out)
	}
}

func TestAriaStepValidation(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		`{"snapshot":{"since":"3"}}`:                                       `"s3"`,
		`{"snapshot":{"snapshotFloor":3}}`:                                 `unknown parameter "snapshotFloor"`,
		`{"snapshot":{"pierceShadows":true}}`:                              `did you mean "pierceShadow"`,
		`{"snapshotSearch":{}}`:                                            "give text, pattern, role or near",
		`{"snapshotSearch":{"pattern":"[a-"}}`:                             "not a valid regular expression",
		`{"query":{"name":"Save"}}`:                                        `give "role" or "roles"`,
		`{"query":{"role":"button","nameRegex":"(a"}}`:                     "nameRegex",
		`{"query":{"role":"heading","level":9}}`:                           "level",
		`{"query":{"role":"button","nameExact":true}}`:                     `needs "name"`,
		`{"query":{"roles":["button"],"checked":"yes"}}`:                   `"checked" must be true or false`,
		`{"query":{"selector":"a","limit":-1}}`:                            "limit",
		`{"snapshotSearch":{"text":"x","near":{"x":1,"y":2,"radius":-4}}}`: "radius",
	}
	for steps, want := range cases {
		res, code := newCLI(t).run(fmt.Sprintf(`{"tab":"t1","steps":[%s]}`, steps))
		typ, msg := errorOf(res)
		if code != 1 || typ != "VALIDATION" || !strings.Contains(msg, want) {
			t.Errorf("%s: %s %q, want VALIDATION mentioning %s", steps, typ, msg, want)
		}
	}
}

// TestQueryModes: one query step, two modes; the string and selector forms
// are CSS mode, role and roles are role mode.
func TestQueryModes(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/form.html")
	outs := c.call(t, tab, `{"query":"label"},{"query":{"selector":"label","limit":1}},{"query":{"roles":["textbox","checkbox"],"countOnly":true}}`)
	if outs[0]["total"] != float64(2) || outs[1]["total"] != float64(2) {
		t.Errorf("CSS mode: %v", outs[:2])
	}
	if len(outs[2]) != 1 || outs[2]["total"] != float64(2) {
		t.Errorf("role mode countOnly: %v", outs[2])
	}
}
