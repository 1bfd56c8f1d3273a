package capture

import (
	"image"
	"image/color"
	"image/draw"
)

// The labels of an annotated screenshot are refs (s3e18), so the font
// has their characters only: the standard library has no font, and a
// vision model reads these blocky glyphs at any size they are drawn at.

// glyphW and glyphH are a glyph's size in font pixels; a character
// advances glyphW+1.
const (
	glyphW = 5
	glyphH = 7
)

// glyphs are 5×7 bitmaps, a byte a row from the top, bit 4 the leftmost
// pixel. Lowercase letters are shorter than digits, so "e" stands out
// between the numbers of a ref.
var glyphs = map[rune][glyphH]uint8{
	'0': {0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e},
	'1': {0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e},
	'2': {0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f},
	'3': {0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e},
	'4': {0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02},
	'5': {0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e},
	'6': {0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e},
	'7': {0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08},
	'8': {0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e},
	'9': {0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c},
	'e': {0x00, 0x00, 0x0e, 0x11, 0x1f, 0x10, 0x0e},
	's': {0x00, 0x00, 0x0f, 0x10, 0x0e, 0x01, 0x1e},
}

// textSize is the size of s drawn at scale, in image pixels.
func textSize(s string, scale int) image.Point {
	n := len([]rune(s))
	if n == 0 {
		return image.Point{}
	}
	return image.Pt((n*(glyphW+1)-1)*scale, glyphH*scale)
}

// drawText draws s with its top left at at, each font pixel a square of
// scale image pixels. A character the font lacks is a gap.
func drawText(dst draw.Image, at image.Point, s string, scale int, c color.Color) {
	src := image.NewUniform(c)
	for _, r := range s {
		g := glyphs[r]
		for y, row := range g {
			for x := range glyphW {
				if row&(1<<(glyphW-1-x)) == 0 {
					continue
				}
				px := image.Rect(at.X+x*scale, at.Y+y*scale, at.X+(x+1)*scale, at.Y+(y+1)*scale)
				draw.Draw(dst, px, src, image.Point{}, draw.Src)
			}
		}
		at.X += (glyphW + 1) * scale
	}
}
