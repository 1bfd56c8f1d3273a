package query_test

import (
	"testing"

	"github.com/cdpskill/cdpskill/query"
)

func TestCheckSelector(t *testing.T) {
	ok := []string{"a", " #id ", "s1e4", `a[href="x]y"]`, `div:not(.a, .b) > p`, `[data-x='(']`, `#a\[b`, `a\,`}
	bad := []string{"", "  ", "div >", "a,", "> a", `a[href`, `a[href="x]`, `div:not(.a`, `a)`, `a]`, `p 'x`}
	for _, s := range ok {
		if err := query.CheckSelector(s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
	for _, s := range bad {
		if err := query.CheckSelector(s); err == nil {
			t.Errorf("%q: accepted", s)
		}
	}
}
