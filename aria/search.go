package aria

import (
	"context"
	"fmt"

	"github.com/cdpskill/cdpskill/aria/js"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/page"
)

// DefaultNearRadius is the radius of a near filter that gives none.
const DefaultNearRadius = 50

// SearchOptions are snapshotSearch's criteria (SPEC 7.10, 11.2). A node
// matches when it meets every criterion given.
type SearchOptions struct {
	// Text matches names, values and, for unnamed nodes, their own text:
	// a case-insensitive substring, or the whole string with Exact.
	Text  string `json:"text,omitempty"`
	Exact bool   `json:"exact,omitempty"`
	// Pattern is a case-insensitive regular expression over the same.
	Pattern string `json:"pattern,omitempty"`
	Role    string `json:"role,omitempty"`
	// Near keeps nodes whose centre is within Radius CSS pixels of (X, Y)
	// in the viewport.
	Near *Near `json:"near,omitempty"`
	// Limit caps the matches returned (default 10); MatchCount counts
	// them all.
	Limit int `json:"limit,omitempty"`
	// Context is how many ancestors each match's path shows (default 2).
	Context *int `json:"context,omitempty"`
	// PierceShadow (default true) searches open shadow roots, and
	// IncludeFrames frames too, cross-origin ones included, as the
	// snapshot options of the same names.
	PierceShadow  *bool `json:"pierceShadow,omitempty"`
	IncludeFrames bool  `json:"includeFrames,omitempty"`

	// SnapshotFloor and ElementFloor: as in Options.
	SnapshotFloor int `json:"-"`
	ElementFloor  int `json:"-"`
}

// Near is a point in viewport coordinates and a radius.
type Near struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Radius float64 `json:"radius,omitempty"`
}

// Validate checks the criteria without touching Chrome.
func (o SearchOptions) Validate() error {
	if o.Text == "" && o.Pattern == "" && o.Role == "" && o.Near == nil {
		return &invalid.Option{Field: "text", Reason: "nothing to search for: give text, pattern, role or near"}
	}
	if o.Exact && o.Text == "" {
		return &invalid.Option{Field: "exact", Reason: "needs text to match exactly"}
	}
	if o.Pattern != "" {
		if err := checkPattern("pattern", o.Pattern); err != nil {
			return err
		}
	}
	if o.Near != nil && o.Near.Radius < 0 {
		return &invalid.Option{Field: "near.radius", Value: fmt.Sprint(o.Near.Radius), Reason: "must not be negative"}
	}
	ctx := 0
	if o.Context != nil {
		ctx = *o.Context
	}
	return nonNegative(map[string]int{"limit": o.Limit, "context": ctx})
}

// SearchResult is what snapshotSearch returns.
type SearchResult struct {
	Matches          []Match  `json:"matches"`
	MatchCount       int      `json:"matchCount"`
	SearchedElements int      `json:"searchedElements"`
	Criteria         Criteria `json:"criteria"`

	// LastSnapshot and LastElement: as in Result.
	LastSnapshot int `json:"-"`
	LastElement  int `json:"-"`
}

// Criteria echoes what was searched for.
type Criteria struct {
	Text    string `json:"text,omitempty"`
	Exact   bool   `json:"exact,omitempty"`
	Pattern string `json:"pattern,omitempty"`
	Role    string `json:"role,omitempty"`
	Near    *Near  `json:"near,omitempty"`
}

// Match is one node found. Path is its nearest ancestors, outermost
// first ("main > form \"Login\""); Text is the own text of an unnamed
// node; Ref is set on interactive nodes; Box with a near filter.
type Match struct {
	Path  string  `json:"path,omitempty"`
	Role  string  `json:"role"`
	Name  string  `json:"name,omitempty"`
	Text  string  `json:"text,omitempty"`
	Ref   string  `json:"ref,omitempty"`
	Value *string `json:"value,omitempty"`
	Box   *Box    `json:"box,omitempty"`
}

// Box is a border box in viewport CSS pixels, rounded.
type Box struct {
	X      int `json:"x"`
	Y      int `json:"y"`
	Width  int `json:"width"`
	Height int `json:"height"`
}

// Search searches the accessibility tree of the whole page, never the
// auto-scoped main. It is an internal snapshot: it starts no new snapshot
// number, but the refs it hands out persist.
func Search(ctx context.Context, p *page.Page, opts SearchOptions) (*SearchResult, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if opts.Near != nil && opts.Near.Radius == 0 {
		n := *opts.Near
		n.Radius = DefaultNearRadius
		opts.Near = &n
	}
	out, err := searchDoc(ctx, p, opts)
	if err != nil {
		return nil, err
	}
	if opts.IncludeFrames {
		if err := searchSealed(ctx, p, opts, out); err != nil {
			return nil, err
		}
	}
	out.Criteria = Criteria{Text: opts.Text, Exact: opts.Exact, Pattern: opts.Pattern, Role: opts.Role, Near: opts.Near}
	return out, nil
}

// limit is the number of matches returned, as search.js applies it.
func (o SearchOptions) limit() int {
	if o.Limit > 0 {
		return o.Limit
	}
	return 10
}

// searchDoc searches the document p evaluates in (and, with
// includeFrames, the frames its code can enter).
func searchDoc(ctx context.Context, p *page.Page, opts SearchOptions) (*SearchResult, error) {
	in := struct {
		SearchOptions
		SnapshotFloor int `json:"snapshotFloor,omitempty"`
		ElementFloor  int `json:"elementFloor,omitempty"`
	}{opts, opts.SnapshotFloor, opts.ElementFloor}
	var res struct {
		SearchResult
		jsError
		LastSnapshot int `json:"lastSnapshot"`
		LastElement  int `json:"lastElement"`
	}
	page.ExposeClickHandlers(ctx, p)
	if err := p.CallJS(ctx, js.Search(), &res, in); err != nil {
		return nil, fmt.Errorf("aria: search: %w", err)
	}
	switch res.Error {
	case "":
	case "invalidPattern":
		return nil, &invalid.Pattern{Field: "pattern", Pattern: opts.Pattern, Reason: res.Message}
	default:
		return nil, fmt.Errorf("aria: search: %s: %s", res.Error, res.Message)
	}
	out := res.SearchResult
	if out.Matches == nil {
		out.Matches = []Match{}
	}
	out.LastSnapshot, out.LastElement = res.LastSnapshot, res.LastElement
	return &out, nil
}
