package runner_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/runner"
)

// SKILL.md's inline examples and its step table's outputs run too:
// every step an inline code span shows runs against testdata/docs/skill.html
// (whose first refs are the ones the text names), and every step's output
// has the fields the table says, no more (but for the few any action may
// add, which the text explains).

// skillPage is the page the inline examples run against.
const skillPage = "/docs/skill.html"

// skillTab is a tab on the skill page the examples share.
type skillTab struct {
	c     *cli
	alias string
	away  bool // the last call left the page or entered a frame: load it again
}

func newSkillTab(t *testing.T, c *cli) *skillTab {
	return &skillTab{c: c, alias: c.openTab(fixture.URL + skillPage)}
}

// call runs steps on the skill page and returns the last one. Steps that
// name refs or snapshots (s1e3, "since":"s1") get a tab of their own,
// whose first snapshot, taken first, is s1, as an agent's is.
func (st *skillTab) call(t *testing.T, steps ...string) (map[string]any, string) {
	t.Helper()
	c, page, list := st.c, fixture.URL+skillPage, strings.Join(steps, ",")
	input := fmt.Sprintf(`{"tab":%q,"steps":[%s]}`, st.alias, list)
	if st.away {
		input = fmt.Sprintf(`{"tab":%q,"steps":[{"frame":"top"},{"goto":%q},%s]}`, st.alias, page, list)
	}
	fresh := namesRefs.MatchString(list)
	if fresh {
		// In the test browser: with no endpoint, openTab would launch a
		// Chrome of its own, which would outlive the test.
		input = fmt.Sprintf(`{"steps":[{"openTab":{"url":%q,"host":%q,"port":%d}},{"snapshot":true},%s]}`,
			page, chromium(t).Endpoint.Host, chromium(t).Endpoint.Port, list)
	}
	res, code, got := c.runRaw(input)
	alias, _ := res["tab"].(string)
	if fresh && alias != "" {
		defer c.run(fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, alias))
	}
	if ctx, _ := res["context"].(map[string]any); !fresh {
		st.away = ctx == nil || ctx["url"] != page || ctx["frame"] != nil
	}
	if code != 0 {
		t.Fatalf("%s\nexit %d: %s", list, code, got)
	}
	done, _ := res["steps"].([]any)
	last, _ := done[len(done)-1].(map[string]any)
	return last, got
}

var namesRefs = regexp.MustCompile(`"s1(e\d+)?"|'s1e\d+'`)

func TestSkillSnippetsRun(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	c := newCLI(t)
	c.dir = t.TempDir()
	// The files the examples name: an upload's ./me.png, a script.
	os.WriteFile(filepath.Join(c.dir, "me.png"), []byte("\x89PNG\r\n\x1a\n"), 0o600)
	script := filepath.Join(c.tmp, "s.js")
	os.WriteFile(script, []byte("document.title"), 0o600)
	tab := newSkillTab(t, c)
	snippets := inlineSteps(string(data))
	if len(snippets) < 20 {
		t.Fatalf("only %d inline step examples in SKILL.md", len(snippets))
	}
	for _, snip := range snippets {
		t.Run(snip, func(t *testing.T) {
			c.t = t
			step := strings.ReplaceAll(snip, "/tmp/s.js", script)
			// What an example leaves behind (offline, emulation, a frame) is undone
			// in the same call, so the next one starts afresh.
			tab.call(t, step, `{"network":{"offline":false,"throttle":"off"}}`, `{"emulate":"reset"}`, `{"frame":"top"}`)
		})
	}
}

// inlineSteps returns the steps SKILL.md shows in inline code, outside
// code blocks (whose commands TestDocsExamplesRun runs): objects whose
// one key is a step's name, placeholders (…) left out.
func inlineSteps(doc string) []string {
	var out []string
	inBlock := false
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inBlock = !inBlock
			continue
		}
		if inBlock || strings.HasPrefix(line, "| `") { // the step table's forms are not examples
			continue
		}
		for parts := strings.Split(line, "`"); len(parts) > 2; parts = parts[2:] {
			span := parts[1]
			var obj map[string]json.RawMessage
			if strings.Contains(span, "…") || json.Unmarshal([]byte(span), &obj) != nil {
				continue
			}
			for k := range obj {
				if _, ok := stepInfo(k); ok && !slices.Contains(out, span) {
					out = append(out, span)
				}
			}
		}
	}
	return out
}

// stepInfo is the registry's entry for a step.
func stepInfo(name string) (runner.StepInfo, bool) {
	i := slices.IndexFunc(runner.Steps(), func(s runner.StepInfo) bool { return s.Name == name })
	if i < 0 {
		return runner.StepInfo{}, false
	}
	return runner.Steps()[i], true
}

// outputExamples are, for each step, calls whose outputs show its forms.
// Steps that need no tab run on their own; the others on the skill page.
var outputExamples = map[string][]string{
	"chromeStatus":     {`{"chromeStatus":true}`},
	"listTabs":         {`{"listTabs":true}`},
	"readSiteProfile":  {`{"readSiteProfile":"example.com"}`},
	"writeSiteProfile": {`{"writeSiteProfile":{"domain":"example.com","content":"# example.com"}}`},
	"sleep":            {`{"sleep":1}`},
	"goto":             {`{"goto":"/docs/skill.html"}`},
	"reload":           {`{"reload":true}`},
	"back":             {`{"back":true}`},
	"forward":          {`{"forward":true}`},
	"wait":             {`{"wait":"#save"}`, `{"wait":{"text":"Settings"}}`},
	"pageFunction":     {`{"pageFunction":"console.log('hi'), document.title"}`},
	"poll":             {`{"poll":"() => document.title"}`},
	"frame":            {`{"frame":{"list":true}}`, `{"frame":"iframe#pay"}`},
	"snapshot":         {`{"snapshot":true}`, `{"snapshot":{"since":"s1"}}`, `{"click":"#terms"},{"snapshot":{"since":"s1"}}`},
	"snapshotSearch":   {`{"snapshotSearch":"Save"}`},
	"query":            {`{"query":"li"}`, `{"query":{"role":"button","name":"Save"}}`},
	"queryAll":         {`{"queryAll":{"label":"li"}}`},
	"inspect":          {`{"inspect":true}`},
	"extract":          {`{"extract":"#members"}`, `{"extract":"#projects"}`},
	"getDom":           {`{"getDom":"#projects"}`},
	"getBox":           {`{"getBox":"s1e1"}`, `{"getBox":"s9e9"}`, `{"getBox":["s1e1","s1e2"]}`},
	"elementsAt":       {`{"elementsAt":{"x":100,"y":95}}`, `{"elementsAt":[{"x":100,"y":95}]}`, `{"elementsAt":{"x":100,"y":95,"radius":30}}`},
	"formState":        {`{"formState":"#profile"}`},
	"validate":         {`{"validate":"#email"}`},
	"submit":           {`{"fill":{"#email":"ada@x.io"}},{"submit":"#profile"}`},
	"assert":           {`{"assert":{"text":"Settings"}}`},
	"pipeline":         {`{"pipeline":[{"find":"#last","fill":"x"},{"return":"document.title"}]}`},
	"audit":            {`{"audit":true}`, `{"audit":{"root":"#profile","level":"wcag2a"}}`},
	"vitals":           {`{"vitals":true}`, `{"vitals":{"url":"/docs/skill.html","cold":true}}`},
	"click":            {`{"click":"#save"}`},
	"fill":             {`{"fill":{"selector":"#last","value":"Lovelace"}}`, `{"fill":{"Email":"ada@x.io","#last":"L"}}`},
	"type":             {`{"type":{"selector":"#last","text":"xy"}}`},
	"press":            {`{"press":"Tab"}`},
	"hover":            {`{"hover":{"selector":"#save","captureResult":true}}`},
	"drag":             {`{"drag":{"source":"#save","target":"#last"}}`},
	"scroll":           {`{"scroll":"bottom"}`},
	"selectOption":     {`{"selectOption":{"selector":"#plan","value":"team"}}`},
	"selectText":       {`{"selectText":"#team"}`},
	"upload":           {`{"upload":{"selector":"#avatar","files":["/etc/hostname"]}}`},
	"getUrl":           {`{"getUrl":true}`},
	"getTitle":         {`{"getTitle":true}`},
	"screenshot":       {`{"screenshot":true}`, `{"screenshot":{"annotate":true}}`},
	"history":          {`{"history":true}`},
	"keepArtifacts":    {`{"keepArtifacts":"$TMPDIR/kept"}`},
	"pdf":              {`{"pdf":true}`},
	"console":          {`{"console":true}`, `{"console":{"clear":true}}`},
	"network":          {`{"network":true}`, `{"network":{"har":true}}`, `{"network":{"clear":true}}`, `{"network":{"offline":false}}`},
	"route":            {`{"route":{"url":"*/nothing","status":500}}`, `{"route":{"url":"*/nothing","abort":"failed"}}`},
	"unroute":          {`{"unroute":true}`},
	"viewport":         {`{"viewport":"iphone-15"}`, `{"viewport":"reset"}`},
	"emulate":          {`{"emulate":{"colorScheme":"dark","reducedMotion":true}}`, `{"emulate":"reset"}`},
	"cookies":          {`{"cookies":true}`, `{"cookies":{"set":[{"name":"a","value":"b"}]}}`, `{"cookies":{"delete":"a"}}`, `{"cookies":{"clear":true}}`},
	"storage":          {`{"storage":{"local":{"set":{"k":"v"},"get":"k"}}}`},
	"saveState":        {`{"saveState":"skill-state.json"}`},
	"loadState":        {`{"loadState":"skill-state.json"}`},
	"serviceWorker":    {`{"serviceWorker":true}`},
}

// anyAction are the fields any action's output may add, which SKILL.md's
// prose explains rather than every shape.
var anyAction = []string{"reResolved", "target", "autoForced", "warning", "navigated", "newUrl"}

func TestStepOutputsAsDocumented(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	c.cdpURL = fmt.Sprintf("http://%s:%d", chromium(t).Endpoint.Host, chromium(t).Endpoint.Port)
	tab := newSkillTab(t, c)
	for _, s := range runner.Steps() {
		examples := outputExamples[s.Name]
		// The tab steps are checked below; record, which needs a keeper,
		// in TestRecordAcrossCalls.
		if len(examples) == 0 && s.Name != "openTab" && s.Name != "connectTab" && s.Name != "closeTab" && s.Name != "record" {
			t.Errorf("%s: no example in outputExamples to check its documented output against", s.Name)
		}
		for _, ex := range examples {
			t.Run(s.Name+" "+ex, func(t *testing.T) {
				c.t = t
				ex := strings.ReplaceAll(ex, `"`+skillPage+`"`, `"`+fixture.URL+skillPage+`"`)
				ex = strings.ReplaceAll(ex, "$TMPDIR", c.tmp)
				var out map[string]any
				if s.NeedsTab {
					step, got := tab.call(t, ex)
					if step["status"] != "ok" {
						t.Fatalf("failed: %s", got)
					}
					out, _ = step["output"].(map[string]any)
				} else {
					res, code, got := c.runRaw(fmt.Sprintf(`{"steps":[%s]}`, ex))
					if code != 0 {
						t.Fatalf("exit %d: %s", code, got)
					}
					out, _ = stepOutputs(t, res)[0]["output"].(map[string]any)
				}
				if err := matchShape(s.Output, out); err != "" {
					t.Errorf("SKILL.md says %s → %s; got %v", s.Name, s.Output, out)
					t.Log(err)
				}
			})
		}
	}
	// The tab steps, in the order an agent uses them.
	t.Run("tabs", func(t *testing.T) {
		c.t = t
		opened := ""
		for _, call := range []struct{ step, input string }{
			{"openTab", fmt.Sprintf(`{"steps":[{"openTab":%q}]}`, fixture.URL+skillPage)},
			{"connectTab", `{"steps":[{"connectTab":"TAB"}]}`},
			{"closeTab", `{"steps":[{"closeTab":"TAB"}]}`},
		} {
			res, code, got := c.runRaw(strings.ReplaceAll(call.input, "TAB", opened))
			if code != 0 {
				t.Fatalf("exit %d: %s", code, got)
			}
			out, _ := stepOutputs(t, res)[0]["output"].(map[string]any)
			if opened == "" {
				opened, _ = out["tab"].(string)
			}
			info, _ := stepInfo(call.step)
			shape := info.Output
			if err := matchShape(shape, out); err != "" {
				t.Errorf("SKILL.md says %s → %s; got %v: %s", call.step, shape, out, err)
			}
		}
	})
}

// matchShape says how out fails every alternative of a documented shape
// ("{a, b?, c: […]} | {d}"), or "" when one fits: its fields without ?
// are all there and out has no field it lacks. An alternative with a
// bare … has fields the page names (refs, labels): anything fits it.
func matchShape(shape string, out map[string]any) string {
	if shape == "" {
		if len(out) > 0 {
			return "the table shows no output"
		}
		return ""
	}
	var why []string
	for _, alt := range splitTop(shape, '|') {
		required, allowed, open := shapeFields(alt)
		if open {
			return ""
		}
		var miss, extra []string
		for _, f := range required {
			if _, ok := out[f]; !ok {
				miss = append(miss, f)
			}
		}
		for f := range out {
			if !slices.Contains(allowed, f) && !slices.Contains(anyAction, f) {
				extra = append(extra, f)
			}
		}
		if len(miss) == 0 && len(extra) == 0 {
			return ""
		}
		why = append(why, fmt.Sprintf("%s: missing %v, not documented %v", strings.TrimSpace(alt), miss, extra))
	}
	return strings.Join(why, "; ")
}

// shapeFields reads one alternative's top-level fields.
func shapeFields(alt string) (required, allowed []string, open bool) {
	alt = strings.TrimSpace(alt)
	alt = strings.TrimSuffix(strings.TrimPrefix(alt, "{"), "}")
	for _, f := range splitTop(alt, ',') {
		f = strings.TrimSpace(f)
		if f == "…" {
			return nil, nil, true
		}
		name, _, _ := strings.Cut(f, ":")
		name = strings.TrimSpace(name)
		if opt, ok := strings.CutSuffix(name, "?"); ok {
			allowed = append(allowed, opt)
			continue
		}
		required = append(required, name)
		allowed = append(allowed, name)
	}
	return required, allowed, false
}

// splitTop splits s at sep outside brackets and braces.
func splitTop(s string, sep rune) []string {
	var parts []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case sep:
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + len(string(r))
			}
		}
	}
	return append(parts, s[start:])
}
