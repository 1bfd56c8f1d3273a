package dom_test

import (
	"context"
	"testing"

	"github.com/cdpskill/cdpskill/internal/pagetest"
	"github.com/cdpskill/cdpskill/internal/testbrowser"
	"github.com/cdpskill/cdpskill/page"
)

// openFixture loads testdata/file in a fresh tab.
func openFixture(t testing.TB, file string) *page.Page {
	t.Helper()
	return openIn(t, "testdata", file)
}

// openWidget loads a page of the CLI's widget fixtures (runner/testdata/
// widgets), so that the package and the CLI are proven on one page.
func openWidget(t testing.TB, file string) *page.Page {
	t.Helper()
	return openIn(t, "../runner/testdata/widgets", file)
}

// openIn loads dir/file in a fresh tab.
func openIn(t testing.TB, dir, file string) *page.Page {
	t.Helper()
	s := browser.NewTab(t)
	srv := testbrowser.Serve(t, dir)
	testbrowser.Navigate(t, s, srv.URL+"/"+file)
	p := page.New(s)
	pagetest.AdoptRefs(t, p)
	return p
}

// testCtx bounds one test's browser work.
func testCtx(t *testing.T) context.Context { return pagetest.Ctx(t) }

// eval evaluates a short fixture expression and decodes its value.
func eval[T any](t *testing.T, p *page.Page, expr string) T {
	t.Helper()
	return pagetest.Eval[T](t, p, expr)
}

// mint evaluates a fixture expression that mints a ref (makeRef) and
// returns the ref, known to the helper world.
func mint(t *testing.T, p *page.Page, expr string) string {
	t.Helper()
	ref := eval[string](t, p, expr)
	pagetest.AdoptRefs(t, p)
	return ref
}

// run evaluates a fixture statement for its effect; the refs it mints
// reach the helper world.
func run(t *testing.T, p *page.Page, expr string) {
	t.Helper()
	eval[any](t, p, expr)
	pagetest.AdoptRefs(t, p)
}

func ptr[T any](v T) *T { return &v }

// centreOf is the centre of the element with id, in viewport pixels.
func centreOf(t *testing.T, p *page.Page, id string) struct{ X, Y float64 } {
	t.Helper()
	return eval[struct{ X, Y float64 }](t, p, "(() => { const r = document.getElementById('"+id+"').getBoundingClientRect(); return {X: r.x + r.width / 2, Y: r.y + r.height / 2}; })()")
}
