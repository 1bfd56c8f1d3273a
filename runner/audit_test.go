package runner_test

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/audit"
	"github.com/cdpskill/cdpskill/cdp/proto"
)

// The audit runs axe-core on fixtures made for it: audit.html breaks four
// rules on purpose (a field without a label, a button without a name,
// faint text, a list holding a div), in its own document, in an open
// shadow root and in a same-origin frame; audit-clean.html breaks none.

// auditOf runs one audit step on tab and returns its output.
func auditOf(t *testing.T, c *cli, tab, params string) map[string]any {
	t.Helper()
	return c.call(t, tab, fmt.Sprintf(`{"audit":%s}`, params))[0]
}

// violations maps each rule the audit names to its violation.
func violations(t *testing.T, out map[string]any) map[string]map[string]any {
	t.Helper()
	vs, ok := out["violations"].([]any)
	if !ok {
		t.Fatalf("no violations list: %v", out)
	}
	m := map[string]map[string]any{}
	for _, v := range vs {
		vm := v.(map[string]any)
		m[vm["rule"].(string)] = vm
	}
	return m
}

// elementWith is the element of v whose line matches re.
func elementWith(t *testing.T, v map[string]any, re string) map[string]any {
	t.Helper()
	for _, e := range v["elements"].([]any) {
		em := e.(map[string]any)
		if regexp.MustCompile(re).MatchString(em["line"].(string)) {
			return em
		}
	}
	t.Fatalf("%s: no element's line matches %s: %v", v["rule"], re, v["elements"])
	return nil
}

func TestAuditNamesTheRulesBrokenWithRefsToActOn(t *testing.T) {
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/audit.html")
	out := auditOf(t, c, tab, "true")
	got := violations(t, out)
	rules := slices.Sorted(func(yield func(string) bool) {
		for r := range got {
			if !yield(r) {
				return
			}
		}
	})
	if want := []string{"button-name", "color-contrast", "label", "list"}; !slices.Equal(rules, want) {
		t.Fatalf("rules %v, want %v: %v", rules, want, out)
	}
	// The gravest first.
	var order []string
	for _, v := range out["violations"].([]any) {
		order = append(order, v.(map[string]any)["impact"].(string))
	}
	if !slices.Equal(order, []string{"critical", "critical", "serious", "serious"}) {
		t.Errorf("impacts in order %v", order)
	}
	if out["frames"] != 1.0 || out["passes"].(float64) < 10 || out["skipped"] != nil {
		t.Errorf("frames %v, passes %v, skipped %v", out["frames"], out["passes"], out["skipped"])
	}
	for rule, count := range map[string]float64{"button-name": 3, "label": 3, "color-contrast": 2, "list": 1} {
		v := got[rule]
		if v["count"] != count || len(v["elements"].([]any)) != int(count) || v["help"] == "" {
			t.Errorf("%s: count %v, elements %v, help %q; want %v of each", rule, v["count"], v["elements"], v["help"], count)
		}
	}
	ref := `\[ref=(s\d+e\d+)\]`
	button := elementWith(t, got["button-name"], `^button `+ref+` in "Audit item one"$`)
	shadowButton := elementWith(t, got["button-name"], `^button `+ref+` in "Shadow item"$`)
	frameButton := elementWith(t, got["button-name"], `^button `+ref+` in "Frame item"$`)
	field := elementWith(t, got["label"], `^textbox `+ref+` in "Email"$`)
	shadowField := elementWith(t, got["label"], `^textbox `+ref+` in "Shadow field"$`)
	frameField := elementWith(t, got["label"], `^textbox `+ref+` in "Frame field"$`)
	elementWith(t, got["color-contrast"], `^paragraph `+ref+`: "Faint note nobody can read"$`)
	elementWith(t, got["color-contrast"], `^paragraph `+ref+`: "Faint frame note"$`)
	elementWith(t, got["list"], `^list `+ref+`: "Apples Pears"$`)
	for _, e := range []map[string]any{frameButton, frameField} {
		if e["frame"] != "inner" {
			t.Errorf("%v: frame %v, want inner", e["line"], e["frame"])
		}
	}
	if button["frame"] != nil || shadowField["frame"] != nil {
		t.Errorf("an element of the current document names a frame: %v %v", button, shadowField)
	}

	// The refs are the agent's to act on, wherever the element is.
	c.call(t, tab, fmt.Sprintf(`{"click":%q},{"click":%q},{"click":%q},{"fill":{"selector":%q,"value":"top"}},{"fill":{"selector":%q,"value":"shadow"}},{"fill":{"selector":%q,"value":"frame"}}`,
		button["ref"], shadowButton["ref"], frameButton["ref"], field["ref"], shadowField["ref"], frameField["ref"]))
	state := c.value(t, tab, `(() => { const sr = card.shadowRoot, f = frames[0].document;
		return [document.querySelector('.item button').dataset.clicks, document.querySelector('#email').value,
			sr.querySelector('button').dataset.clicks, sr.querySelector('input').value,
			f.querySelector('button').dataset.clicks, f.querySelector('input').value].join(' '); })()`)
	if state != "1 top 1 shadow 1 frame" {
		t.Errorf("after the clicks and fills: %v, want 1 top 1 shadow 1 frame", state)
	}

	// Refs are the elements': a second audit hands out the same.
	again := violations(t, auditOf(t, c, tab, "true"))
	if e := elementWith(t, again["button-name"], `in "Audit item one"$`); e["ref"] != button["ref"] {
		t.Errorf("a second audit gave the button %v, the first %v", e["ref"], button["ref"])
	}
}

// A frame of another site, which Chrome renders in a process of its own,
// is audited over its own session, and its refs work from the top.
func TestAuditOutOfProcessFrame(t *testing.T) {
	port := fixture.Listener.Addr().(*net.TCPAddr).Port
	top := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><html lang="en"><head><title>Top</title></head><body><main><h1>Top</h1>
<iframe name="oop" title="Other site" src="http://localhost:%d/audit-frame.html"></iframe></main></body></html>`, port)
	}))
	t.Cleanup(top.Close)
	c := newCLI(t)
	tab := c.openTab(top.URL + "/")
	out := map[string]any{}
	for range 50 { // until the frame has loaded
		if out = auditOf(t, c, tab, "true"); out["frames"] == 1.0 && len(violations(t, out)) > 0 {
			break
		}
	}
	targets, err := proto.TargetGetTargets{}.Do(t.Context(), chromium(t).Conn.Browser())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(targets.TargetInfos, func(ti proto.TargetInfo) bool {
		return ti.Type == "iframe" && strings.HasSuffix(ti.URL, fmt.Sprintf("localhost:%d/audit-frame.html", port))
	}) {
		t.Fatal("the frame is not out of process: no iframe target renders it")
	}
	got := violations(t, out)
	if rules := len(got); rules != 3 || got["button-name"] == nil || got["label"] == nil || got["color-contrast"] == nil {
		t.Fatalf("rules %v, want button-name, label and color-contrast, in the frame: %v", rules, out)
	}
	button := elementWith(t, got["button-name"], `^button \[ref=s\d+e\d+\] in "Frame item"$`)
	field := elementWith(t, got["label"], `^textbox \[ref=s\d+e\d+\] in "Frame field"$`)
	if button["frame"] != "oop" {
		t.Errorf("frame %v, want oop", button["frame"])
	}
	c.call(t, tab, fmt.Sprintf(`{"click":%q},{"fill":{"selector":%q,"value":"far"}}`, button["ref"], field["ref"]))
	state := c.call(t, tab, `{"frame":"iframe"},{"pageFunction":"document.querySelector('button').dataset.clicks + ' ' + document.querySelector('input').value"},{"frame":"top"}`)[1]["value"]
	if state != "1 far" {
		t.Errorf("in the frame after the click and fill: %v, want 1 far", state)
	}
}

func TestAuditCleanPageHasNoViolations(t *testing.T) {
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/audit-clean.html")
	res, code, raw := c.runRaw(fmt.Sprintf(`{"tab":%q,"steps":[{"audit":true}]}`, tab))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, raw)
	}
	out := stepOutputs(t, res)[0]["output"].(map[string]any)
	if vs, ok := out["violations"].([]any); !ok || len(vs) != 0 {
		t.Errorf("violations %v, want [] (said, not left out)", out["violations"])
	}
	if out["passes"].(float64) < 10 || out["frames"] != nil {
		t.Errorf("passes %v, frames %v", out["passes"], out["frames"])
	}
	if !strings.Contains(raw, `"violations":[]`) {
		t.Errorf("the output does not say there are no violations: %s", raw)
	}
}

func TestAuditRootRulesAndLevel(t *testing.T) {
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/audit.html")
	for _, tc := range []struct {
		params string
		rules  []string
		frames any
	}{
		// A root audits its subtree and no frame.
		{`{"root":"#fruit"}`, []string{"list"}, nil},
		{`{"rules":["color-contrast"]}`, []string{"color-contrast"}, 1.0},
		// Contrast is AA, not A.
		{`{"level":"wcag2a"}`, []string{"button-name", "label", "list"}, 1.0},
		{`{"level":"best-practice"}`, nil, 1.0},
		// The rules about the page as a whole are the top document's: a
		// frame has no main landmark of its own to lack.
		{`{"rules":["landmark-one-main","region"]}`, nil, 1.0},
	} {
		t.Run(tc.params, func(t *testing.T) {
			c.t = t
			out := auditOf(t, c, tab, tc.params)
			var rules []string
			for r := range violations(t, out) {
				rules = append(rules, r)
			}
			slices.Sort(rules)
			if !slices.Equal(rules, tc.rules) || out["frames"] != tc.frames || out["skipped"] != nil {
				t.Errorf("rules %v and frames %v, want %v and %v: %v", rules, out["frames"], tc.rules, tc.frames, out)
			}
		})
	}
	t.Run("root not found", func(t *testing.T) {
		c.t = t
		res, _ := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"audit":{"root":"#nothing"}}]}`, tab))
		if e := firstError(res); e == nil || e["name"] != "ElementNotFoundError" || !strings.Contains(fmt.Sprint(e["error"]), `audit root "#nothing" matches no element`) {
			t.Errorf("error %v", e)
		}
	})
	t.Run("root not CSS", func(t *testing.T) {
		c.t = t
		res, _ := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"audit":{"root":"main >> p"}}]}`, tab))
		if e := firstError(res); e == nil || e["name"] != "StepValidationError" || !strings.Contains(fmt.Sprint(e["error"]), `audit root "main >> p" is not a valid CSS selector`) {
			t.Errorf("error %v", e)
		}
	})
}

func TestAuditValidation(t *testing.T) {
	c := newCLI(t)
	for _, tc := range []struct{ step, want string }{
		{`{"audit":false}`, "expected true or an object, got a boolean"},
		{`{"audit":"#main"}`, "expected true or an object, got a string"},
		{`{"audit":{"rule":["label"]}}`, `unknown parameter "rule"; did you mean "rules"?`},
		{`{"audit":{"rules":"label"}}`, `"rules" must be`},
		{`{"audit":{"rules":[]}}`, "rules: empty"},
		{`{"audit":{"rules":["colour-contrast"]}}`, `invalid rule "colour-contrast": not a rule of axe-core ` + audit.Version + `; did you mean "color-contrast"?`},
		{`{"audit":{"level":"wcag3"}}`, `invalid level "wcag3": must be one of best-practice, wcag21aa, wcag22aa, wcag2a, wcag2aa`},
		{`{"audit":{"level":"wcag2a","rules":["label"]}}`, `give "rules" or "level", not both`},
		// Other tools' names for it.
		{`{"axe":true}`, `unknown step "axe"; did you mean {"audit":true}?`},
		{`{"checkA11y":{}}`, `did you mean {"audit":true}?`},
	} {
		t.Run(tc.step, func(t *testing.T) {
			c.t = t
			res, code := c.run(fmt.Sprintf(`{"tab":"t1","steps":[%s]}`, tc.step))
			typ, msg := errorOf(res)
			if code == 0 || typ != "VALIDATION" || !strings.Contains(msg, tc.want) {
				t.Errorf("exit %d, %s: %s; want a VALIDATION error saying %s", code, typ, msg, tc.want)
			}
		})
	}
}
