package aria_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/aria"
)

// A grid's cells and sortable headers get refs, a header's aria-sort
// shows, and rows come in the order they show in: by aria-rowindex, else,
// for rows a grid placed itself, from top to bottom; a grid's cells with
// role=cell get refs too; a plain table keeps its DOM order and gives its
// cells no refs.
func TestGridSnapshot(t *testing.T) {
	p := open(t, "grid.html")
	yaml := snap(t, p, aria.Options{}).YAML
	for _, want := range []string{
		`columnheader "Order" [sort=descending] [ref=`,
		`columnheader "Customer" [ref=`,
		`gridcell "Order #1" [ref=`,
		`- columnheader "Note"` + "\n",
		`- cell "Beta"` + "\n",
		`- cell "Gamma" [ref=`,
	} {
		if !strings.Contains(yaml, want) {
			t.Errorf("the snapshot lacks %q:\n%s", want, yaml)
		}
	}
	inOrder(t, yaml, `columnheader "Order"`, `"Order #1"`, `"Order #2"`, `"Order #3"`, `"Order #4"`)
	inOrder(t, yaml, `"First"`, `"Second"`, `"Third"`)
	inOrder(t, yaml, `"Beta"`, `"Alpha"`)
}

// The report's view of the screen holds the rows the grid's scroller
// shows, not those rendered below its fold, and its lean view keeps each
// row around its cells.
func TestGridReportClipsToTheScroller(t *testing.T) {
	p := open(t, "grid.html")
	r := takeReport(t, p, aria.ReportOptions{Viewport: true})
	for _, view := range []string{r.Viewport, r.Lean} {
		if strings.Contains(view, "Order #4") || !strings.Contains(view, `gridcell "Order #3"`) {
			t.Errorf("the view must end at the scroller's fold (Order #3):\n%s", view)
		}
	}
	rowRE := regexp.MustCompile(`(?m)^  - row:\n    - gridcell "Order #1" \[ref=s0e\d+\]\n    - gridcell "Ada" \[ref=s0e\d+\]\n`)
	if !rowRE.MatchString(r.Lean) {
		t.Errorf("the lean view must keep rows around their cells:\n%s", r.Lean)
	}
	inOrder(t, r.Lean, `"Order #1"`, `"Order #2"`, `"Order #3"`)
}

// inOrder fails unless each of texts occurs in s after the one before.
func inOrder(t *testing.T, s string, texts ...string) {
	t.Helper()
	at := 0
	for _, x := range texts {
		i := strings.Index(s[at:], x)
		if i < 0 {
			t.Errorf("%q does not follow %q in:\n%s", x, s[:at], s)
			return
		}
		at += i + len(x)
	}
}
