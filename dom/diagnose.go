package dom

import (
	"context"

	"github.com/cdpskill/cdpskill/page"
)

// Diagnostics is the failure context attached to a failed step (SPEC
// 16.3). Every part is best-effort; a part that could not be read is left
// out.
type Diagnostics struct {
	Title          string          `json:"title,omitempty"`
	URL            string          `json:"url,omitempty"`
	ScrollPosition *ScrollPosition `json:"scrollPosition,omitempty"`
	VisibleButtons []ElementHint   `json:"visibleButtons,omitempty"`
	// VisibleFields replace the buttons after a failed fill: the fields
	// the agent could have meant.
	VisibleFields []FieldHint `json:"visibleFields,omitempty"`
	VisibleLinks  []LinkHint  `json:"visibleLinks,omitempty"`
	VisibleErrors []string    `json:"visibleErrors,omitempty"`
	// NearMatches are visible elements whose text, name or value is
	// close to the search term, best first for the step: what can be
	// clicked first after a click, fields first after a fill, type or
	// selectOption; plain text last.
	NearMatches []ElementHint `json:"nearMatches,omitempty"`
	// InFrame is another frame of the tab that has the element the step
	// looked for: switch to it with the frame step, or click with
	// searchFrames.
	InFrame *page.CurrentFrame `json:"inFrame,omitempty"`
}

// ScrollPosition is where the page is scrolled to; PercentY is 0 at the
// top and 100 at the bottom.
type ScrollPosition struct {
	X        int `json:"x"`
	Y        int `json:"y"`
	MaxY     int `json:"maxY"`
	PercentY int `json:"percentY"`
}

// ElementHint is an element the agent could target instead. Score (0-100)
// is set on near matches: 100 the same text, 80 text containing the term,
// 70 text contained in it, 50 a shared word (or one a typo away), or the
// text's similarity by edit distance when higher (a misspelling). Role,
// on near matches, is the element's ARIA role: a "button" or a
// "textbox" may show the same words. A near match inside a shadow root
// has no Selector (none reaches it from the document): its Ref, or a
// snapshot's, targets it.
type ElementHint struct {
	Text     string `json:"text"`
	Selector string `json:"selector,omitempty"`
	Ref      string `json:"ref,omitempty"`
	Role     string `json:"role,omitempty"`
	Score    int    `json:"score,omitempty"`
}

// FieldHint is a visible form field: its label (or placeholder, or
// name), and its type when it is not a text field.
type FieldHint struct {
	Label    string `json:"label"`
	Selector string `json:"selector,omitempty"` // none inside a shadow root: Ref is the way
	Type     string `json:"type,omitempty"`
	Ref      string `json:"ref,omitempty"`
}

// LinkHint is a visible link.
type LinkHint struct {
	Text string `json:"text"`
	Href string `json:"href"`
	Ref  string `json:"ref,omitempty"`
}

// FailureContext reads the failure context in one evaluation. searchTerm
// is what the failed step looked for (see Searched); "" skips the near
// matches. fields is for a step that wanted a field to type into: the
// visible fields are listed instead of the buttons, and near matches
// rank fields first. Callers bound ctx tightly: this is a courtesy after a failure,
// and a dead page fails it.
func FailureContext(ctx context.Context, p *page.Page, searchTerm string, fields bool) (*Diagnostics, error) {
	var fc Diagnostics
	if err := p.CallJS(ctx, diagnoseFn(), &fc, map[string]any{"term": searchTerm, "fields": fields}); err != nil {
		return nil, err
	}
	return &fc, nil
}

// FrameWith finds another frame of the tab where t is, for the failure
// context of a search that came up empty in the current one; nil when no
// frame has it. Refs are left out: a step on a ref already runs in the
// frame that issued it.
func FrameWith(ctx context.Context, p *page.Page, t Target) *page.CurrentFrame {
	if t.Ref != "" {
		return nil
	}
	f, ok, err := searchFrames(ctx, p, func(fp *page.Page) (bool, error) { return present(ctx, fp, t) })
	if err != nil || !ok {
		return nil
	}
	return &page.CurrentFrame{ID: f.ID, URL: f.URL, Name: f.Name, CrossOrigin: f.CrossOrigin}
}
