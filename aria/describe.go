package aria

import (
	"context"
	"fmt"

	"github.com/cdpskill/cdpskill/aria/js"
	"github.com/cdpskill/cdpskill/page"
)

// HeldKey names the in-page store through which code of another package
// hands elements to Describe: window[Symbol.for(HeldKey)] in the helper
// world, a Map from a token (page.Token) to an array of elements.
const HeldKey = "cdpskill.held"

// DescribeRequest names the elements to describe: those held under Held
// in p's current frame.
type DescribeRequest struct {
	Held string
	// SnapshotFloor and ElementFloor: as in Options.
	SnapshotFloor int
	ElementFloor  int
}

// Described is one element as a snapshot line shows it, with its ref:
// `button [ref=s1e18] in "Audit item one"`. The document's root element
// is `document "Its title"`, with no ref: there is nothing to act on.
type Described struct {
	Ref  string `json:"ref,omitempty"`
	Line string `json:"line"`
}

// DescribeResult has an entry per element held, in their order; nil for
// one that left the page since.
type DescribeResult struct {
	Items []*Described `json:"items"`
	// LastSnapshot and LastElement: as in Result.
	LastSnapshot int `json:"lastSnapshot"`
	LastElement  int `json:"lastElement"`
}

// Describe gives the elements held under req.Held refs, reusing those
// they have, under the current snapshot number (a role query's way), and
// their snapshot lines; it releases them.
func Describe(ctx context.Context, p *page.Page, req DescribeRequest) (*DescribeResult, error) {
	in := map[string]any{"key": HeldKey, "held": req.Held,
		"snapshotFloor": req.SnapshotFloor, "elementFloor": req.ElementFloor}
	var res DescribeResult
	if err := p.CallJS(ctx, js.Describe(), &res, in); err != nil {
		return nil, fmt.Errorf("aria: describe: %w", err)
	}
	return &res, nil
}
