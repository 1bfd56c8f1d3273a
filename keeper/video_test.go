package keeper

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/internal/private"
)

// pageFrame is a frame of a page: white, a dark line of text, and a box at x.
func pageFrame(t *testing.T, x int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 320, 200))
	draw.Draw(img, img.Rect, image.White, image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(10, 10, 200, 20), image.NewUniform(color.RGBA{0x33, 0x33, 0x33, 255}), image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(x, 100, x+40, 140), image.NewUniform(color.RGBA{0xd0, 0x20, 0x20, 255}), image.Point{}, draw.Src)
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The frames kept become a GIF that plays: each frame what changed, shown
// until the next, the last until the end; a frame that changed nothing
// only lengthens the one before; colors stay near the page's.
func TestVideoPlays(t *testing.T) {
	temp := private.Temp(t.TempDir())
	dir := filepath.Join(temp.Root(), "t1.recording")
	start := time.UnixMilli(1_700_000_000_000)
	f := &frameKeeper{temp: temp, dir: framesDir(dir), start: start}
	ms := start.UnixMilli()
	for i, at := range []int64{0, 500, 1000, 1500} {
		x := 20 + 60*i
		if i == 2 {
			x = 20 + 60 // the same page as the frame before
		}
		f.add(pageFrame(t, x), ms+at)
	}
	f.flush()
	path := filepath.Join(t.TempDir(), "v.gif")
	v, notes, err := writeVideo(context.Background(), temp, dir, path, start.Add(2500*time.Millisecond))
	if err != nil || len(notes) > 0 {
		t.Fatalf("writeVideo: %v %v", err, notes)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the video does not decode: %v", err)
	}
	if len(g.Image) != 3 || v.Frames != 3 || v.Seconds != 2.5 || v.Size != int64(len(data)) {
		t.Fatalf("%d frames, %+v", len(g.Image), v)
	}
	if want := []int{50, 100, 100}; !slices.Equal(g.Delay, want) {
		t.Errorf("delays %v, want %v", g.Delay, want)
	}
	if b := g.Image[0].Bounds(); b != image.Rect(0, 0, 320, 200) {
		t.Errorf("the first frame covers %v", b)
	}
	if b := g.Image[1].Bounds(); b.Dx() > 140 || b.Dy() > 60 {
		t.Errorf("the second frame is %v: more than what changed", b)
	}
	near := func(c color.Color, want color.RGBA) bool {
		r, gr, b, _ := c.RGBA()
		d := func(x uint32, y uint8) int { return int(x>>8) - int(y) }
		return d(r, want.R)*d(r, want.R)+d(gr, want.G)*d(gr, want.G)+d(b, want.B)*d(b, want.B) < 40*40
	}
	first := g.Image[0]
	for _, p := range []struct {
		at   image.Point
		want color.RGBA
	}{{image.Pt(300, 190), color.RGBA{255, 255, 255, 255}}, {image.Pt(40, 120), color.RGBA{0xd0, 0x20, 0x20, 255}}} {
		if c := first.At(p.at.X, p.at.Y); !near(c, p.want) {
			t.Errorf("at %v: %v, want near %v", p.at, c, p.want)
		}
	}
}

// A page that animates sends 60 frames a second; at most 10 are kept,
// the last one of a burst included, and the frames are bounded.
func TestFramesThinned(t *testing.T) {
	temp := private.Temp(t.TempDir())
	dir := filepath.Join(temp.Root(), "frames")
	start := time.UnixMilli(1_700_000_000_000)
	f := &frameKeeper{temp: temp, dir: dir, start: start}
	ms := start.UnixMilli()
	for i := range 60 { // a second at 60 frames a second
		f.add([]byte{byte(i)}, ms+int64(i*1000/60))
	}
	f.add([]byte{60}, ms+1050) // a burst's last frame, then stillness
	f.add([]byte{61}, ms+5000)
	f.flush()
	kept := keptFrames(dir)
	if len(kept) < 9 || len(kept) > 13 {
		t.Fatalf("kept %d frames of a second at 60 fps", len(kept))
	}
	for i := 1; i < len(kept); i++ {
		if gap := kept[i].ms - kept[i-1].ms; gap < frameGap.Milliseconds() {
			t.Errorf("frames %d and %d are %d ms apart", i, i+1, gap)
		}
	}
	if last := kept[len(kept)-2]; last.ms != ms+1050 {
		t.Errorf("the burst's last frame was not kept: %+v", kept[len(kept)-3:])
	}
	f.n = maxFrames
	f.add([]byte{62}, ms+6000)
	if !strings.Contains(f.cut, "the video stops 6s into the recording: it keeps at most 3000 frames") {
		t.Errorf("cut: %q", f.cut)
	}
}

// Every color the palette offers is its own nearest: the arithmetic
// lookup finds what a search would.
func TestNearestIsThePalettes(t *testing.T) {
	if len(gifPalette) != 256 {
		t.Fatalf("%d colors", len(gifPalette))
	}
	for i, c := range gifPalette {
		rgba := c.(color.RGBA)
		if got := nearest(int32(rgba.R), int32(rgba.G), int32(rgba.B)); gifPalette[got] != c {
			t.Errorf("color %d %v: nearest is %d %v", i, rgba, got, gifPalette[got])
		}
	}
	for _, c := range []color.RGBA{{0xf5, 0xf5, 0xf5, 255}, {0x33, 0x33, 0x33, 255}, {0x12, 0x80, 0xf0, 255}} {
		got := gifPalette[nearest(int32(c.R), int32(c.G), int32(c.B))].(color.RGBA)
		if want := gifPalette.Convert(c).(color.RGBA); got != want {
			t.Errorf("%v: nearest %v, a search finds %v", c, got, want)
		}
	}
}

// A video that cannot be written in the step's time is cut, after its
// first frame, and says so; no frames, no file, and a note says why.
func TestVideoCut(t *testing.T) {
	temp := private.Temp(t.TempDir())
	dir := filepath.Join(temp.Root(), "t1.recording")
	start := time.UnixMilli(1_700_000_000_000)
	path := filepath.Join(t.TempDir(), "v.gif")
	v, notes, err := writeVideo(context.Background(), temp, dir, path, start)
	if v != nil || err != nil || len(notes) != 1 || !strings.Contains(notes[0], "the page rendered no frame") {
		t.Errorf("no frames: %+v %v %q", v, err, notes)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("a video of no frames was written: %v", err)
	}
	f := &frameKeeper{temp: temp, dir: framesDir(dir), start: start}
	for i := range 3 {
		f.add(pageFrame(t, 20+60*i), start.UnixMilli()+int64(i)*500)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	v, notes, err = writeVideo(ctx, temp, dir, path, start.Add(2*time.Second))
	if err != nil || v == nil || v.Frames != 1 || v.Seconds != 0.5 || len(notes) != 1 ||
		notes[0] != `the video is cut 500ms in, as writing it ran out of the step's time (give the stop step a longer "timeout")` {
		t.Fatalf("%+v %v %q", v, err, notes)
	}
	if data, _ := os.ReadFile(path); len(data) == 0 {
		t.Error("no video")
	} else if g, err := gif.DecodeAll(bytes.NewReader(data)); err != nil || len(g.Image) != 1 {
		t.Errorf("the cut video: %v", err)
	}
}
