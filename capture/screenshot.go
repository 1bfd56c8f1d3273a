package capture

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/internal/xcontext"
	"golang.org/x/sync/errgroup"
)

// DefaultShotTimeout bounds a screenshot whose ctx has no deadline:
// Page.captureScreenshot never answers while a JavaScript dialog is open.
const DefaultShotTimeout = 10 * time.Second

// MaxShotSide is the most device pixels a screenshot may have on a side:
// past it Chrome's compositor returns blank or torn images.
const MaxShotSide = 16384

// ReadableSide is the longest side a vision model reads an image at
// without scaling it down itself (Claude's limit is 1568 px): a larger
// image costs more to send and shows the model no more.
const ReadableSide = 1568

// measureWait bounds measuring the view before a capture.
const measureWait = 500 * time.Millisecond

// minReadable is the least image pixels per CSS pixel at which a page's
// text stays legible; a capture scaled below it says so.
const minReadable = 0.5

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
	// MaxSide, when set, scales the capture down at capture time so that
	// neither side of the image is longer; zero keeps device pixels.
	MaxSide int
	// Marks, when set, annotates the image (png or jpeg) with the marks
	// it finds for the captured region (annotate.go).
	Marks ShotMarks
}

// Rect is a region in CSS pixels.
type Rect struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Shot is a screenshot written to disk; Width and Height are the image's
// pixels.
type Shot struct {
	Path   string `json:"path"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Format string `json:"format"`
	// Scale is the image's pixels per CSS pixel, when not 1 (a high
	// pixel ratio, or a capture scaled down to MaxSide): a point in the
	// image is at (x/scale, y/scale) CSS pixels from its top left.
	Scale float64 `json:"scale,omitempty"`
	// Annotated counts the elements an annotated image boxes, and Legend
	// says what those are whose label found no room (ref: what it is).
	Annotated *int   `json:"annotated,omitempty"`
	Legend    Legend `json:"legend,omitempty"`
	// Warning says when the scaled image is too small to read.
	Warning string `json:"-"`
	// Unannotated says what of an annotation is missing, and why.
	Unannotated string `json:"-"`
	// view is the region the image shows, in the viewport's CSS pixels
	// (zero when not measured), for an annotation after the capture
	// (Annotate).
	view Rect
}

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
		return &invalid.Option{Field: "format", Value: o.Format, Reason: "use png, jpeg or webp"}
	}
	if o.Quality < 0 || o.Quality > 100 {
		return &invalid.Option{Field: "quality", Value: fmt.Sprint(o.Quality), Reason: "must be between 0 and 100"}
	}
	if o.FullPage && o.Clip != nil {
		return &invalid.Option{Field: "fullPage", Reason: "give fullPage or clip, not both"}
	}
	if f, _ := Format(o.Format); o.Marks != nil && f == "webp" {
		return &invalid.Option{Field: "annotate", Reason: "draws on png and jpeg images, not webp"}
	}
	if c := o.Clip; c != nil && (c.Width <= 0 || c.Height <= 0 || c.X < 0 || c.Y < 0) {
		return &invalid.Option{Field: "clip", Value: fmt.Sprintf("%gx%g at %g,%g", c.Width, c.Height, c.X, c.Y),
			Reason: "width and height must be positive, x and y at least 0"}
	}
	return nil
}

// params builds Page.captureScreenshot's params for a viewport capture.
func (o ShotOptions) params() proto.PageCaptureScreenshot {
	format, _ := Format(o.Format)
	p := proto.PageCaptureScreenshot{Format: format, CaptureBeyondViewport: false, OptimizeForSpeed: true}
	if o.Quality > 0 && format != "png" {
		p.Quality = o.Quality
	}
	return p
}

// Capture captures the tab into path as opts say, creating its parent
// directories, and reports the image. The file is replaced whole, never
// seen half-written.
func (f Files) Capture(ctx context.Context, s *cdp.Session, path string, opts ShotOptions) (*Shot, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultShotTimeout)
		defer cancel()
	}
	params := opts.params()
	area, err := addClip(ctx, s, &params, opts)
	if err != nil {
		return nil, err
	}
	if opts.OmitBackground {
		restore, err := transparentBackground(ctx, s)
		if err != nil {
			return nil, err
		}
		defer restore()
	}
	data, marks, err := shoot(ctx, s, params, opts, area)
	if err != nil {
		return nil, err
	}
	shot := &Shot{Format: params.Format, view: area.view}
	if opts.Marks != nil {
		data = shot.annotate(data, opts.Quality, marks)
	}
	if shot.Width, shot.Height, err = imageSize(shot.Format, data); err != nil {
		return nil, err
	}
	if err := f.writeFile(path, data); err != nil {
		return nil, err
	}
	shot.Path = path
	shot.measured(area.region)
	return shot, nil
}

// measured sets the scale of a shot of region and says when the image is
// too small to read; a region not measured tells nothing.
func (s *Shot) measured(region Rect) {
	if region.Width == 0 {
		return
	}
	// Measured, not derived: a phone page zoomed out to fit its screen
	// has more CSS pixels than the screen has.
	scale := float64(s.Width) / region.Width
	if math.Abs(scale-1) > 1e-3 {
		s.Scale = math.Round(scale*1000) / 1000
	}
	if scale < minReadable {
		s.Warning = fmt.Sprintf("%g×%g CSS pixels at %.2f image pixels each are too small to read: "+
			"capture a region (clip) or an element (selector), or keep device pixels (fullResolution)", region.Width, region.Height, scale)
	}
}

// found is what an annotated capture's marks are: what the page said of
// the captured region, or why it said nothing.
type found struct {
	marks []ShotMark
	err   error
}

// shoot captures the image, and the marks to annotate it with beside it:
// while Chrome renders the frame to capture, the page walks its elements.
// An image captured beyond the viewport resizes the view while it is
// made, so its marks are found first, in the page as it stands. An
// annotated image is captured as png, which annotate decodes, and encoded
// once in the format asked for.
func shoot(ctx context.Context, s *cdp.Session, params proto.PageCaptureScreenshot, opts ShotOptions, a area) ([]byte, found, error) {
	var f found
	done := make(chan struct{})
	switch {
	case opts.Marks == nil:
		close(done)
	case a.region.Width == 0:
		f.err = fmt.Errorf("the page did not answer in time to say where its elements are")
		close(done)
	case params.CaptureBeyondViewport:
		f.marks, f.err = opts.Marks(ctx, a.view)
		close(done)
	default:
		go func() {
			defer close(done)
			f.marks, f.err = opts.Marks(ctx, a.view)
		}()
	}
	if opts.Marks != nil {
		params.Format, params.Quality = "png", 0
	}
	res, err := params.Do(ctx, s)
	<-done
	if err != nil {
		return nil, f, fmt.Errorf("capture: screenshot: %w", err)
	}
	return res.Data, f, nil
}

// Annotate draws on a png shot, in its file, marks found since it was
// taken (the report's, from its own walk of the page), or says in the
// shot why there are none (err). The file is left as it was when nothing
// could be drawn.
func (f Files) Annotate(s *Shot, marks []ShotMark, err error) error {
	if s.Format != "png" {
		return fmt.Errorf("capture: annotate: a %s image is drawn on as it is captured", s.Format)
	}
	data, rerr := f.Temp.ReadFile(s.Path, maxAnnotated)
	if rerr != nil {
		return rerr
	}
	if err == nil && s.view.Width == 0 {
		err = fmt.Errorf("the page did not answer in time to say where its elements are")
	}
	out := s.annotate(data, 0, found{marks, err})
	if s.Annotated == nil {
		return nil
	}
	return f.writeFile(s.Path, out)
}

// annotate draws the marks found on the png data and returns the image
// in the shot's format; without marks, it says why and returns the image
// unmarked, in that format.
func (s *Shot) annotate(data []byte, quality int, f found) []byte {
	var out []byte
	var drawn annotation
	err := f.err
	if err == nil {
		out, drawn, err = annotate(data, s.Format, quality, s.view, f.marks)
	}
	if err != nil {
		s.Unannotated = "not annotated: " + err.Error()
		if s.Format == "png" {
			return data
		}
		img, derr := decodePNG(data)
		if derr != nil {
			return data
		}
		if out, derr = encode(img, s.Format, quality); derr != nil {
			return data
		}
		return out
	}
	s.Annotated, s.Legend, s.Unannotated = &drawn.drawn, drawn.legend, drawn.note()
	return out
}

// layoutMetrics is what a clipped capture needs of Page.getLayoutMetrics.
type layoutMetrics proto.PageGetLayoutMetricsResult

// view is what the page says of its viewport: device pixels per CSS
// pixel (layout metrics do not tell it under device emulation) and the
// window's inner size, scrollbars included as a plain capture has them.
type view struct {
	Ratio, Width, Height float64
}

func viewOf(ctx context.Context, s *cdp.Session) (view, error) {
	res, err := proto.RuntimeEvaluate{Expression: "[devicePixelRatio, innerWidth, innerHeight]", ReturnByValue: true, Silent: true}.Do(ctx, s)
	if err != nil {
		return view{}, fmt.Errorf("capture: screenshot: %w", err)
	}
	var v [3]float64
	if len(res.Result.Value) > 0 {
		if err := json.Unmarshal(res.Result.Value, &v); err != nil {
			return view{}, fmt.Errorf("capture: screenshot: %w", err)
		}
	}
	return view{Ratio: max(v[0], 1e-3), Width: v[1], Height: v[2]}, nil
}

// inViewport reports whether r lies in what the visual viewport shows.
func (m *layoutMetrics) inViewport(r Rect) bool {
	v := m.CSSVisualViewport
	return r.X >= v.PageX && r.Y >= v.PageY &&
		r.X+r.Width <= v.PageX+v.ClientWidth && r.Y+r.Height <= v.PageY+v.ClientHeight
}

// area is the region a capture shows, in CSS pixels of the document, and
// the same region in the viewport's (where the page says its elements
// are); zero when the page did not answer.
type area struct {
	region, view Rect
}

// addClip measures the region a capture shows and sets the clip of a
// full-page, region or scaled capture. Chrome paints beyond the viewport
// only when asked, and the asking resizes the view for a moment, so it is
// asked only when the region needs it.
func addClip(ctx context.Context, s *cdp.Session, params *proto.PageCaptureScreenshot, opts ShotOptions) (area, error) {
	var m layoutMetrics
	var vw view
	// A page whose navigation has no response yet answers no evaluation
	// but still shows something: a viewport capture then goes ahead as it
	// is, unscaled, with no scale to tell.
	mctx, cancel := context.WithTimeout(ctx, measureWait)
	defer cancel()
	g, gctx := errgroup.WithContext(mctx)
	g.Go(func() error {
		res, err := proto.PageGetLayoutMetrics{}.Do(gctx, s)
		if err != nil {
			return fmt.Errorf("capture: screenshot: %w", err)
		}
		m = layoutMetrics(res)
		return nil
	})
	g.Go(func() (err error) {
		vw, err = viewOf(gctx, s)
		return err
	})
	if err := g.Wait(); err != nil {
		if mctx.Err() != nil && ctx.Err() == nil && !opts.FullPage && opts.Clip == nil {
			return area{}, nil
		}
		return area{}, err
	}
	vv := m.CSSVisualViewport
	r := Rect{X: vv.PageX, Y: vv.PageY, Width: vw.Width, Height: vw.Height}
	switch {
	case opts.FullPage:
		r = Rect{Width: m.CSSContentSize.Width, Height: m.CSSContentSize.Height}
	case opts.Clip != nil:
		r = *opts.Clip
	}
	a := area{region: r, view: Rect{X: r.X - vv.PageX, Y: r.Y - vv.PageY, Width: r.Width, Height: r.Height}}
	w, h := int(math.Ceil(r.Width*vw.Ratio)), int(math.Ceil(r.Height*vw.Ratio))
	if w > MaxShotSide || h > MaxShotSide {
		return area{}, &TooLargeError{Width: w, Height: h}
	}
	fit := 1.0
	if longest := max(w, h); opts.MaxSide > 0 && longest > opts.MaxSide {
		fit = float64(opts.MaxSide) / float64(longest)
	}
	if fit == 1 && !opts.FullPage && opts.Clip == nil {
		return a, nil // the viewport as it is: no clip needed
	}
	params.Clip = &proto.Viewport{X: r.X, Y: r.Y, Width: r.Width, Height: r.Height, Scale: fit}
	params.CaptureBeyondViewport = opts.FullPage || opts.Clip != nil && !m.inViewport(r)
	return a, nil
}

// transparentBackground clears the default background until restore,
// which runs even after ctx ended so the tab is not left transparent.
func transparentBackground(ctx context.Context, s *cdp.Session) (restore func(), err error) {
	transparent := proto.EmulationSetDefaultBackgroundColorOverride{Color: &proto.RGBA{}}
	if err := transparent.Do(ctx, s); err != nil {
		return nil, fmt.Errorf("capture: transparent background: %w", err)
	}
	return func() {
		rctx, cancel := xcontext.Detached(ctx, 2*time.Second)
		defer cancel()
		_ = proto.EmulationSetDefaultBackgroundColorOverride{}.Do(rctx, s) // no color: back to the page's own
	}, nil
}

// writeFile writes through a temporary file and a rename, so a reader
// never sees a partial image even when two calls race on one tab; the
// file is private (0600, refused through a link or another user's
// directory), and an error names it.
func (f Files) writeFile(path string, data []byte) error {
	return f.Temp.WriteFile(path, data)
}
