package capture

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"math"
)

// An annotated screenshot boxes each interactive element it shows and
// labels the box with the element's ref, drawn on the captured image: the
// page's DOM is never touched, so nothing the page observes changes, and
// the image is the page as it was. Labels sit in a corner inside the box,
// else beside it; a label that overlaps others wherever it goes is left
// out and its ref goes in the legend, with what the element is.

// ShotMark is something an annotated screenshot boxes: a region of the tab's
// viewport in CSS pixels, the label drawn on it (a ref), and what the
// legend says of it when its label finds no room (`button "Save"`, kept
// short: the agent reads every byte).
type ShotMark struct {
	Label string
	Says  string
	Box   Rect
}

// ShotMarks finds the marks of region, the captured part of the tab's
// viewport in CSS pixels.
type ShotMarks func(ctx context.Context, region Rect) ([]ShotMark, error)

var (
	// MarkColor outlines each mark and fills its label: a magenta pages
	// seldom use, which stands out on white as on black.
	MarkColor = color.RGBA{220, 0, 140, 255}
	// LabelColor is the labels' text.
	LabelColor = color.RGBA{255, 255, 255, 255}
)

const (
	// maxMarks bounds the marks drawn: past it, no label would be read.
	maxMarks = 400
	// maxLegend bounds the legend, every byte of which is read.
	maxLegend = 30
	// jpegQuality is Chrome's own default.
	jpegQuality = 80
	// maxAnnotated bounds the file Annotate reads back: a screenshot of
	// at most ReadableSide a side is far smaller.
	maxAnnotated = 64 << 20
)

// Legend says what the marks whose label found no room are, in reading
// order: a JSON object, label to what it is.
type Legend []LegendEntry

// LegendEntry is one mark of a Legend.
type LegendEntry struct {
	Label, Says string
}

// MarshalJSON writes the legend as an object in its order, its strings
// as they are ("<" stays "<").
func (l Legend) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	b.WriteByte('{')
	for i, e := range l {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := enc.Encode(e.Label); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1) // Encode's newline
		b.WriteByte(':')
		if err := enc.Encode(e.Says); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// annotation is what annotate drew.
type annotation struct {
	drawn  int
	legend Legend
	// unlisted counts the labels without room past the legend's bound,
	// left the marks past maxMarks, which are not drawn.
	unlisted, left int
}

// note says what an annotation could not show, "" when it showed all.
func (a annotation) note() string {
	switch {
	case a.left > 0:
		return fmt.Sprintf("boxed the first %d interactive elements, not the %d more: capture a region (clip) or an element", a.drawn, a.left)
	case a.unlisted > 0:
		return fmt.Sprintf("%d more labels had no room and are not in the legend: take a snapshot, or capture a region (clip)", a.unlisted)
	}
	return ""
}

// annotate draws marks on the png image data, which shows region of the
// tab's viewport, and encodes the result in format.
func annotate(data []byte, format string, quality int, region Rect, marks []ShotMark) ([]byte, annotation, error) {
	img, err := decodePNG(data)
	if err != nil {
		return nil, annotation{}, err
	}
	scale := labelScale(img.Bounds().Size())
	labels, left := layout(img.Bounds(), region, marks, scale)
	a := annotation{drawn: len(labels), left: left}
	drawLabels(img, labels, scale)
	for _, l := range labels {
		if !l.tag.Empty() {
			continue
		}
		if len(a.legend) == maxLegend {
			a.unlisted++
			continue
		}
		a.legend = append(a.legend, LegendEntry{l.mark.Label, l.mark.Says})
	}
	out, err := encode(img, format, quality)
	return out, a, err
}

// decodePNG decodes a capture into an image it can draw on.
func decodePNG(data []byte) (draw.Image, error) {
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, wrapImageErr(err)
	}
	switch d := img.(type) {
	case *image.RGBA:
		return d, nil
	case *image.NRGBA:
		return d, nil
	}
	rgba := image.NewRGBA(img.Bounds())
	draw.Draw(rgba, rgba.Bounds(), img, img.Bounds().Min, draw.Src)
	return rgba, nil
}

// encode encodes img in format: png fast (encodePNG), jpeg at quality.
func encode(img draw.Image, format string, quality int) ([]byte, error) {
	var out []byte
	var err error
	switch format {
	case "png":
		out, err = encodePNG(img)
	case "jpeg":
		var b bytes.Buffer
		err = jpeg.Encode(&b, img, &jpeg.Options{Quality: cmp.Or(quality, jpegQuality)})
		out = b.Bytes()
	default:
		err = fmt.Errorf("a %s image cannot be annotated", format)
	}
	if err != nil {
		return nil, fmt.Errorf("capture: annotate: %w", err)
	}
	return out, nil
}

// labelScale is the factor the font is drawn at: 2 (labels 14 px tall)
// on an image a vision model reads as it is, more on one it will scale
// down to ReadableSide, so that labels read alike on every image.
func labelScale(size image.Point) int {
	longest := max(size.X, size.Y)
	if longest <= ReadableSide {
		return 2
	}
	return int(math.Round(2 * float64(longest) / ReadableSide))
}

// label is one mark as drawn: its box in image pixels and its tag, empty
// when it found no room.
type label struct {
	mark ShotMark
	box  image.Rectangle
	tag  image.Rectangle
}

// layout places the marks that show in bounds, the image of region, the
// first maxMarks of them; left counts the others.
func layout(bounds image.Rectangle, region Rect, marks []ShotMark, scale int) (labels []label, left int) {
	sx, sy := float64(bounds.Dx())/region.Width, float64(bounds.Dy())/region.Height
	for _, m := range marks {
		b := image.Rect(
			int(math.Floor((m.Box.X-region.X)*sx)), int(math.Floor((m.Box.Y-region.Y)*sy)),
			int(math.Ceil((m.Box.X+m.Box.Width-region.X)*sx)), int(math.Ceil((m.Box.Y+m.Box.Height-region.Y)*sy)),
		).Add(bounds.Min).Intersect(bounds)
		switch {
		case b.Empty():
		case len(labels) == maxMarks:
			left++
		default:
			labels = append(labels, label{mark: m, box: b})
		}
	}
	place(labels, bounds, scale)
	return labels, left
}

// tagSize is the size of a label's tag: its text with a margin of one
// font pixel.
func tagSize(text string, scale int) image.Point {
	return textSize(text, scale).Add(image.Pt(2*scale, 2*scale))
}

// place gives each label the first of its places that shows whole,
// overlaps no tag placed before, and covers no other mark's box but one
// around its own; then each label left the place that overlaps no tag
// and covers least of the others (the first of equals). A label with no
// such place keeps an empty tag.
func place(labels []label, bounds image.Rectangle, scale int) {
	var tags []image.Rectangle
	for _, strict := range []bool{true, false} {
		for i := range labels {
			l := &labels[i]
			if !l.tag.Empty() {
				continue
			}
			best, least := image.Rectangle{}, -1
			for _, t := range places(l.box, tagSize(l.mark.Label, scale), scale) {
				if !t.In(bounds) || overlapsAny(t, tags) {
					continue
				}
				if covers := coveredOf(t, labels, i); least < 0 || covers < least {
					best, least = t, covers
				}
				if least == 0 {
					break
				}
			}
			if least == 0 || least > 0 && !strict {
				l.tag = best
				tags = append(tags, best)
			}
		}
	}
}

// places are where a tag of size may go for box b, best first: inside a
// corner, top left first, when it fits (within the outline, o wide, when
// there is room: a tag over the outline is of its colour); then outside,
// above, below, left, right; last, over a box too small to hold it.
func places(b image.Rectangle, size image.Point, o int) []image.Rectangle {
	at := func(x, y int) image.Rectangle { return image.Rect(x, y, x+size.X, y+size.Y) }
	var out []image.Rectangle
	if size.X <= b.Dx() && size.Y <= b.Dy() {
		ix, iy := inset(b.Dx()-size.X, o), inset(b.Dy()-size.Y, o)
		left, right := b.Min.X+ix, b.Max.X-ix-size.X
		top, bottom := b.Min.Y+iy, b.Max.Y-iy-size.Y
		out = append(out, at(left, top), at(right, top), at(left, bottom), at(right, bottom))
	}
	return append(out,
		at(b.Min.X, b.Min.Y-size.Y), at(b.Min.X, b.Max.Y),
		at(b.Min.X-size.X, b.Min.Y), at(b.Max.X, b.Min.Y),
		at(b.Max.X-size.X, b.Min.Y-size.Y), at(b.Max.X-size.X, b.Max.Y),
		at(b.Min.X+o, b.Min.Y+o))
}

// inset is how far in from a box's edge a tag goes, given the room it
// leaves: past the outline when both sides have room for it.
func inset(room, o int) int {
	if room >= 2*o {
		return o
	}
	return 0
}

func overlapsAny(r image.Rectangle, rs []image.Rectangle) bool {
	for _, s := range rs {
		if r.Overlaps(s) {
			return true
		}
	}
	return false
}

// coveredOf is how many pixels tag t of labels[i] hides of other marks:
// those whose box is not around labels[i]'s (a card around a button has
// room for both).
func coveredOf(t image.Rectangle, labels []label, i int) int {
	own, n := labels[i].box, 0
	for j, l := range labels {
		if j != i && !own.In(l.box) {
			n += pixels(t.Intersect(l.box))
		}
	}
	return n
}

func pixels(r image.Rectangle) int { return r.Dx() * r.Dy() }

// drawLabels outlines every box, then draws the tags over the outlines.
func drawLabels(dst draw.Image, labels []label, scale int) {
	ink := image.NewUniform(MarkColor)
	for _, l := range labels {
		outline(dst, l.box, scale, ink)
	}
	for _, l := range labels {
		if l.tag.Empty() {
			continue
		}
		draw.Draw(dst, l.tag, ink, image.Point{}, draw.Src)
		drawText(dst, l.tag.Min.Add(image.Pt(scale, scale)), l.mark.Label, scale, LabelColor)
	}
}

// outline draws a border w wide just inside r.
func outline(dst draw.Image, r image.Rectangle, w int, ink image.Image) {
	if r.Dx() <= 2*w || r.Dy() <= 2*w {
		draw.Draw(dst, r, ink, image.Point{}, draw.Src)
		return
	}
	for _, side := range []image.Rectangle{
		image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+w), image.Rect(r.Min.X, r.Max.Y-w, r.Max.X, r.Max.Y),
		image.Rect(r.Min.X, r.Min.Y+w, r.Min.X+w, r.Max.Y-w), image.Rect(r.Max.X-w, r.Min.Y+w, r.Max.X, r.Max.Y-w),
	} {
		draw.Draw(dst, side, ink, image.Point{}, draw.Src)
	}
}
