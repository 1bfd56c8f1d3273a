package query_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/cdpskill/cdpskill/internal/pagetest"
	"github.com/cdpskill/cdpskill/internal/testbrowser"
	"github.com/cdpskill/cdpskill/page"
)

// openFixture loads testdata/file in a fresh tab and returns the page and
// the fixture server's URL.
func openFixture(t testing.TB, file string) (*page.Page, string) {
	t.Helper()
	s := browser.NewTab(t)
	srv := testbrowser.Serve(t, "testdata")
	testbrowser.Navigate(t, s, srv.URL+"/"+file)
	p := page.New(s)
	pagetest.AdoptRefs(t, p)
	return p, srv.URL
}

// testCtx bounds one test's browser work.
func testCtx(t *testing.T) context.Context { return pagetest.Ctx(t) }

// eval evaluates a short fixture expression and decodes its value.
func eval[T any](t *testing.T, p *page.Page, expr string) T {
	t.Helper()
	return pagetest.Eval[T](t, p, expr)
}

// jsonOf is v as compact JSON.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// errName is the spec subtype of err, or "".
func errName(err error) string {
	var n interface{ ErrorName() string }
	if errors.As(err, &n) {
		return n.ErrorName()
	}
	return ""
}
