package aria_test

import (
	"context"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/aria"
	"github.com/cdpskill/cdpskill/internal/pagetest"
)

// Elements another call found come back as the snapshot shows them, with
// refs dom can use: an unnamed control with its place, look-alikes with
// theirs, text without a name as text, the document without a ref.
func TestDescribe(t *testing.T) {
	p := open(t, "describe.html")
	hold := `(() => {
		const byId = (id) => document.getElementById(id);
		const key = Symbol.for('` + aria.HeldKey + `');
		if (!(window[key] instanceof Map)) window[key] = new Map();
		window[key].set('h', [byId('a'), byId('b'), byId('e1'), byId('e2'), byId('p'), document.documentElement,
			byId('host').shadowRoot.getElementById('in'), document.createElement('b')]);
		return true;
	})()`
	describe := func(floor int) *aria.DescribeResult {
		t.Helper()
		pagetest.EvalHelper[bool](t, p, hold)
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		res, err := aria.Describe(ctx, p, aria.DescribeRequest{Held: "h", SnapshotFloor: 2, ElementFloor: floor})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := describe(10)
	want := []aria.Described{
		{"s2e11", `button [ref=s2e11] in "Buy milk"`},
		{"s2e12", `button [ref=s2e12] in "Call mom"`},
		{"s2e13", `button "Edit" [ref=s2e13] in "Shipping"`},
		{"s2e14", `button "Edit" [ref=s2e14] in "Billing"`},
		{"s2e15", `paragraph [ref=s2e15]: "Sale ends soon"`},
		{"", `document "Describe"`},
		{"s2e16", `textbox "Inner" [ref=s2e16]`},
	}
	if len(res.Items) != len(want)+1 || res.Items[len(want)] != nil {
		t.Fatalf("items %v: want %d and nil for the element not in the page", res.Items, len(want))
	}
	for i, w := range want {
		if *res.Items[i] != w {
			t.Errorf("item %d: %+v, want %+v", i, *res.Items[i], w)
		}
	}
	if res.LastSnapshot != 2 || res.LastElement != 16 {
		t.Errorf("counters s%de%d, want s2e16", res.LastSnapshot, res.LastElement)
	}
	// The refs record what a snapshot records: the place of look-alikes,
	// the shadow host on the way.
	meta := pagetest.EvalHelper[[]string](t, p, `[__ariaRefMeta.get('s2e13').place, __ariaRefMeta.get('s2e16').shadowPath.join(' ')]`)
	if meta[0] != "Shipping" || meta[1] != "#host" {
		t.Errorf("metas %q", meta)
	}
	// The elements keep their refs, and the store is emptied.
	if again := describe(0); again.Items[0].Ref != "s2e11" || again.Items[6].Ref != "s2e16" {
		t.Errorf("described again: %+v %+v", again.Items[0], again.Items[6])
	}
	if left := pagetest.EvalHelper[int](t, p, `window[Symbol.for('`+aria.HeldKey+`')].size`); left != 0 {
		t.Errorf("%d entries left in the store", left)
	}
}
