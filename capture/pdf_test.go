package capture_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/internal/invalid"
)

func ptrTo[T any](v T) *T { return &v }

// mediaBox reads the first page's size in points.
func mediaBox(t *testing.T, data []byte) (w, h float64) {
	t.Helper()
	m := regexp.MustCompile(`/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]`).FindSubmatch(data)
	if m == nil {
		t.Fatal("no MediaBox")
	}
	w, _ = strconv.ParseFloat(string(m[1]), 64)
	h, _ = strconv.ParseFloat(string(m[2]), 64)
	return w, h
}

func TestPDFPagesLandscapeAndRanges(t *testing.T) {
	s, ctx := openPage(t, "print.html")
	dir := t.TempDir()

	all, err := capture.PrintPDF(ctx, s, filepath.Join(dir, "all.pdf"), capture.PDFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(all.Path)
	if all.Pages != 5 || !all.Valid || all.Size != len(data) || all.Size == 0 {
		t.Fatalf("got %+v (file %d bytes)", all, len(data))
	}
	if w, h := mediaBox(t, data); w != 612 || h != 792 {
		t.Errorf("portrait page %gx%g pt, want US Letter 612x792", w, h)
	}

	some, err := capture.PrintPDF(ctx, s, filepath.Join(dir, "some.pdf"), capture.PDFOptions{
		Landscape: true, PageRanges: "2-3, 5", MarginTop: ptrTo(0.0), Scale: 0.8,
	})
	if err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(some.Path)
	if some.Pages != 3 || !some.Valid {
		t.Errorf("ranges: %+v", some)
	}
	if w, h := mediaBox(t, data); w <= h {
		t.Errorf("landscape page %gx%g pt", w, h)
	}

	// A range past the end is Chrome's to refuse, after validation.
	if _, err := capture.PrintPDF(ctx, s, filepath.Join(dir, "none.pdf"), capture.PDFOptions{PageRanges: "9-12"}); err == nil {
		t.Error("a range past the last page printed")
	}
}

func TestPDFOptionsValidate(t *testing.T) {
	good := []capture.PDFOptions{{}, {PageRanges: "1-3, 5, 8-"}, {PageRanges: "-2"}, {Scale: 2}, {MarginLeft: ptrTo(0.0)}}
	for _, o := range good {
		if err := o.Validate(); err != nil {
			t.Errorf("%+v: %v", o, err)
		}
	}
	bad := []capture.PDFOptions{
		{Scale: 3}, {Scale: 0.01}, {PaperWidth: -1}, {MarginTop: ptrTo(-0.5)},
		{PageRanges: "3-1"}, {PageRanges: "0"}, {PageRanges: "a-b"}, {PageRanges: "1,,2"}, {PageRanges: "-"},
	}
	for _, o := range bad {
		var pe *invalid.Option
		if err := o.Validate(); !errors.As(err, &pe) || pe.ErrorName() != "StepValidationError" {
			t.Errorf("%+v: got %v", o, err)
		}
	}
}

func TestCheckPDF(t *testing.T) {
	for _, tc := range []struct {
		data  string
		pages int
		valid bool
	}{
		{"%PDF-1.4\n1 0 obj <</Type /Page>> 2 0 obj <</Type /Page /Parent 3 0 R>> 3 0 obj <</Type /Pages /Count 2>>\nxref\nstartxref\n9\n%%EOF\n", 2, true},
		{"%PDF-1.7\n<</Type/Pages/Kids[]/Count 7>>\nstartxref 1 %%EOF", 7, false},
		{"<html>not a pdf</html>", 0, false},
		{"%PDF-1.4 truncated <</Type /Page>>", 1, false},
	} {
		pages, valid := capture.CheckPDF([]byte(tc.data))
		if pages != tc.pages || valid != tc.valid {
			t.Errorf("%.30q: pages %d valid %v, want %d %v", tc.data, pages, valid, tc.pages, tc.valid)
		}
	}
	if _, valid := capture.CheckPDF(bytes.Repeat([]byte("x"), 10)); valid {
		t.Error("junk is valid")
	}
}
