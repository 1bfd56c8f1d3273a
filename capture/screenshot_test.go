package capture_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/cdp"
)

// viewport is the tab's viewport in device pixels, what a screenshot holds.
func viewport(t *testing.T, ctx context.Context, s *cdp.Session) image.Point {
	t.Helper()
	var res struct {
		Result struct {
			Value [3]float64 `json:"value"`
		} `json:"result"`
	}
	err := s.Call(ctx, "Runtime.evaluate", map[string]any{
		"expression":    "[innerWidth, innerHeight, devicePixelRatio]",
		"returnByValue": true,
	}, &res)
	if err != nil {
		t.Fatal(err)
	}
	v := res.Result.Value
	return image.Pt(int(v[0]*v[2]), int(v[1]*v[2]))
}

func TestScreenshotPNGHasViewportSize(t *testing.T) {
	s, ctx := openPage(t, "shot.html")
	path := filepath.Join(t.TempDir(), "new", "dir", "t1.after.png")
	if err := capture.Screenshot(ctx, s, path, capture.ShotOptions{}); err != nil {
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
	if err := capture.Screenshot(ctx, s, jpg, capture.ShotOptions{Format: "jpeg", Quality: 50}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(jpg)
	if _, err := jpeg.Decode(bytes.NewReader(data)); err != nil {
		t.Errorf("jpeg: %v", err)
	}

	webp := filepath.Join(dir, "a.webp")
	if err := capture.Screenshot(ctx, s, webp, capture.ShotOptions{Format: "webp"}); err != nil {
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
		err := capture.Screenshot(t.Context(), nil, filepath.Join(t.TempDir(), "x"), o)
		var oe *capture.OptionError
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
			go s.Call(ctx, "Page.navigate", map[string]any{"url": srv.URL + path}, nil)
			if path == "/partial" {
				waitTitle(t, ctx, s, "partial")
			}
			out := filepath.Join(t.TempDir(), "loading.png")
			if err := capture.Screenshot(ctx, s, out, capture.ShotOptions{}); err != nil {
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
		var res struct {
			Result struct {
				Value string `json:"value"`
			} `json:"result"`
		}
		err := s.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "document.title", "returnByValue": true}, &res)
		if err == nil && res.Result.Value == want {
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
	if err := s.Call(ctx, "Page.enable", nil, nil); err != nil {
		t.Fatal(err)
	}
	l := s.Listen("Page.javascriptDialogOpening")
	defer l.Close()
	if err := s.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "setTimeout(() => alert('hi'))"}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Next(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.Call(ctx, "Page.handleJavaScriptDialog", map[string]any{"accept": true}, nil)
	})
	short, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	err := capture.Screenshot(short, s, filepath.Join(t.TempDir(), "x.png"), capture.ShotOptions{})
	t.Logf("screenshot with an alert open: %v", err)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want a deadline error or success", err)
	}
}

func TestAfterPath(t *testing.T) {
	if got, want := capture.AfterPath("t1"), filepath.Join(os.TempDir(), "cdp-skill", "t1.after.png"); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got := capture.AfterPath("../x"); filepath.Dir(got) != filepath.Join(os.TempDir(), "cdp-skill") {
		t.Errorf("alias escaped the directory: %s", got)
	}
}
