package aria_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/aria"
	"github.com/cdpskill/cdpskill/page"
)

// refMeta reads what the page recorded for ref.
func refMeta(t *testing.T, p *page.Page, ref string) aria.RefMeta {
	t.Helper()
	var m aria.RefMeta
	if err := p.CallJS(t.Context(), `function (ref) { return window.__ariaRefMeta.get(ref); }`, &m, ref); err != nil {
		t.Fatal(err)
	}
	return m
}

// refNamed finds the ref on the line of yaml that contains text.
func refNamed(t *testing.T, yaml, text string) string {
	t.Helper()
	for _, line := range strings.Split(yaml, "\n") {
		if strings.Contains(line, text) {
			if m := refRE.FindStringSubmatch(line); m != nil {
				return m[1]
			}
		}
	}
	t.Fatalf("no ref on a line with %q in:\n%s", text, yaml)
	return ""
}

// TestShadowRefs: refs inside nested open shadow roots record the path of
// hosts that leads to them, and each selector works in its own tree, even
// where an id repeats in another tree.
func TestShadowRefs(t *testing.T) {
	p := open(t, "shadow.html")
	res := snap(t, p, aria.Options{})
	if strings.Contains(res.YAML, "Closed secret") {
		t.Errorf("a closed shadow root was entered:\n%s", res.YAML)
	}
	cases := []struct {
		text string
		path []string
		sel  string
	}{
		{`button "Light twin"`, nil, "#dup"}, // the other #dup is in another tree
		{`button "Outer button"`, []string{"#outer"}, ":host > button"},
		{`textbox "Mid field"`, []string{"#outer", "#mid-host"}, ":host > label > input"},
		{`link "Deep link"`, []string{"#outer", "#mid-host", "#deep-host"}, ":host > a"},
		{`button "Deep twin"`, []string{"#outer", "#mid-host", "#deep-host"}, "#dup"},
		{`button "Slotted action"`, nil, "#cards > button"},
	}
	for _, c := range cases {
		m := refMeta(t, p, refNamed(t, res.YAML, c.text))
		if !slices.Equal(m.ShadowPath, c.path) || m.Selector != c.sel {
			t.Errorf("%s: meta %+v, want shadowPath %v selector %q", c.text, m, c.path, c.sel)
		}
	}
	checkRefs(t, p)

	// The light DOM alone: the slotted content, not the shadow trees.
	plain := snap(t, p, aria.Options{PierceShadow: ptr(false)})
	if strings.Contains(plain.YAML, "Outer button") || !strings.Contains(plain.YAML, "Slotted light paragraph") {
		t.Errorf("snapshot without pierceShadow:\n%s", plain.YAML)
	}
}

// TestFrameRefs: refs inside same-origin frames (nested, srcdoc) record
// the frame elements that lead to them, from the top document down.
func TestFrameRefs(t *testing.T) {
	p := open(t, "frames.html")
	res := snap(t, p, aria.Options{IncludeFrames: true})
	cases := []struct {
		text  string
		frame []string
		sel   string
	}{
		{`button "Child button"`, []string{"body > main > iframe:nth-of-type(1)"}, "#child-button"},
		{`link "Nested link"`, []string{"body > main > iframe:nth-of-type(1)", "body > iframe"}, "body > a"},
		{`button "Srcdoc button"`, []string{"body > main > iframe:nth-of-type(2)"}, "body > button"},
	}
	for _, c := range cases {
		m := refMeta(t, p, refNamed(t, res.YAML, c.text))
		if !slices.Equal(m.Frame, c.frame) || m.Selector != c.sel {
			t.Errorf("%s: meta %+v, want frame %v selector %q", c.text, m, c.frame, c.sel)
		}
	}
	checkRefs(t, p)
}

// TestFramesetFramesSnapshotted (issue 3 lesson): the frames of a
// <frameset> are snapshotted like iframes, with refs that lead into them,
// even without includeFrames.
func TestFramesetFramesSnapshotted(t *testing.T) {
	p := open(t, "frameset.html")
	res := snap(t, p, aria.Options{})
	for _, want := range []string{`- document "left":`, `link "One"`, `- document "right":`, `button "Child button"`} {
		if !strings.Contains(res.YAML, want) {
			t.Errorf("frameset snapshot lacks %s:\n%s", want, res.YAML)
		}
	}
	m := refMeta(t, p, refNamed(t, res.YAML, `link "Two"`))
	if !slices.Equal(m.Frame, []string{"html > frameset > frame:nth-of-type(1)"}) {
		t.Errorf("frame path of a frameset frame: %+v", m)
	}
	checkRefs(t, p)
}
