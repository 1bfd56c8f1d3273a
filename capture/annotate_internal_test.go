package capture

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"
)

// blank is a png of size, all of one grey.
func blank(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.RGBA{200, 200, 200, 255}), image.Point{}, draw.Src)
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func mark(ref string, x, y, w, h float64) ShotMark {
	return ShotMark{Label: ref, Says: "button " + fmt.Sprintf("%q", ref), Box: Rect{X: x, Y: y, Width: w, Height: h}}
}

// A label goes inside its box at the top left when it fits there; a box
// too small for it has it beside the box; a box around another leaves
// the inner one uncovered; no two labels overlap, and a label that finds
// no room is left to the legend.
func TestPlaceLabels(t *testing.T) {
	bounds := image.Rect(0, 0, 800, 600)
	region := Rect{Width: 800, Height: 600}
	labels, left := layout(bounds, region, []ShotMark{
		mark("s1e1", 100, 100, 200, 50),  // roomy
		mark("s1e2", 400, 100, 10, 10),   // a checkbox
		mark("s1e3", 100, 300, 300, 200), // a card around a button at its top left
		mark("s1e4", 104, 304, 100, 40),
		mark("s1e5", -50, -50, 20, 20), // off the image
	}, 2)
	if left != 0 || len(labels) != 4 {
		t.Fatalf("%d labels, %d left: the one off the image is no label", len(labels), left)
	}
	at := map[string]image.Rectangle{}
	for _, l := range labels {
		at[l.mark.Label] = l.tag
	}
	if at["s1e1"].Min != image.Pt(102, 102) {
		t.Errorf("a roomy box's label at %v, want inside at the top left", at["s1e1"])
	}
	if box := image.Rect(400, 100, 410, 110); at["s1e2"].Overlaps(box) || at["s1e2"].Empty() {
		t.Errorf("a checkbox's label at %v covers it or is missing", at["s1e2"])
	}
	if inner := image.Rect(104, 304, 204, 344); at["s1e3"].Overlaps(inner) || !at["s1e3"].In(image.Rect(100, 300, 400, 500)) {
		t.Errorf("the card's label at %v covers the button at %v or left the card", at["s1e3"], inner)
	}
	if at["s1e4"].Min != image.Pt(106, 306) {
		t.Errorf("the button's label at %v, want inside at its top left", at["s1e4"])
	}

	// A grid's cells, a little taller than a label: each has its label
	// inside, over its outline, not over the row above.
	labels, _ = layout(bounds, region, []ShotMark{mark("s1e6", 100, 100, 120, 20), mark("s1e7", 100, 132, 120, 20)}, 2)
	for _, l := range labels {
		if !l.tag.In(l.box) {
			t.Errorf("a cell's label at %v, not in its box %v", l.tag, l.box)
		}
	}

	// A row of small links: labels never overlap, each in the image; those
	// without room are left.
	var row []ShotMark
	for i := range 20 {
		row = append(row, mark(fmt.Sprintf("s1e%d", 10+i), float64(10+i*9), 200, 8, 8))
	}
	labels, _ = layout(bounds, region, row, 2)
	var tags []image.Rectangle
	unplaced := 0
	for _, l := range labels {
		if l.tag.Empty() {
			unplaced++
			continue
		}
		if overlapsAny(l.tag, tags) || !l.tag.In(bounds) {
			t.Errorf("%s's label at %v overlaps another or leaves the image", l.mark.Label, l.tag)
		}
		tags = append(tags, l.tag)
	}
	if unplaced == 0 || len(tags) == 0 {
		t.Errorf("a crowded row: %d placed, %d without room", len(tags), unplaced)
	}
}

// Past maxMarks, marks are counted, not drawn.
func TestLayoutBound(t *testing.T) {
	var many []ShotMark
	for i := range maxMarks + 5 {
		many = append(many, mark(fmt.Sprintf("s1e%d", i), float64(i%40)*20, float64(i/40)*20, 18, 18))
	}
	labels, left := layout(image.Rect(0, 0, 800, 600), Rect{Width: 800, Height: 600}, many, 1)
	if len(labels) != maxMarks || left != 5 {
		t.Errorf("%d labels, %d left; want %d and 5", len(labels), left, maxMarks)
	}
}

// Labels are 14 px tall on an image a model reads as it is, and grow with
// an image it will scale down.
func TestLabelScale(t *testing.T) {
	for size, want := range map[image.Point]int{
		{1280, 720}: 2, {1568, 882}: 2, {2560, 1440}: 3, {3840, 2160}: 5, {300, 200}: 2,
	} {
		if got := labelScale(size); got != want {
			t.Errorf("labelScale(%v) = %d, want %d", size, got, want)
		}
	}
}

// Every character of a ref has a glyph of its own.
func TestGlyphs(t *testing.T) {
	seen := map[[glyphH]uint8]rune{}
	for _, r := range "s0123456789e" {
		g, ok := glyphs[r]
		if !ok {
			t.Errorf("no glyph for %q", r)
		}
		if other, dup := seen[g]; dup {
			t.Errorf("%q and %q look alike", r, other)
		}
		seen[g] = r
		for _, row := range g {
			if row >= 1<<glyphW {
				t.Errorf("%q is wider than %d", r, glyphW)
			}
		}
	}
	if got := textSize("s1e23", 2); got != image.Pt((5*6-1)*2, 14) {
		t.Errorf("textSize = %v", got)
	}
}

// annotate draws outlines and labels in their colours, says in the
// legend what had no room, and encodes in the format asked for.
func TestAnnotate(t *testing.T) {
	data := blank(t, 400, 300)
	marks := []ShotMark{mark("s2e7", 20, 20, 150, 50)}
	for i := range 10 {
		marks = append(marks, mark(fmt.Sprintf("s2e%d", 20+i), float64(20+i*6), 150, 5, 5))
	}
	out, a, err := annotate(data, "png", 0, Rect{Width: 400, Height: 300}, marks)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if a.drawn != 11 || len(a.legend) == 0 || a.note() != "" {
		t.Errorf("drawn %d, legend %v, note %q", a.drawn, a.legend, a.note())
	}
	for _, e := range a.legend {
		if e.Says != `button "`+e.Label+`"` {
			t.Errorf("legend %s: %q", e.Label, e.Says)
		}
	}
	// In its order, as cdpskill's output encodes it (no HTML escapes).
	var j bytes.Buffer
	enc := json.NewEncoder(&j)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(Legend{{"s2e9", `link "<b>"`}, {"s2e10", "button"}}); err != nil || j.String() != `{"s2e9":"link \"<b>\"","s2e10":"button"}`+"\n" {
		t.Errorf("legend as JSON: %s %v", j.String(), err)
	}
	colour := func(x, y int) color.RGBA {
		r, g, b, _ := img.At(x, y).RGBA()
		return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 255}
	}
	if colour(100, 20) != MarkColor || colour(100, 69) != MarkColor || colour(20, 45) != MarkColor {
		t.Errorf("no outline along the box")
	}
	if colour(22, 22) != MarkColor || colour(100, 45) != (color.RGBA{200, 200, 200, 255}) {
		t.Errorf("the label's tag is not at the top left, or the box is filled")
	}
	white := 0
	for y := 22; y < 40; y++ {
		for x := 22; x < 90; x++ {
			if colour(x, y) == LabelColor {
				white++
			}
		}
	}
	if white < 40 {
		t.Errorf("%d pixels of the label's text", white)
	}

	out, _, err = annotate(data, "jpeg", 60, Rect{Width: 400, Height: 300}, marks[:1])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := jpeg.DecodeConfig(bytes.NewReader(out)); err != nil {
		t.Errorf("jpeg: %v", err)
	}
	if _, _, err := annotate(data, "webp", 0, Rect{Width: 400, Height: 300}, marks[:1]); err == nil || !strings.Contains(err.Error(), "webp") {
		t.Errorf("webp: %v", err)
	}
}

// BenchmarkAnnotate is what annotating adds in Go to a 1280×720 capture
// with 60 marks: decoding, drawing, encoding. The image has lines of
// "text" on a plain background, as a page's screenshot has, to compress
// as one does.
func BenchmarkAnnotate(b *testing.B) {
	img := image.NewRGBA(image.Rect(0, 0, 1280, 720))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	seed := uint32(1)
	for y := 0; y < 720; y++ {
		if y%24 >= 14 {
			continue // between lines
		}
		for x := 40; x < 1200; x++ {
			seed = seed*1664525 + 1013904223
			if seed>>29 == 0 {
				img.Set(x, y, color.Black)
			}
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	var marks []ShotMark
	for i := range 60 {
		marks = append(marks, mark(fmt.Sprintf("s3e%d", 100+i), float64(i%10)*120+10, float64(i/10)*110+10, 100, 40))
	}
	for b.Loop() {
		if _, _, err := annotate(data, "png", 0, Rect{Width: 1280, Height: 720}, marks); err != nil {
			b.Fatal(err)
		}
	}
}

// encodePNG's images decode to what was drawn: opaque ones as RGB, others
// with their alpha.
func TestEncodePNG(t *testing.T) {
	opaque := image.NewRGBA(image.Rect(0, 0, 7, 5))
	clear := image.NewNRGBA(image.Rect(0, 0, 7, 5))
	for y := range 5 {
		for x := range 7 {
			opaque.Set(x, y, color.RGBA{uint8(x * 30), uint8(y * 50), 7, 255})
			clear.Set(x, y, color.NRGBA{uint8(x * 30), uint8(y * 50), 7, uint8(x * 40)})
		}
	}
	for _, img := range []draw.Image{opaque, clear} {
		data, err := encodePNG(img)
		if err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%T: %v", img, err)
		}
		for y := range 5 {
			for x := range 7 {
				if a, b := color.NRGBAModel.Convert(got.At(x, y)), color.NRGBAModel.Convert(img.At(x, y)); a != b {
					t.Errorf("%T at %d,%d: %v, want %v", img, x, y, a, b)
				}
			}
		}
	}
}
