package capture_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/page"
)

// viewport is the tab's viewport in device pixels, what a screenshot holds.
func viewport(t *testing.T, ctx context.Context, s *cdp.Session) image.Point {
	t.Helper()
	var v [3]float64
	if err := evalValue(ctx, s, "[innerWidth, innerHeight, devicePixelRatio]", &v); err != nil {
		t.Fatal(err)
	}
	return image.Pt(int(v[0]*v[2]), int(v[1]*v[2]))
}

// evalValue evaluates expr in s's page and decodes its value into out.
func evalValue(ctx context.Context, s *cdp.Session, expr string, out any) error {
	res, err := proto.RuntimeEvaluate{Expression: expr, ReturnByValue: true}.Do(ctx, s)
	if err != nil {
		return err
	}
	return json.Unmarshal(res.Result.Value, out)
}

func TestScreenshotPNGHasViewportSize(t *testing.T) {
	s, ctx := openPage(t, "shot.html")
	path := filepath.Join(t.TempDir(), "new", "dir", "t1.after.png")
	if _, err := (capture.Files{}).Capture(ctx, s, path, capture.ShotOptions{}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := img.Bounds().Size(), viewport(t, ctx, s); got != want {
		t.Errorf("image %v, viewport %v", got, want)
	}
	// The fixture's background proves the page, not a blank surface, was captured.
	if r, g, b, _ := img.At(img.Bounds().Dx()/2, img.Bounds().Dy()-5).RGBA(); r>>8 != 0 || g>>8 != 128 || b>>8 != 255 {
		t.Errorf("pixel = %d,%d,%d, want the page's 0,128,255", r>>8, g>>8, b>>8)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("left temporary files: %v", entries)
	}
}

func TestScreenshotFormats(t *testing.T) {
	s, ctx := openPage(t, "shot.html")
	dir := t.TempDir()

	jpg := filepath.Join(dir, "a.jpg")
	if _, err := (capture.Files{}).Capture(ctx, s, jpg, capture.ShotOptions{Format: "jpeg", Quality: 50}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(jpg)
	if _, err := jpeg.Decode(bytes.NewReader(data)); err != nil {
		t.Errorf("jpeg: %v", err)
	}

	webp := filepath.Join(dir, "a.webp")
	if _, err := (capture.Files{}).Capture(ctx, s, webp, capture.ShotOptions{Format: "webp"}); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(webp)
	if len(data) < 12 || string(data[:4]) != "RIFF" || string(data[8:12]) != "WEBP" {
		t.Errorf("not a WebP file: % x", data[:min(12, len(data))])
	}
}

func TestScreenshotRejectsBadOptions(t *testing.T) {
	for _, o := range []capture.ShotOptions{{Format: "gif"}, {Format: "jpeg", Quality: 101}, {Quality: -1}} {
		// Options are checked before Chrome is touched: no session needed.
		_, err := capture.Files{}.Capture(t.Context(), nil, filepath.Join(t.TempDir(), "x"), o)
		var oe *invalid.Option
		if !errors.As(err, &oe) || oe.ErrorName() != "StepValidationError" {
			t.Errorf("%+v: got %v", o, err)
		}
	}
}

// A tab whose document is still arriving, or whose navigation has no
// response yet, still gives a screenshot of what it shows.
func TestScreenshotWhileLoading(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/partial" {
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<!doctype html><title>partial</title><p>half a page")
			w.(http.Flusher).Flush()
		}
		select { // never finish: the page stays loading
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })

	for _, path := range []string{"/partial", "/never"} {
		t.Run(path, func(t *testing.T) {
			s := browser.NewTab(t)
			ctx, cancel := context.WithTimeout(t.Context(), 15*time.Second)
			defer cancel()
			// Page.navigate answers only once the response starts; do not wait for it.
			go proto.PageNavigate{URL: srv.URL + path}.Do(ctx, s)
			if path == "/partial" {
				waitTitle(t, ctx, s, "partial")
			}
			out := filepath.Join(t.TempDir(), "loading.png")
			if _, err := (capture.Files{}).Capture(ctx, s, out, capture.ShotOptions{}); err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(out)
			if _, err := png.Decode(bytes.NewReader(data)); err != nil {
				t.Error(err)
			}
		})
	}
}

func waitTitle(t *testing.T, ctx context.Context, s *cdp.Session, want string) {
	t.Helper()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		var title string
		if evalValue(ctx, s, "document.title", &title) == nil && title == want {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("title never became %q", want)
		case <-tick.C:
		}
	}
}

// An open alert stops Page.captureScreenshot from answering; the deadline
// must still end the call, as a deadline error.
func TestScreenshotBoundedByContext(t *testing.T) {
	s, ctx := openPage(t, "shot.html")
	if err := (proto.PageEnable{}).Do(ctx, s); err != nil {
		t.Fatal(err)
	}
	l := s.Listen(proto.EventPageJavascriptDialogOpening)
	defer l.Close()
	if _, err := (proto.RuntimeEvaluate{Expression: "setTimeout(() => alert('hi'))"}).Do(ctx, s); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Next(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		proto.PageHandleJavaScriptDialog{Accept: true}.Do(ctx, s)
	})
	short, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	_, err := capture.Files{}.Capture(short, s, filepath.Join(t.TempDir(), "x.png"), capture.ShotOptions{})
	t.Logf("screenshot with an alert open: %v", err)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want a deadline error or success", err)
	}
}

func TestCallFile(t *testing.T) {
	if got, want := (capture.Files{}).CallFile("t1", 7, capture.AfterShot), filepath.Join(os.TempDir(), "cdp-skill", "t1.history", "0007.after.png"); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got := (capture.Files{}).CallFile("../x", 1, capture.AfterShot); filepath.Dir(filepath.Dir(got)) != filepath.Join(os.TempDir(), "cdp-skill") {
		t.Errorf("alias escaped the directory: %s", got)
	}
}

// decodePNG reads a PNG screenshot from path.
func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func rgbAt(img image.Image, x, y int) [3]uint32 {
	r, g, b, _ := img.At(x, y).RGBA()
	return [3]uint32{r >> 8, g >> 8, b >> 8}
}

func shoot(t *testing.T, ctx context.Context, s *cdp.Session, opts capture.ShotOptions) (*capture.Shot, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "shot."+map[string]string{"": "png", "png": "png", "jpeg": "jpg", "webp": "webp"}[opts.Format])
	shot, err := capture.Files{}.Capture(ctx, s, path, opts)
	if err != nil {
		t.Fatal(err)
	}
	if shot.Path != path {
		t.Errorf("path %s, want %s", shot.Path, path)
	}
	return shot, path
}

// A full-page capture holds the whole 3,000 px page, not the viewport.
func TestScreenshotFullPage(t *testing.T) {
	s, ctx := openPage(t, "long.html")
	// The page is as wide as the document, which leaves the scrollbar out.
	var w int
	if err := evalValue(ctx, s, "document.documentElement.clientWidth", &w); err != nil {
		t.Fatal(err)
	}
	shot, path := shoot(t, ctx, s, capture.ShotOptions{FullPage: true})
	if shot.Width != w || shot.Height != 3000 || shot.Format != "png" {
		t.Fatalf("full page %dx%d %s, want %dx3000 png", shot.Width, shot.Height, shot.Format, w)
	}
	img := decodePNG(t, path)
	if img.Bounds().Dx() != shot.Width || img.Bounds().Dy() != shot.Height {
		t.Errorf("reported %dx%d, image %v", shot.Width, shot.Height, img.Bounds())
	}
	for y, want := range map[int][3]uint32{10: {255, 0, 0}, 1010: {0, 255, 0}, 2990: {0, 0, 255}} {
		if got := rgbAt(img, 5, y); got != want {
			t.Errorf("pixel at y=%d is %v, want %v", y, got, want)
		}
	}
}

// A region is in page coordinates: one below the fold needs no scrolling,
// and one in view is captured without resizing the viewport.
func TestScreenshotClip(t *testing.T) {
	s, ctx := openPage(t, "long.html")
	for _, tc := range []struct {
		y    float64
		want [3]uint32
	}{{100, [3]uint32{255, 0, 0}}, {1100, [3]uint32{0, 255, 0}}, {2100, [3]uint32{0, 0, 255}}} {
		shot, path := shoot(t, ctx, s, capture.ShotOptions{Clip: &capture.Rect{X: 0, Y: tc.y, Width: 60, Height: 40}})
		if shot.Width != 60 || shot.Height != 40 {
			t.Errorf("clip at %g: %dx%d", tc.y, shot.Width, shot.Height)
		}
		if got := rgbAt(decodePNG(t, path), 30, 20); got != tc.want {
			t.Errorf("clip at %g shows %v, want %v", tc.y, got, tc.want)
		}
	}
}

// An element capture is its box plus padding, wherever it is on the page.
func TestScreenshotElementWithPadding(t *testing.T) {
	s, ctx := openPage(t, "long.html")
	clip, err := capture.ElementClip(ctx, page.New(s), capture.ElementTarget{Selector: "#target", Padding: 10})
	if err != nil {
		t.Fatal(err)
	}
	if *clip != (capture.Rect{X: 90, Y: 1490, Width: 220, Height: 120}) {
		t.Fatalf("clip %+v", *clip)
	}
	shot, path := shoot(t, ctx, s, capture.ShotOptions{Clip: clip})
	if shot.Width != 220 || shot.Height != 120 {
		t.Fatalf("element shot %dx%d", shot.Width, shot.Height)
	}
	img := decodePNG(t, path)
	if got := rgbAt(img, 110, 60); got != [3]uint32{255, 255, 0} {
		t.Errorf("centre %v, want the element's yellow", got)
	}
	if got := rgbAt(img, 3, 3); got != [3]uint32{0, 255, 0} {
		t.Errorf("padding %v, want the page's green behind", got)
	}

	for target, name := range map[capture.ElementTarget]string{
		{Selector: "#nope"}:   "ElementNotFoundError",
		{Selector: "div[["}:   "StepValidationError",
		{Ref: "s9e9"}:         "ElementNotFoundError",
		{Selector: "title"}:   "",
		{Selector: "#target"}: "-",
	} {
		_, err := capture.ElementClip(ctx, page.New(s), target)
		var named interface{ ErrorName() string }
		switch {
		case name == "-" && err != nil:
			t.Errorf("%+v: %v", target, err)
		case name != "-" && (!errors.As(err, &named) || named.ErrorName() != name):
			t.Errorf("%+v: got %v, want a %q error", target, err, name)
		}
	}
}

func TestScreenshotSizesOfEveryFormat(t *testing.T) {
	s, ctx := openPage(t, "long.html")
	vp := viewport(t, ctx, s)
	for _, f := range []string{"png", "jpeg", "webp"} {
		for _, q := range []int{0, 80, 100} {
			if f == "png" && q != 0 {
				continue
			}
			shot, path := shoot(t, ctx, s, capture.ShotOptions{Format: f, Quality: q})
			if shot.Width != vp.X || shot.Height != vp.Y || shot.Format != f {
				t.Errorf("%s q%d: %dx%d %s, want %v", f, q, shot.Width, shot.Height, shot.Format, vp)
			}
			if f == "jpeg" {
				data, _ := os.ReadFile(path)
				if c, err := jpeg.DecodeConfig(bytes.NewReader(data)); err != nil || c.Width != shot.Width {
					t.Errorf("jpeg: %v %+v", err, c)
				}
			}
		}
	}
	// Lossless WebP has its own header; the size must read from it too.
	shot, _ := shoot(t, ctx, s, capture.ShotOptions{Format: "webp", Clip: &capture.Rect{Width: 33, Height: 17}})
	if shot.Width != 33 || shot.Height != 17 {
		t.Errorf("webp clip: %dx%d", shot.Width, shot.Height)
	}
}

// Past 16,384 pixels Chrome's images break: the capture is refused with a
// way out, and nothing is written.
func TestScreenshotTooTall(t *testing.T) {
	s, ctx := openPage(t, "tall.html")
	path := filepath.Join(t.TempDir(), "tall.png")
	_, err := capture.Files{}.Capture(ctx, s, path, capture.ShotOptions{FullPage: true})
	var tl *capture.TooLargeError
	if !errors.As(err, &tl) || tl.Height != 20000 {
		t.Fatalf("got %v, want a TooLargeError of height 20000", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "16384") || !strings.Contains(msg, "clip") || !strings.Contains(msg, "fullPage") {
		t.Errorf("message does not say what to do: %s", msg)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("a file was written: %v", err)
	}
	// The viewport and a region of the same page still work.
	shoot(t, ctx, s, capture.ShotOptions{})
	shoot(t, ctx, s, capture.ShotOptions{Clip: &capture.Rect{Y: 18000, Width: 100, Height: 100}})
}

func TestScreenshotOmitBackground(t *testing.T) {
	s, ctx := openPage(t, "transparent.html")
	_, path := shoot(t, ctx, s, capture.ShotOptions{OmitBackground: true})
	img := decodePNG(t, path)
	b := img.Bounds()
	if _, _, _, a := img.At(b.Dx()-5, b.Dy()-5).RGBA(); a != 0 {
		t.Errorf("background alpha %d, want transparent", a>>8)
	}
	// The override ends with the capture.
	_, path = shoot(t, ctx, s, capture.ShotOptions{})
	if _, _, _, a := decodePNG(t, path).At(b.Dx()-5, b.Dy()-5).RGBA(); a>>8 != 255 {
		t.Errorf("background alpha %d after the capture, want opaque", a>>8)
	}
}

func TestScreenshotOptionsValidate(t *testing.T) {
	bad := []capture.ShotOptions{
		{FullPage: true, Clip: &capture.Rect{Width: 1, Height: 1}},
		{Clip: &capture.Rect{Width: 0, Height: 10}},
		{Clip: &capture.Rect{X: -1, Width: 10, Height: 10}},
	}
	for _, o := range bad {
		var oe *invalid.Option
		if err := o.Validate(); !errors.As(err, &oe) {
			t.Errorf("%+v: got %v", o, err)
		}
	}
}

// The limit is in device pixels: a 3,000 px page at a pixel ratio of 6 is
// 18,000 pixels tall.
func TestScreenshotLimitCountsDevicePixels(t *testing.T) {
	s, ctx := openPage(t, "long.html")
	if _, err := page.SetViewport(ctx, page.New(s), page.DeviceMetrics{Width: 400, Height: 600, DeviceScaleFactor: 6}); err != nil {
		t.Fatal(err)
	}
	_, err := capture.Files{}.Capture(ctx, s, filepath.Join(t.TempDir(), "x.png"), capture.ShotOptions{FullPage: true})
	var tl *capture.TooLargeError
	if !errors.As(err, &tl) || tl.Height != 18000 || tl.Width < 2000 { // the width leaves the scrollbar out
		t.Fatalf("got %v, want a TooLargeError 18000 pixels tall", err)
	}
	shot, _ := shoot(t, ctx, s, capture.ShotOptions{Clip: &capture.Rect{X: 10, Y: 10, Width: 50, Height: 20}})
	if shot.Width != 300 || shot.Height != 120 {
		t.Errorf("a clip at ratio 6: %dx%d, want 300x120", shot.Width, shot.Height)
	}
}

// A capture bounded by MaxSide fits a vision model: scaled at capture
// time, the scale (image pixels per CSS pixel) said when not 1, the
// picture the same page. At 1x the viewport already fits and is left as
// it is; at 2x and at a phone's 3x it is scaled to 1568 on its long side.
func TestScreenshotReadableSize(t *testing.T) {
	for _, tc := range []struct {
		name          string
		width, height int
		ratio         float64
	}{{"1x", 1280, 720, 1}, {"2x", 1280, 720, 2}, {"phone 3x", 390, 844, 3}} {
		t.Run(tc.name, func(t *testing.T) {
			s, ctx := openPage(t, "long.html")
			if _, err := page.SetViewport(ctx, page.New(s), page.DeviceMetrics{Width: tc.width, Height: tc.height, DeviceScaleFactor: tc.ratio}); err != nil {
				t.Fatal(err)
			}
			var inner [2]float64
			if err := evalValue(ctx, s, "[innerWidth, innerHeight]", &inner); err != nil {
				t.Fatal(err)
			}
			cw, ch := inner[0], inner[1]
			scale := min(tc.ratio, capture.ReadableSide/max(cw, ch))
			w, h := int(math.Round(cw*scale)), int(math.Round(ch*scale))
			if scale == 1 {
				scale = 0 // not said
			}
			shot, path := shoot(t, ctx, s, capture.ShotOptions{MaxSide: capture.ReadableSide})
			if abs(shot.Width-w) > 1 || abs(shot.Height-h) > 1 || math.Abs(shot.Scale-scale) > 0.002 || shot.Warning != "" {
				t.Fatalf("%dx%d scale %g %q, want %dx%d scale %.3f", shot.Width, shot.Height, shot.Scale, shot.Warning, w, h, scale)
			}
			if tc.ratio > 1 && max(shot.Width, shot.Height) != capture.ReadableSide {
				t.Errorf("%dx%d: the long side is not %d", shot.Width, shot.Height, capture.ReadableSide)
			}
			img := decodePNG(t, path)
			if img.Bounds().Dx() != shot.Width || img.Bounds().Dy() != shot.Height {
				t.Errorf("reported %dx%d, image %v", shot.Width, shot.Height, img.Bounds())
			}
			if got := rgbAt(img, shot.Width/2, shot.Height/2); got != [3]uint32{255, 0, 0} {
				t.Errorf("centre %v, want the first band's red", got)
			}
			full, _ := shoot(t, ctx, s, capture.ShotOptions{})
			if want := int(cw * tc.ratio); abs(full.Width-want) > 1 {
				t.Errorf("without MaxSide the capture keeps device pixels: %d wide, want %d", full.Width, want)
			}
		})
	}
}

// A full page scaled to fit is one picture of the whole page; when that
// leaves its text too small to read, the shot says so and what to do.
func TestScreenshotFullPageTooTallToRead(t *testing.T) {
	s, ctx := openPage(t, "long.html")
	shot, path := shoot(t, ctx, s, capture.ShotOptions{FullPage: true, MaxSide: capture.ReadableSide})
	if shot.Height != capture.ReadableSide || shot.Warning != "" {
		t.Fatalf("3000 px page: %dx%d %q", shot.Width, shot.Height, shot.Warning)
	}
	img := decodePNG(t, path)
	if got := rgbAt(img, 5, shot.Height-5); got != [3]uint32{0, 0, 255} {
		t.Errorf("bottom %v, want the last band's blue", got)
	}
	if _, err := (proto.RuntimeEvaluate{Expression: "document.body.style.height = '8000px'"}).Do(ctx, s); err != nil {
		t.Fatal(err)
	}
	shot, _ = shoot(t, ctx, s, capture.ShotOptions{FullPage: true, MaxSide: capture.ReadableSide})
	if shot.Height != capture.ReadableSide || !strings.Contains(shot.Warning, "too small to read") || !strings.Contains(shot.Warning, "clip") {
		t.Errorf("8000 px page: %dx%d %q", shot.Width, shot.Height, shot.Warning)
	}
}

func abs(n int) int { return max(n, -n) }
