package capture_test

import (
	"context"
	"errors"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/internal/testbrowser"
)

// buttonMarks marks the page's buttons, as the runner's marks do from a
// snapshot, and records the region it was asked about.
func buttonMarks(s *cdp.Session, asked *capture.Rect) capture.ShotMarks {
	return func(ctx context.Context, region capture.Rect) ([]capture.ShotMark, error) {
		*asked = region
		var boxes [][4]float64
		err := evalValue(ctx, s, `[...document.querySelectorAll('button')].map(b => { const r = b.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })`, &boxes)
		var marks []capture.ShotMark
		for i, b := range boxes {
			marks = append(marks, capture.ShotMark{Label: "s1e" + string(rune('1'+i%9)), Says: "button", Box: capture.Rect{X: b[0], Y: b[1], Width: b[2], Height: b[3]}})
		}
		return marks, err
	}
}

// An annotated capture asks for the marks of the region it shows, in the
// viewport's coordinates, and boxes those that show; a capture whose
// marks could not be found is written unmarked, saying why; webp cannot
// be annotated.
func TestCaptureAnnotated(t *testing.T) {
	s, ctx := openPage(t, "annotate.html")
	if err := evalValue(ctx, s, "(scrollTo(0, 100), 0)", new(int)); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var asked capture.Rect
	shot, err := (capture.Files{}).Capture(ctx, s, filepath.Join(dir, "a.png"), capture.ShotOptions{Marks: buttonMarks(s, &asked)})
	if err != nil {
		t.Fatal(err)
	}
	vp := viewport(t, ctx, s)
	if asked.X != 0 || asked.Y != 0 || int(asked.Width) != vp.X || shot.Annotated == nil || *shot.Annotated == 0 || shot.Unannotated != "" {
		t.Errorf("viewport: asked %+v, shot %+v", asked, shot)
	}

	// The whole page, as jpeg: the region starts above the viewport.
	shot, err = (capture.Files{}).Capture(ctx, s, filepath.Join(dir, "a.jpg"), capture.ShotOptions{Format: "jpeg", Quality: 70, FullPage: true, MaxSide: capture.ReadableSide, Marks: buttonMarks(s, &asked)})
	if err != nil {
		t.Fatal(err)
	}
	if asked.Y != -100 || shot.Format != "jpeg" || *shot.Annotated != 60 {
		t.Errorf("full page: asked %+v, shot %+v", asked, shot)
	}
	f, err := os.Open(shot.Path)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := jpeg.DecodeConfig(f)
	f.Close()
	if err != nil || cfg.Width != shot.Width {
		t.Errorf("the jpeg: %v %+v", err, cfg)
	}

	failing := func(context.Context, capture.Rect) ([]capture.ShotMark, error) {
		return nil, errors.New("the page's elements could not be read")
	}
	shot, err = (capture.Files{}).Capture(ctx, s, filepath.Join(dir, "b.jpg"), capture.ShotOptions{Format: "jpeg", Marks: failing})
	if err != nil || shot.Annotated != nil || !strings.Contains(shot.Unannotated, "not annotated: the page's elements") {
		t.Fatalf("marks that failed: %v, %+v", err, shot)
	}
	if _, err := os.Stat(shot.Path); err != nil {
		t.Errorf("no image without its marks: %v", err)
	}

	// Marks found after the capture are drawn on its file.
	shot, err = (capture.Files{}).Capture(ctx, s, filepath.Join(dir, "later.png"), capture.ShotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(shot.Path)
	marks, _ := buttonMarks(s, &asked)(ctx, capture.Rect{})
	if err := (capture.Files{}).Annotate(shot, marks, nil); err != nil || shot.Annotated == nil || *shot.Annotated == 0 {
		t.Errorf("annotated after: %v, %+v", err, shot)
	}
	if after, _ := os.ReadFile(shot.Path); string(after) == string(before) {
		t.Errorf("the file was not drawn on")
	}
	shot, err = (capture.Files{}).Capture(ctx, s, filepath.Join(dir, "later.jpg"), capture.ShotOptions{Format: "jpeg"})
	if err != nil {
		t.Fatal(err)
	}
	if err := (capture.Files{}).Annotate(shot, marks, nil); err == nil {
		t.Errorf("a jpeg annotated after its capture")
	}

	_, err = (capture.Files{}).Capture(ctx, s, filepath.Join(dir, "c.webp"), capture.ShotOptions{Format: "webp", Marks: failing})
	var opt *invalid.Option
	if !errors.As(err, &opt) || opt.Field != "annotate" {
		t.Errorf("webp: %v", err)
	}
}

// BenchmarkScreenshotAnnotated is what annotating adds to a viewport
// screenshot of a page of text and buttons, marks given: the capture as
// png, decoding, drawing and encoding (the page's walk for the marks runs
// beside the capture: see aria's BenchmarkMarks).
func BenchmarkScreenshotAnnotated(b *testing.B) {
	s := browser.NewTab(b)
	srv := testbrowser.Serve(b, "testdata")
	testbrowser.Navigate(b, s, srv.URL+"/annotate.html")
	ctx, cancel := context.WithTimeout(b.Context(), time.Minute)
	defer cancel()
	var asked capture.Rect
	marks, err := buttonMarks(s, &asked)(ctx, capture.Rect{})
	if err != nil {
		b.Fatal(err)
	}
	given := func(context.Context, capture.Rect) ([]capture.ShotMark, error) { return marks, nil }
	path := filepath.Join(b.TempDir(), "bench.png")
	for _, bc := range []struct {
		name string
		opts capture.ShotOptions
	}{{"plain", capture.ShotOptions{}}, {"annotated", capture.ShotOptions{Marks: given}}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := (capture.Files{}).Capture(ctx, s, path, bc.opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
