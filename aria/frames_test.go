package aria_test

import (
	"context"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/aria"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/testbrowser"
	"github.com/cdpskill/cdpskill/page"
)

// xpage is testdata/xframes.html loaded in a fresh tab: served by one
// server, with frames from a second one: "Same site" (127.0.0.1, another
// port: cross-origin in the same process) holding "Nested" (localhost:
// another site), "Broken" (a page that breaks the Map built-in, which
// cdpskill's own world does not see) and, below the
// fold, an unnamed frame on localhost (an out-of-process iframe).
type xpage struct {
	*page.Page
	first, second string // the servers' ports
}

func openXFrames(t *testing.T) xpage {
	t.Helper()
	s := browser.NewTab(t)
	top := testbrowser.Serve(t, "testdata")
	other := testbrowser.Serve(t, "testdata")
	a, errA := url.Parse(top.URL)
	b, errB := url.Parse(other.URL)
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	testbrowser.Navigate(t, s, top.URL+"/xframes.html?b="+b.Port())
	return xpage{page.New(s), a.Port(), b.Port()}
}

// inFrame returns a page evaluating in the frame whose URL starts with
// prefix.
func inFrame(t *testing.T, p *page.Page, prefix string) *page.Page {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	list, err := p.Frames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range list.Frames {
		if strings.HasPrefix(f.URL, prefix) {
			fp := p.Top()
			fp.Enter(f)
			return fp
		}
	}
	t.Fatalf("no frame at %s", prefix)
	return nil
}

// hasLines fails unless yaml holds each line, in this order.
func hasLines(t *testing.T, yaml string, want ...string) {
	t.Helper()
	lines := strings.Split(yaml, "\n")
	at := 0
	for _, w := range want {
		i := slices.Index(lines[at:], w)
		if i < 0 {
			t.Errorf("no line %q (in order) in:\n%s", w, yaml)
			return
		}
		at += i + 1
	}
}

// refsWithin returns the refs in the lines under the first line that
// starts with head (after its indent), down to the next line as shallow.
func refsWithin(yaml, head string) []string {
	lines := strings.Split(yaml, "\n")
	for i, l := range lines {
		ind := len(l) - len(strings.TrimLeft(l, " "))
		if !strings.HasPrefix(l[ind:], "- "+head) {
			continue
		}
		var block []string
		for _, c := range lines[i+1:] {
			if len(c)-len(strings.TrimLeft(c, " ")) <= ind {
				break
			}
			block = append(block, c)
		}
		return refsIn(strings.Join(block, "\n"))
	}
	return nil
}

// TestCrossOriginFrames: with includeFrames, the content of cross-origin
// frames, in-process and out-of-process alike and nested, is shown in
// place with refs in the snapshot's namespace that live in the frames'
// own windows; without it, the iframe lines are as they were.
func TestCrossOriginFrames(t *testing.T) {
	p := openXFrames(t)
	oopif := "http://localhost:" + p.second + "/xframe_child.html"
	if !isOOPIF(t, oopif) {
		t.Fatalf("%s is not an out-of-process iframe: the test would not cover one", oopif)
	}

	res := snap(t, p.Page, aria.Options{IncludeFrames: true})
	golden(t, "xframes_include", res.YAML)
	hasLines(t, res.YAML,
		`- document "Same site" [cross-origin]:`,
		`  - button "Frame button" [ref=s1e4]`,
		`  - document "Nested" [cross-origin]:`,
		`    - button "Leaf button" [ref=s1e7]`,
		`- document "Broken" [cross-origin]:`,
		`  - button "Unreachable" [ref=s1e8]`,
		`- document "Frame page" [cross-origin]:`, // no name of its own: its title
	)
	refs := refsIn(res.YAML)
	if len(refs) != res.Refs || res.SnapshotID != "s1" {
		t.Errorf("Refs = %d, SnapshotID %q; the YAML shows %v", res.Refs, res.SnapshotID, refs)
	}
	// The top document's refs come first, the frames' numbers above them
	// in reading order: s1e1 … s1e<n>, each once.
	top := []string{refs[0], refs[len(refs)-1]}
	if !slices.Equal(top, []string{"s1e1", "s1e2"}) {
		t.Errorf("top document's refs = %v, want s1e1 s1e2", top)
	}
	sorted := slices.Clone(refs)
	slices.SortFunc(sorted, func(a, b string) int { return refNumber(a) - refNumber(b) })
	for i, r := range sorted {
		if want := "s1e" + strconv.Itoa(i+1); r != want {
			t.Errorf("refs %v: number %d is %s, want %s (one namespace, each number once)", refs, i+1, r, want)
			break
		}
	}
	if res.LastSnapshot != 1 || res.LastElement != len(refs) {
		t.Errorf("counters after the snapshot = s%d e%d, want s1 e%d", res.LastSnapshot, res.LastElement, len(refs))
	}

	// Each frame's refs are its own window's, with the meta of the ref
	// contract; the top window has only its own.
	windows := map[string]*page.Page{
		"top":    p.Page,
		"same":   inFrame(t, p.Page, "http://127.0.0.1:"+p.second+"/xframe_child.html"),
		"nested": inFrame(t, p.Page, "http://localhost:"),
		"oopif":  inFrame(t, p.Page, oopif),
	}
	nested := refsWithin(res.YAML, `document "Nested"`)
	same := slices.DeleteFunc(refsWithin(res.YAML, `document "Same site"`), func(r string) bool { return slices.Contains(nested, r) })
	want := map[string][]string{
		"same": same, "nested": nested, "oopif": refsWithin(res.YAML, `document "Frame page"`),
		"top": top,
	}
	for name, fp := range windows {
		var got []string
		if err := fp.CallJS(t.Context(), `function () { return [...window.__ariaRefs.keys()]; }`, &got); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !slices.Equal(got, want[name]) || len(got) == 0 {
			t.Errorf("%s window's refs = %v, want %v", name, got, want[name])
		}
		checkRefs(t, fp)
	}
	var id string
	button := refNamed(t, res.YAML, `button "Frame button"`)
	if err := windows["same"].CallJS(t.Context(), `function (r) { return window.__ariaRefs.get(r).id; }`, &id, button); err != nil || id != "frame-button" {
		t.Errorf("%s in the frame's window = %q (%v), want #frame-button", button, id, err)
	}

	// A later snapshot keeps the frames' refs and numbers new ones above
	// every ref so far, given the counters the runner saves.
	eval(t, windows["oopif"], `document.body.insertAdjacentHTML('beforeend', '<button>Late</button>')`)
	again := snap(t, p.Page, aria.Options{IncludeFrames: true, SnapshotFloor: res.LastSnapshot, ElementFloor: res.LastElement})
	late := "s2e" + strconv.Itoa(len(refs)+1)
	if got, want := refsIn(again.YAML), slices.Insert(slices.Clone(refs), len(refs)-1, late); !slices.Equal(got, want) {
		t.Errorf("second snapshot's refs = %v, want %v", got, want)
	}
	if again.LastSnapshot != 2 || again.LastElement != len(refs)+1 {
		t.Errorf("counters = s%d e%d, want s2 e%d", again.LastSnapshot, again.LastElement, len(refs)+1)
	}

	// Without includeFrames the frames are the lines they always were.
	plain := snap(t, p.Page, aria.Options{})
	hasLines(t, plain.YAML, `- iframe "Same site"`, `- iframe "Broken"`, `- iframe`)
	if strings.Contains(plain.YAML, "Frame button") || strings.Contains(plain.YAML, "document") {
		t.Errorf("frames shown without includeFrames:\n%s", plain.YAML)
	}
}

// TestCrossOriginFrameLimits: detail levels, maxDepth, maxElements,
// viewportOnly and plain mode reach into cross-origin frames.
func TestCrossOriginFrameLimits(t *testing.T) {
	p := openXFrames(t)

	inter := snap(t, p.Page, aria.Options{IncludeFrames: true, Detail: aria.DetailInteractive})
	hasLines(t, inter.YAML,
		`- button "Top button" [ref=s1e1]`,
		`- document "Same site" [cross-origin]:`,
		`  - textbox "Frame field" [name=field] [ref=s1e3]: ""`,
		`  - document "Nested" [cross-origin]:`,
		`- document "Frame page" [cross-origin]:`,
	)
	if strings.Contains(inter.YAML, "heading") || !strings.Contains(inter.YAML, `document "Broken"`) {
		t.Errorf("interactive snapshot shows headings or misses the frame that broke Map:\n%s", inter.YAML)
	}

	sum := snap(t, p.Page, aria.Options{IncludeFrames: true, Detail: aria.DetailSummary})
	hasLines(t, sum.YAML,
		"# summary: 0 landmarks, 4 headings, 11 interactive",
		`- heading "Cross-origin frames" [level=1]`,
		`- heading "Frame" [level=2]`,
		`- heading "Leaf" [level=3]`,
		`- heading "Frame" [level=2]`,
	)

	shallow := snap(t, p.Page, aria.Options{IncludeFrames: true, MaxDepth: 1})
	hasLines(t, shallow.YAML, // too deep to read: the frames keep their lines
		`- iframe "Same site" [cross-origin] [url=http://127.0.0.1:`+p.second+`/xframe_child.html?nest=http%3A%2F%2Flocalhost%3A`+p.first+`%2Fxframe_leaf.html]`,
		`- iframe [cross-origin] [url=http://localhost:`+p.second+`/xframe_child.html]`)
	if strings.Contains(shallow.YAML, "Frame button") {
		t.Errorf("maxDepth 1 shows frame content:\n%s", shallow.YAML)
	}

	few := snap(t, p.Page, aria.Options{IncludeFrames: true, MaxElements: 12, Mode: aria.ModePlain})
	if !few.Truncated || strings.Contains(few.YAML, "Leaf") {
		t.Errorf("maxElements 12: truncated %v\n%s", few.Truncated, few.YAML)
	}

	view := snap(t, p.Page, aria.Options{IncludeFrames: true, ViewportOnly: true, Mode: aria.ModePlain})
	hasLines(t, view.YAML, `- document "Same site" [cross-origin]:`, `  - button "Frame button"`, `    - button "Leaf button"`)
	for _, out := range []string{"Below the frame", "Frame page", "After frames", "[ref="} {
		if strings.Contains(view.YAML, out) {
			t.Errorf("viewportOnly plain snapshot shows %q:\n%s", out, view.YAML)
		}
	}
}

// refNumber is M in sNeM.
func refNumber(ref string) int {
	_, m, _ := strings.Cut(ref, "e")
	n, _ := strconv.Atoi(m)
	return n
}

// isOOPIF tells whether Chrome renders the frame at url in a process of
// its own.
func isOOPIF(t *testing.T, url string) bool {
	t.Helper()
	res, err := proto.TargetGetTargets{}.Do(t.Context(), browser.Conn.Browser())
	if err != nil {
		t.Fatal(err)
	}
	for _, ti := range res.TargetInfos {
		if ti.Type == "iframe" && ti.URL == url {
			return true
		}
	}
	return false
}
