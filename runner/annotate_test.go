package runner_test

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/capture"
)

// An annotated screenshot boxes each interactive element on screen with
// its ref, drawn on the image: each label sits inside its element's box
// (as getBox tells it) at the top left, the outline runs along the box,
// and the crowded links whose labels overlap are in the legend.
func TestAnnotatedScreenshotLabelsInBoxes(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/annotate.html")
	outs := c.call(t, tab, `{"snapshot":{"includeFrames":true}},{"screenshot":{"annotate":true}},
		{"pageFunction":"(() => { const f = frame.getBoundingClientRect(), b = frame.contentDocument.getElementById('inner').getBoundingClientRect(); return [f.left + b.left, f.top + b.top, b.width, b.height]; })()"}`)
	refs := refsByName(outs[0]["yaml"].(string))
	shot := outs[1]
	if num(shot["annotated"]) != 11 {
		t.Errorf("annotated %v elements, want the 10 of the page and the frame's 1 on screen: %v", shot["annotated"], shot)
	}
	legend, _ := shot["legend"].(map[string]any)
	if len(legend) == 0 {
		t.Errorf("no legend for the crowded links: %v", shot)
	}
	for ref, says := range legend {
		if !strings.HasPrefix(says.(string), `link "`) || !slices.Contains(crowd, nameOf(refs, ref)) {
			t.Errorf("legend %s: %v, want a crowded link", ref, says)
		}
	}
	img := decodePNGFile(t, shot["path"].(string))
	scale := 1.0
	if s, ok := shot["scale"].(float64); ok {
		scale = s
	}
	spacious := []string{"Save", "Cancel", "Name", "Help"}
	boxes := c.call(t, tab, fmt.Sprintf(`{"getBox":[%q,%q,%q,%q]}`, refs["Save"], refs["Cancel"], refs["Name"], refs["Help"]))[0]
	for _, name := range spacious {
		b, _ := boxes[refs[name]].(map[string]any)
		if _, ok := legend[refs[name]]; ok || b == nil {
			t.Errorf("%s (%s): in the legend or without a box: %v", name, refs[name], b)
			continue
		}
		checkLabelled(t, img, name, cssBox(b, scale))
	}
	// The frame's button, in the tab's coordinates.
	f, _ := outs[2]["value"].([]any)
	if len(f) == 4 {
		checkLabelled(t, img, "Inside", scaledRect(f[0].(float64), f[1].(float64), f[2].(float64), f[3].(float64), scale))
	}
	// Off screen is not annotated: the button below the fold has no box.
	if strings.Contains(fmt.Sprint(legend), "Below") {
		t.Errorf("the button below the fold is in the legend: %v", legend)
	}
}

// crowd are the names of the fixture's links too close for their labels.
var crowd = []string{"1", "2", "3", "4", "5", "6"}

// The capture, annotated or not, leaves the page's DOM as it was: the
// fixture's MutationObserver (on the document: subtree, attributes,
// childList, characterData) hears nothing, for the screenshot step and
// for the report's annotated screenshot; the report's is annotated only
// when asked.
func TestAnnotatedScreenshotLeavesTheDOMAlone(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/annotate.html")
	const reset = `{"pageFunction":"(mutations = 0, observer.takeRecords(), 0)"}`
	outs := c.call(t, tab, reset+`,{"screenshot":{"annotate":true}},{"screenshot":{"annotate":true,"fullPage":true,"format":"jpeg"}},
		{"screenshot":{"annotate":true,"selector":"#cancel","padding":8}},{"pageFunction":"seen()"}`)
	if n := outs[4]["value"]; n != float64(0) {
		t.Errorf("the page saw %v mutations during annotated screenshots", n)
	}
	if outs[2]["format"] != "jpeg" || num(outs[2]["annotated"]) != 12 {
		t.Errorf("full page, as jpeg: %v", outs[2])
	}
	if num(outs[3]["annotated"]) != 1 {
		t.Errorf("an element's screenshot boxes what it shows: %v", outs[3])
	}

	plain := c.act(t, tab, `{"scroll":{"y":1}}`)
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"annotate":true,"steps":[%s,{"scroll":{"y":0}}]}`, tab, reset))
	if code != 0 {
		t.Fatalf("annotated report: %v", res)
	}
	if n := c.value(t, tab, "seen()"); n != float64(0) {
		t.Errorf("the page saw %v mutations during a call whose report was annotated", n)
	}
	if marked(decodePNGFile(t, plain["screenshot"].(string))) > 0 {
		t.Errorf("the report's screenshot is annotated unasked")
	}
	if marked(decodePNGFile(t, res["screenshot"].(string))) == 0 || res["screenshotLegend"] == nil {
		t.Errorf("the report's screenshot is not annotated: %v", res)
	}
}

// The report's annotated screenshot is labelled from the report's own
// walk: its labels sit in their boxes, and the refs of its legend are the
// viewportSnapshot's.
func TestAnnotatedReportScreenshot(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/annotate.html")
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"annotate":true,"steps":[{"click":"#save"}]}`, tab))
	if code != 0 || res["warnings"] != nil {
		t.Fatalf("%v", res)
	}
	view := res["viewportSnapshot"].(string)
	legend, _ := res["screenshotLegend"].(map[string]any)
	if len(legend) == 0 {
		t.Errorf("no legend for the crowded links: %v", res)
	}
	for ref := range legend {
		if !strings.Contains(view, "[ref="+ref+"]") {
			t.Errorf("legend's %s is not in the viewportSnapshot:\n%s", ref, view)
		}
	}
	refs := refsByName(view)
	box := c.call(t, tab, fmt.Sprintf(`{"getBox":%q}`, refs["Save"]))[0]
	scale := 1.0
	if s, ok := res["screenshotScale"].(float64); ok {
		scale = s
	}
	checkLabelled(t, decodePNGFile(t, res["screenshot"].(string)), "Save", cssBox(box, scale))
}

var refLine = regexp.MustCompile(`(?m)^\s*- \w+ "([^"]*)".*\[ref=(s\d+e\d+)\]`)

// refsByName reads a snapshot's refs by their elements' names.
func refsByName(yaml string) map[string]string {
	refs := map[string]string{}
	for _, m := range refLine.FindAllStringSubmatch(yaml, -1) {
		refs[m[1]] = m[2]
	}
	return refs
}

// nameOf is the name refs has for ref.
func nameOf(refs map[string]string, ref string) string {
	for name, r := range refs {
		if r == ref {
			return name
		}
	}
	return ""
}

func decodePNGFile(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// cssBox is a getBox box in image pixels.
func cssBox(b map[string]any, scale float64) image.Rectangle {
	return scaledRect(b["x"].(float64), b["y"].(float64), b["width"].(float64), b["height"].(float64), scale)
}

func scaledRect(x, y, w, h, scale float64) image.Rectangle {
	return image.Rect(int(math.Round(x*scale)), int(math.Round(y*scale)), int(math.Round((x+w)*scale)), int(math.Round((y+h)*scale)))
}

func is(img image.Image, x, y int, c color.RGBA) bool {
	r, g, b, _ := img.At(x, y).RGBA()
	return uint8(r>>8) == c.R && uint8(g>>8) == c.G && uint8(b>>8) == c.B
}

// marked counts the pixels of the annotation's colour.
func marked(img image.Image) int {
	n := 0
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			if is(img, x, y, capture.MarkColor) {
				n++
			}
		}
	}
	return n
}

// checkLabelled checks, from the image, that box b is outlined (the
// middle of each edge, a pixel in, is the mark's colour) and that its
// label is inside it at the top left: past the outline, the mark's
// colour starts in the top left corner and stays inside the box, and the
// label's text (the only white on the page) is drawn within it.
func checkLabelled(t *testing.T, img image.Image, name string, b image.Rectangle) {
	t.Helper()
	mx, my := (b.Min.X+b.Max.X)/2, (b.Min.Y+b.Max.Y)/2
	for _, p := range []image.Point{{mx, b.Min.Y}, {mx, b.Max.Y - 1}, {b.Min.X, my}, {b.Max.X - 1, my}} {
		if !is(img, p.X, p.Y, capture.MarkColor) {
			t.Errorf("%s %v: no outline at %v", name, b, p)
		}
	}
	in := b.Inset(2) // past the outline
	tag := image.Rectangle{}
	for y := in.Min.Y; y < in.Max.Y; y++ {
		for x := in.Min.X; x < in.Max.X; x++ {
			if is(img, x, y, capture.MarkColor) {
				tag = tag.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	if tag.Empty() || tag.Min.Sub(in.Min).X > 1 || tag.Min.Sub(in.Min).Y > 1 || !tag.In(b) {
		t.Errorf("%s %v: the label is at %v, not inside at the top left", name, b, tag)
		return
	}
	text := 0
	for y := tag.Min.Y; y < tag.Max.Y; y++ {
		for x := tag.Min.X; x < tag.Max.X; x++ {
			if is(img, x, y, capture.LabelColor) {
				text++
			}
		}
	}
	if text < 20 {
		t.Errorf("%s %v: the label at %v has %d pixels of text", name, b, tag, text)
	}
}

// On a phone (3 device pixels per CSS pixel, a page without a viewport
// meta tag zoomed out to fit), the image is scaled to what a model reads
// and the boxes with it: the labels still sit in their elements' boxes.
func TestAnnotatedScreenshotOfAPhone(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/annotate.html")
	outs := c.call(t, tab, `{"viewport":"iphone-15"},{"snapshot":true},{"screenshot":{"annotate":true}}`)
	refs := refsByName(outs[1]["yaml"].(string))
	shot := outs[2]
	scale, _ := shot["scale"].(float64)
	if scale == 0 || num(shot["height"]) != capture.ReadableSide {
		t.Fatalf("a phone's screenshot: %v", shot)
	}
	boxes := c.call(t, tab, fmt.Sprintf(`{"getBox":[%q,%q]}`, refs["Save"], refs["Cancel"]))[0]
	img := decodePNGFile(t, shot["path"].(string))
	for _, name := range []string{"Save", "Cancel"} {
		b, _ := boxes[refs[name]].(map[string]any)
		if b == nil {
			t.Fatalf("%s has no box: %v", name, boxes)
		}
		checkLabelled(t, img, name, cssBox(b, scale))
	}
}
