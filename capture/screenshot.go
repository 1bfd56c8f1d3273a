package capture

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
)

// DefaultShotTimeout bounds a screenshot whose ctx has no deadline:
// Page.captureScreenshot never answers while a JavaScript dialog is open.
const DefaultShotTimeout = 10 * time.Second

// ShotOptions are the screenshot settings. The zero value is a viewport
// PNG. Full-page, region, element and omitBackground captures will be
// further fields here, turned into Page.captureScreenshot parameters by
// params.
type ShotOptions struct {
	Format  string // "png" (default), "jpeg" (or "jpg"), "webp"
	Quality int    // 1-100 for jpeg and webp; 0 leaves Chrome's default; ignored for png
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

// params checks the options and builds Page.captureScreenshot's params.
func (o ShotOptions) params() (map[string]any, error) {
	format := strings.ToLower(o.Format)
	switch format {
	case "":
		format = "png"
	case "jpg":
		format = "jpeg"
	case "png", "jpeg", "webp":
	default:
		return nil, &OptionError{"format", o.Format, "use png, jpeg or webp"}
	}
	if o.Quality < 0 || o.Quality > 100 {
		return nil, &OptionError{"quality", fmt.Sprint(o.Quality), "must be between 0 and 100"}
	}
	p := map[string]any{
		"format": format,
		// Capturing beyond the viewport resizes it for a moment, which
		// can relayout the page; a viewport shot never needs it.
		"captureBeyondViewport": false,
	}
	if o.Quality > 0 && format != "png" {
		p["quality"] = o.Quality
	}
	return p, nil
}

// Screenshot captures the tab's viewport into path, creating its parent
// directories. The file is replaced whole, never seen half-written.
func Screenshot(ctx context.Context, s *cdp.Session, path string, opts ShotOptions) error {
	params, err := opts.params()
	if err != nil {
		return err
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultShotTimeout)
		defer cancel()
	}
	var res struct {
		Data []byte `json:"data"` // base64 in the JSON
	}
	if err := s.Call(ctx, "Page.captureScreenshot", params, &res); err != nil {
		return fmt.Errorf("capture: screenshot: %w", err)
	}
	return writeFile(path, res.Data)
}

// AfterPath is where the screenshot taken after each command of tab alias
// goes: $TMPDIR/cdp-skill/<alias>.after.png.
func AfterPath(alias string) string {
	// An alias is a short name, never a path; keep it inside the directory.
	alias = strings.NewReplacer("/", "_", `\`, "_").Replace(alias)
	return filepath.Join(os.TempDir(), "cdp-skill", alias+".after.png")
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
