package keeper

import (
	"bufio"
	"bytes"
	"compress/lzw"
	"encoding/binary"
	"image"
	"image/color"
	"image/draw"
	"io"
)

// A recording's video is an animated GIF, which every browser and image
// viewer plays and the standard library can write. image/gif's EncodeAll
// wants every frame in memory, and image/draw's Floyd–Steinberg looks up
// each pixel's color among the 256 of the palette (about 0.2 s a frame of
// 800 px), so the video is written here a frame at a time: each frame is
// only the part of the page that changed since the one before, dithered
// to a fixed palette whose nearest color is arithmetic, all under one
// color table.

// gifPalette is a 6×6×6 color cube and 40 grays between its 6, so that a
// page's light grays and text keep their shades: 256 colors.
var gifPalette = func() color.Palette {
	p := make(color.Palette, 0, 256)
	for r := 0; r < 6; r++ {
		for g := 0; g < 6; g++ {
			for b := 0; b < 6; b++ {
				p = append(p, color.RGBA{uint8(r * 51), uint8(g * 51), uint8(b * 51), 255})
			}
		}
	}
	for k := 0; k <= grayLevels; k++ {
		if k%9 != 0 { // the cube has those
			v := uint8((k*255 + grayLevels/2) / grayLevels)
			p = append(p, color.RGBA{v, v, v, 255})
		}
	}
	return p
}()

// grayLevels is the gray ramp's last step: 46 grays, 0 to 255, every
// ninth the cube's.
const grayLevels = 45

// nearest is the palette's color nearest r, g, b (each 0–255): the cube's
// or the ramp's, whichever is closer.
func nearest(r, g, b int32) uint8 {
	ri, gi, bi := (r*5+127)/255, (g*5+127)/255, (b*5+127)/255
	cube := sq(r-ri*51) + sq(g-gi*51) + sq(b-bi*51)
	k := ((r+g+b)*grayLevels + 3*255/2) / (3 * 255)
	v := (k*255 + grayLevels/2) / grayLevels
	if gray := sq(r-v) + sq(g-v) + sq(b-v); gray < cube && k%9 != 0 {
		return uint8(216 + k - (k/9 + 1))
	}
	return uint8(ri*36 + gi*6 + bi)
}

func sq(x int32) int32 { return x * x }

// dither draws src's r into dst with Floyd–Steinberg error diffusion.
func dither(dst *image.Paletted, src *image.RGBA, r image.Rectangle) {
	w := r.Dx()
	// The error carried to this row and the next, per channel, with a
	// pixel of margin each side.
	cur, next := make([]int32, 3*(w+2)), make([]int32, 3*(w+2))
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := src.Pix[src.PixOffset(r.Min.X, y):]
		out := dst.Pix[dst.PixOffset(r.Min.X, y):]
		for x := 0; x < w; x++ {
			e := cur[3*(x+1):]
			c := [3]int32{
				clamp(int32(row[4*x]) + e[0]/16),
				clamp(int32(row[4*x+1]) + e[1]/16),
				clamp(int32(row[4*x+2]) + e[2]/16),
			}
			i := nearest(c[0], c[1], c[2])
			out[x] = i
			p := gifPalette[i].(color.RGBA)
			for ch, got := range [3]int32{int32(p.R), int32(p.G), int32(p.B)} {
				d := c[ch] - got
				cur[3*(x+2)+ch] += d * 7
				next[3*x+ch] += d * 3
				next[3*(x+1)+ch] += d * 5
				next[3*(x+2)+ch] += d
			}
		}
		cur, next = next, cur
		clear(next)
	}
}

func clamp(v int32) int32 { return min(max(v, 0), 255) }

// gifWriter writes an animated GIF as its frames come. A frame is written
// once the next one is known, which says how long it shows.
type gifWriter struct {
	w   *bufio.Writer
	n   *counter
	err error
	// canvas is what the video shows, as the page rendered it: the next
	// frame is compared with it.
	canvas  *image.RGBA
	scratch *image.RGBA // the next frame's, kept to spare the collector
	pending *image.Paletted
	since   int64 // ms, when pending shows
	frames  int
}

// counter counts the bytes written through it.
type counter struct {
	w io.Writer
	n int64
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// newGIF begins a video of size w×h on out: the header, the palette, and
// the loop.
func newGIF(out io.Writer, w, h int) *gifWriter {
	n := &counter{w: out}
	g := &gifWriter{w: bufio.NewWriterSize(n, 64<<10), n: n, canvas: image.NewRGBA(image.Rect(0, 0, w, h))}
	draw.Draw(g.canvas, g.canvas.Rect, image.White, image.Point{}, draw.Src)
	g.write([]byte("GIF89a"))
	g.u16(w, h)
	g.write([]byte{0xF7, 0, 0}) // a global table of 256 colors
	for _, c := range gifPalette {
		rgba := c.(color.RGBA)
		g.write([]byte{rgba.R, rgba.G, rgba.B})
	}
	// NETSCAPE2.0: loop for ever.
	g.write([]byte{0x21, 0xFF, 11})
	g.write([]byte("NETSCAPE2.0"))
	g.write([]byte{3, 1, 0, 0, 0})
	return g
}

// size is how many bytes the video holds so far, the frame not yet
// written aside.
func (g *gifWriter) size() int64 { return g.n.n + int64(g.w.Buffered()) }

// add puts img, shown at ms, after the frames so far; a frame the same
// as the one before only lengthens it. img is drawn at the top left.
func (g *gifWriter) add(img image.Image, ms int64) {
	frame := g.scratch
	if frame == nil {
		frame = image.NewRGBA(g.canvas.Rect)
	}
	draw.Draw(frame, frame.Rect, image.White, image.Point{}, draw.Src)
	draw.Draw(frame, img.Bounds().Sub(img.Bounds().Min), img, img.Bounds().Min, draw.Src)
	r := changed(g.canvas, frame)
	switch {
	case g.frames == 0 && g.pending == nil:
		r = frame.Rect // the first covers all: players show what it does not as they please
	case r.Empty():
		return
	}
	g.flush(ms)
	part := image.NewPaletted(r, gifPalette)
	dither(part, frame, r)
	g.canvas, g.scratch, g.pending, g.since = frame, g.canvas, part, ms
}

// flush writes the pending frame, shown until ms.
func (g *gifWriter) flush(ms int64) {
	p := g.pending
	if p == nil {
		return
	}
	g.pending = nil
	g.frames++
	delay := min(max((ms-g.since+5)/10, 2), 0xFFFF) // hundredths; under 2 players take for 10
	// Graphic control: the frame stays under the next (disposal 1).
	g.write([]byte{0x21, 0xF9, 4, 0x04, byte(delay), byte(delay >> 8), 0, 0})
	g.write([]byte{0x2C})
	g.u16(p.Rect.Min.X, p.Rect.Min.Y, p.Rect.Dx(), p.Rect.Dy())
	g.write([]byte{0, 8}) // no local table; 8-bit codes
	bw := &blocks{w: g.w}
	lw := lzw.NewWriter(bw, lzw.LSB, 8)
	for y := p.Rect.Min.Y; y < p.Rect.Max.Y; y++ {
		i := p.PixOffset(p.Rect.Min.X, y)
		if _, err := lw.Write(p.Pix[i : i+p.Rect.Dx()]); err != nil && g.err == nil {
			g.err = err
		}
	}
	g.keep(lw.Close())
	g.keep(bw.close())
}

// close writes the last frame, shown until ms, and the trailer.
func (g *gifWriter) close(ms int64) error {
	g.flush(ms)
	g.write([]byte{0x3B})
	g.keep(g.w.Flush())
	return g.err
}

func (g *gifWriter) write(p []byte) {
	if g.err == nil {
		_, g.err = g.w.Write(p)
	}
}

func (g *gifWriter) u16(vs ...int) {
	for _, v := range vs {
		g.write(binary.LittleEndian.AppendUint16(nil, uint16(v)))
	}
}

func (g *gifWriter) keep(err error) {
	if g.err == nil {
		g.err = err
	}
}

// changed is the smallest rectangle outside which a and b are the same.
func changed(a, b *image.RGBA) image.Rectangle {
	var r image.Rectangle
	w := a.Rect.Dx() * 4
	for y := 0; y < a.Rect.Dy(); y++ {
		ra, rb := a.Pix[y*a.Stride:y*a.Stride+w], b.Pix[y*b.Stride:y*b.Stride+w]
		if bytes.Equal(ra, rb) {
			continue
		}
		x0, x1 := 0, w
		for x0 < w && ra[x0] == rb[x0] {
			x0++
		}
		for x1 > x0 && ra[x1-1] == rb[x1-1] {
			x1--
		}
		r = r.Union(image.Rect(x0/4, y, (x1+3)/4, y+1))
	}
	return r
}

// blocks cuts LZW data into a GIF's sub-blocks of at most 255 bytes.
type blocks struct {
	w   io.Writer
	buf [256]byte
	n   int
}

func (b *blocks) Write(p []byte) (int, error) {
	for i, c := range p {
		b.n++
		b.buf[b.n] = c
		if b.n == 255 {
			if err := b.emit(); err != nil {
				return i, err
			}
		}
	}
	return len(p), nil
}

func (b *blocks) emit() error {
	b.buf[0] = byte(b.n)
	_, err := b.w.Write(b.buf[:b.n+1])
	b.n = 0
	return err
}

// close writes what is left and the empty block that ends the data.
func (b *blocks) close() error {
	if b.n > 0 {
		if err := b.emit(); err != nil {
			return err
		}
	}
	_, err := b.w.Write([]byte{0})
	return err
}
