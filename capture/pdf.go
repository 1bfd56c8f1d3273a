package capture

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/invalid"
)

// PDFOptions are Page.printToPDF's settings, named as the pdf step takes
// them. Sizes are in inches; zero values are Chrome's defaults (US Letter,
// 0.4" margins, scale 1), except PrintBackground, which defaults to true.
type PDFOptions struct {
	Landscape           bool     `json:"landscape,omitempty"`
	Scale               float64  `json:"scale,omitempty"`
	PageRanges          string   `json:"pageRanges,omitempty"`
	MarginTop           *float64 `json:"marginTop,omitempty"`
	MarginBottom        *float64 `json:"marginBottom,omitempty"`
	MarginLeft          *float64 `json:"marginLeft,omitempty"`
	MarginRight         *float64 `json:"marginRight,omitempty"`
	PaperWidth          float64  `json:"paperWidth,omitempty"`
	PaperHeight         float64  `json:"paperHeight,omitempty"`
	HeaderTemplate      string   `json:"headerTemplate,omitempty"`
	FooterTemplate      string   `json:"footerTemplate,omitempty"`
	DisplayHeaderFooter bool     `json:"displayHeaderFooter,omitempty"`
	PrintBackground     *bool    `json:"printBackground,omitempty"`
	PreferCSSPageSize   bool     `json:"preferCSSPageSize,omitempty"`
}

// PDF is a printed document on disk. Valid reports the structural check:
// the %PDF- header, the %%EOF marker and a cross-reference section.
type PDF struct {
	Path  string `json:"path"`
	Pages int    `json:"pages,omitempty"`
	Size  int    `json:"size"` // bytes
	Valid bool   `json:"valid"`
}

// pageRange is one item of "1-5, 8, 11-": a page, a span, or an open end.
var pageRange = regexp.MustCompile(`^(\d*)\s*(-?)\s*(\d*)$`)

// Validate checks the options without a browser.
func (o PDFOptions) Validate() error {
	if o.Scale != 0 && (o.Scale < 0.1 || o.Scale > 2) {
		return &invalid.Option{Field: "scale", Value: fmt.Sprintf("%g", o.Scale), Reason: "must be between 0.1 and 2"}
	}
	if o.PaperWidth < 0 || o.PaperHeight < 0 {
		return &invalid.Option{Field: "paperWidth/paperHeight", Reason: "must be positive (inches)"}
	}
	for name, m := range map[string]*float64{"marginTop": o.MarginTop, "marginBottom": o.MarginBottom,
		"marginLeft": o.MarginLeft, "marginRight": o.MarginRight} {
		if m != nil && *m < 0 {
			return &invalid.Option{Field: name, Value: fmt.Sprintf("%g", *m), Reason: "must be at least 0 (inches)"}
		}
	}
	return checkPageRanges(o.PageRanges)
}

func checkPageRanges(s string) error {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	for _, item := range strings.Split(s, ",") {
		m := pageRange.FindStringSubmatch(strings.TrimSpace(item))
		bad := m == nil || (m[1] == "" && m[3] == "") || (m[2] == "" && m[3] != "")
		if !bad && m[1] != "" && m[3] != "" {
			from, _ := strconv.Atoi(m[1])
			to, _ := strconv.Atoi(m[3])
			bad = from > to
		}
		if !bad && (m[1] == "0" || m[3] == "0") {
			bad = true
		}
		if bad {
			return &invalid.Option{Field: "pageRanges", Value: s, Reason: `write pages from 1 like "1-3, 5, 8-"`}
		}
	}
	return nil
}

func (o PDFOptions) params() proto.PagePrintToPDF {
	return proto.PagePrintToPDF{
		Landscape:           o.Landscape,
		DisplayHeaderFooter: o.DisplayHeaderFooter,
		PrintBackground:     o.PrintBackground == nil || *o.PrintBackground,
		Scale:               o.Scale,
		PaperWidth:          o.PaperWidth,
		PaperHeight:         o.PaperHeight,
		MarginTop:           o.MarginTop,
		MarginBottom:        o.MarginBottom,
		MarginLeft:          o.MarginLeft,
		MarginRight:         o.MarginRight,
		PageRanges:          o.PageRanges,
		HeaderTemplate:      o.HeaderTemplate,
		FooterTemplate:      o.FooterTemplate,
		PreferCSSPageSize:   o.PreferCSSPageSize,
	}
}

// PrintPDF is Files{}.PrintPDF, in the process's temp directory.
func PrintPDF(ctx context.Context, s *cdp.Session, path string, opts PDFOptions) (*PDF, error) {
	return Files{}.PrintPDF(ctx, s, path, opts)
}

// PrintPDF prints the tab to path with Page.printToPDF.
func (f Files) PrintPDF(ctx context.Context, s *cdp.Session, path string, opts PDFOptions) (*PDF, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	res, err := opts.params().Do(ctx, s)
	if err != nil {
		return nil, fmt.Errorf("capture: pdf: %w", err)
	}
	if err := f.writeFile(path, res.Data); err != nil {
		return nil, err
	}
	pages, valid := CheckPDF(res.Data)
	return &PDF{Path: path, Pages: pages, Size: len(res.Data), Valid: valid}, nil
}

var (
	pageObject  = regexp.MustCompile(`/Type\s*/Page\b`)
	xrefSection = regexp.MustCompile(`(?m)^xref\b|/Type\s*/XRef\b`) // a table, or a stream (PDF 1.5)
	pageCount   = regexp.MustCompile(`/Type\s*/Pages\b[^>]*?/Count\s+(\d+)|/Count\s+(\d+)[^>]*?/Type\s*/Pages\b`)
)

// CheckPDF counts data's pages and checks its structure. Chrome writes
// page dictionaries uncompressed, so they can be counted; the page tree
// root's /Count is the fallback.
func CheckPDF(data []byte) (pages int, valid bool) {
	tail := data[max(0, len(data)-1024):]
	valid = bytes.HasPrefix(data, []byte("%PDF-")) && bytes.Contains(tail, []byte("%%EOF")) &&
		bytes.Contains(data, []byte("startxref")) && xrefSection.Match(data)
	if pages = len(pageObject.FindAllIndex(data, -1)); pages > 0 { // \b keeps /Pages out
		return pages, valid
	}
	for _, m := range pageCount.FindAllSubmatch(data, -1) {
		n, _ := strconv.Atoi(string(append(m[1], m[2]...)))
		pages = max(pages, n)
	}
	return pages, valid
}
