package capture

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
)

// DefaultShotTimeout bounds a screenshot whose ctx has no deadline:
// Page.captureScreenshot never answers while a JavaScript dialog is open.
const DefaultShotTimeout = 10 * time.Second

// MaxShotSide is the most device pixels a screenshot may have on a side:
// past it Chrome's compositor returns blank or torn images.
const MaxShotSide = 16384

// ShotOptions are the screenshot settings. The zero value is a viewport
// PNG.
type ShotOptions struct {
	Format  string // "png" (default), "jpeg" (or "jpg"), "webp"
	Quality int    // 1-100 for jpeg and webp; 0 leaves Chrome's default; ignored for png
	// FullPage captures the whole scrollable page instead of the viewport.
	FullPage bool
	// Clip captures a region, in CSS pixels of the document (not of the
	// viewport), so a region below the fold needs no scrolling.
	Clip *Rect
	// OmitBackground makes the default white background transparent
	// (png and webp); a page that paints its own background keeps it.
	OmitBackground bool
}

// Rect is a region in CSS pixels.
type Rect struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Shot is a screenshot written to disk; Width and Height are the image's,
// in device pixels.
type Shot struct {
	Path   string `json:"path"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Format string `json:"format"`
}

// OptionError is a screenshot option Chrome would reject or misread.
type OptionError struct {
	Field, Value, Reason string
}

func (e *OptionError) Error() string {
	return fmt.Sprintf("screenshot %s %q: %s", e.Field, e.Value, e.Reason)
}

// ErrorName reports option errors as the spec's step validation failure.
func (e *OptionError) ErrorName() string { return "StepValidationError" }

// TooLargeError is a capture past MaxShotSide. It is no spec subtype: the
// options were valid, the page is simply too big for them.
type TooLargeError struct {
	Width, Height int // device pixels the capture would need
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("the capture would be %d×%d pixels, over the limit of %d a side: "+
		"capture the viewport (leave out fullPage) or a region (clip), or an element", e.Width, e.Height, MaxShotSide)
}

// Format normalises a format name; ok is false for formats Chrome lacks.
func Format(f string) (string, bool) {
	switch f = strings.ToLower(f); f {
	case "", "png":
		return "png", true
	case "jpg", "jpeg":
		return "jpeg", true
	case "webp":
		return "webp", true
	}
	return f, false
}

// Validate checks the options without a browser.
func (o ShotOptions) Validate() error {
	if _, ok := Format(o.Format); !ok {
		return &OptionError{"format", o.Format, "use png, jpeg or webp"}
	}
	if o.Quality < 0 || o.Quality > 100 {
		return &OptionError{"quality", fmt.Sprint(o.Quality), "must be between 0 and 100"}
	}
	if o.FullPage && o.Clip != nil {
		return &OptionError{"fullPage", "true", "give fullPage or clip, not both"}
	}
	if c := o.Clip; c != nil && (c.Width <= 0 || c.Height <= 0 || c.X < 0 || c.Y < 0) {
		return &OptionError{"clip", fmt.Sprintf("%gx%g at %g,%g", c.Width, c.Height, c.X, c.Y),
			"width and height must be positive, x and y at least 0"}
	}
	return nil
}

// params builds Page.captureScreenshot's params for a viewport capture.
func (o ShotOptions) params() map[string]any {
	format, _ := Format(o.Format)
	p := map[string]any{
		"format": format,
		// Capturing beyond the viewport resizes it for a moment, which
		// can relayout the page; a viewport shot never needs it.
		"captureBeyondViewport": false,
		"optimizeForSpeed":      true,
	}
	if o.Quality > 0 && format != "png" {
		p["quality"] = o.Quality
	}
	return p
}

// Screenshot captures the tab into path as opts say, creating its parent
// directories. The file is replaced whole, never seen half-written.
func Screenshot(ctx context.Context, s *cdp.Session, path string, opts ShotOptions) error {
	_, err := Capture(ctx, s, path, opts)
	return err
}

// Capture is Screenshot reporting the image's size.
func Capture(ctx context.Context, s *cdp.Session, path string, opts ShotOptions) (*Shot, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultShotTimeout)
		defer cancel()
	}
	params := opts.params()
	if opts.FullPage || opts.Clip != nil {
		if err := addClip(ctx, s, params, opts); err != nil {
			return nil, err
		}
	}
	if opts.OmitBackground {
		restore, err := transparentBackground(ctx, s)
		if err != nil {
			return nil, err
		}
		defer restore()
	}
	var res struct {
		Data []byte `json:"data"` // base64 in the JSON
	}
	if err := s.Call(ctx, "Page.captureScreenshot", params, &res); err != nil {
		return nil, fmt.Errorf("capture: screenshot: %w", err)
	}
	format := params["format"].(string)
	w, h, err := imageSize(format, res.Data)
	if err != nil {
		return nil, err
	}
	if err := writeFile(path, res.Data); err != nil {
		return nil, err
	}
	return &Shot{Path: path, Width: w, Height: h, Format: format}, nil
}

// layoutMetrics is what a clipped capture needs of Page.getLayoutMetrics.
type layoutMetrics struct {
	CSSVisualViewport struct {
		PageX        float64 `json:"pageX"`
		PageY        float64 `json:"pageY"`
		ClientWidth  float64 `json:"clientWidth"`
		ClientHeight float64 `json:"clientHeight"`
	} `json:"cssVisualViewport"`
	CSSContentSize Rect `json:"cssContentSize"`
}

// pixelRatio is the page's device pixels per CSS pixel. Layout metrics
// do not tell it under device emulation, so the page is asked.
func pixelRatio(ctx context.Context, s *cdp.Session) (float64, error) {
	var res struct {
		Result struct {
			Value float64 `json:"value"`
		} `json:"result"`
	}
	err := s.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "devicePixelRatio", "returnByValue": true, "silent": true}, &res)
	if err != nil {
		return 0, fmt.Errorf("capture: screenshot: %w", err)
	}
	return max(res.Result.Value, 1e-3), nil
}

// inViewport reports whether r lies in what the visual viewport shows.
func (m *layoutMetrics) inViewport(r Rect) bool {
	v := m.CSSVisualViewport
	return r.X >= v.PageX && r.Y >= v.PageY &&
		r.X+r.Width <= v.PageX+v.ClientWidth && r.Y+r.Height <= v.PageY+v.ClientHeight
}

// addClip sets the clip of a full-page or region capture. Chrome paints
// beyond the viewport only when asked, and the asking resizes the view
// for a moment, so it is asked only when the region needs it.
func addClip(ctx context.Context, s *cdp.Session, params map[string]any, opts ShotOptions) error {
	var m layoutMetrics
	if err := s.Call(ctx, "Page.getLayoutMetrics", nil, &m); err != nil {
		return fmt.Errorf("capture: screenshot: %w", err)
	}
	scale, err := pixelRatio(ctx, s)
	if err != nil {
		return err
	}
	r := Rect{Width: m.CSSContentSize.Width, Height: m.CSSContentSize.Height}
	if opts.Clip != nil {
		r = *opts.Clip
	}
	w, h := int(math.Ceil(r.Width*scale)), int(math.Ceil(r.Height*scale))
	if w > MaxShotSide || h > MaxShotSide {
		return &TooLargeError{Width: w, Height: h}
	}
	params["clip"] = map[string]any{"x": r.X, "y": r.Y, "width": r.Width, "height": r.Height, "scale": 1}
	params["captureBeyondViewport"] = opts.FullPage || !m.inViewport(r)
	return nil
}

// transparentBackground clears the default background until restore,
// which runs even after ctx ended so the tab is not left transparent.
func transparentBackground(ctx context.Context, s *cdp.Session) (restore func(), err error) {
	const method = "Emulation.setDefaultBackgroundColorOverride"
	transparent := map[string]any{"color": map[string]any{"r": 0, "g": 0, "b": 0, "a": 0}}
	if err := s.Call(ctx, method, transparent, nil); err != nil {
		return nil, fmt.Errorf("capture: transparent background: %w", err)
	}
	return func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer cancel()
		_ = s.Call(rctx, method, nil, nil) // no color: back to the page's own
	}, nil
}

// AfterPath is where the screenshot taken after each command of tab alias
// goes: $TMPDIR/cdp-skill/<alias>.after.png.
func AfterPath(alias string) string {
	return TabFile(alias, ".after.png")
}

// writeFile writes through a temporary file and a rename, so a reader
// never sees a partial image even when two calls race on one tab.
func writeFile(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("capture: %w", err)
	}
	f, err := os.CreateTemp(dir, filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("capture: %w", err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("capture: write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("capture: write %s: %w", path, err)
	}
	if err := os.Chmod(tmp, 0o644); err != nil { // CreateTemp makes it 0600
		return fmt.Errorf("capture: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("capture: %w", err)
	}
	return nil
}
