package query_test

import (
	"github.com/cdpskill/cdpskill/internal/pagetest"
	"testing"

	"github.com/cdpskill/cdpskill/query"
)

func TestGetBox(t *testing.T) {
	p, _ := openFixture(t, "boxes.html")
	boxes, err := query.GetBox(testCtx(t), p, []string{"s1e1", "s1e2", "s1e3", "s1e9"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"s1e1": `{"x":120,"y":80,"width":101,"height":40,"center":{"x":171,"y":100}}`,
		"s1e2": `{"error":"stale","message":"the element left the page; take a fresh snapshot"}`,
		"s1e3": `{"error":"hidden","box":{"x":0,"y":0,"width":0,"height":0}}`,
		"s1e9": `{"error":"not found"}`,
	}
	for ref, w := range want {
		if got := jsonOf(t, boxes[ref]); got != w {
			t.Errorf("%s: got %s, want %s", ref, got, w)
		}
	}
}

func TestGetBoxOnPageWithoutRefs(t *testing.T) {
	p, _ := openFixture(t, "data.html")
	boxes, err := query.GetBox(testCtx(t), p, []string{"s1e1"})
	if err != nil || jsonOf(t, boxes["s1e1"]) != `{"error":"not found"}` {
		t.Errorf("got %s, %v", jsonOf(t, boxes), err)
	}
	if _, err := query.GetBox(testCtx(t), p, []string{"#title"}); err == nil {
		t.Error("a selector was taken for a ref")
	}
}

// A point on an element that already has a ref reports it as existing; a
// new element gets the next ref of the current snapshot, and the same
// element keeps it on the next call.
func TestElementAtMintsRefs(t *testing.T) {
	p, _ := openFixture(t, "boxes.html")
	ctx := testCtx(t)
	el, c, err := query.ElementAt(ctx, p, query.FloatPoint{X: 130, Y: 90}, query.Counters{})
	if err != nil {
		t.Fatal(err)
	}
	if got := jsonOf(t, el); got != `{"ref":"s1e1","existing":true,"tag":"button","selector":"#ok","clickable":true,"role":"button","name":"OK","box":{"x":120,"y":80,"width":101,"height":40}}` {
		t.Errorf("existing: %s", got)
	}
	if c.Minted {
		t.Error("minted a ref for an element that had one")
	}
	el, c, err = query.ElementAt(ctx, p, query.FloatPoint{X: 320, Y: 170}, query.Counters{})
	if err != nil {
		t.Fatal(err)
	}
	if el.Ref != "s1e4" || el.Existing || el.Tag != "div" || el.Selector != "#clicky" || !el.Clickable || !c.Minted || c.Element != 4 || c.Snapshot != 1 {
		t.Errorf("new: %s %+v", jsonOf(t, el), c)
	}
	if got := pagetest.EvalHelper[string](t, p, `window.__ariaRefs.get('s1e4').id + ' ' + window.__ariaRefMeta.get('s1e4').selector + ' ' + window.__ariaRefOf.get(document.getElementById('clicky'))`); got != "clicky #clicky s1e4" {
		t.Errorf("ref map: %q", got)
	}
	again, _, err := query.ElementAt(ctx, p, query.FloatPoint{X: 321, Y: 171}, query.Counters{})
	if err != nil || again.Ref != "s1e4" || !again.Existing {
		t.Errorf("again: %s %v", jsonOf(t, again), err)
	}
	if el, _, err := query.ElementAt(ctx, p, query.FloatPoint{X: 140, Y: 190}, query.Counters{}); err != nil || el.Selector != "#scripted" || !el.Clickable {
		t.Errorf("an element whose onclick was assigned from script: %s %v", jsonOf(t, el), err)
	}
	if _, _, err := query.ElementAt(ctx, p, query.FloatPoint{X: 5000, Y: 5000}, query.Counters{}); errName(err) != "ElementNotFoundError" {
		t.Errorf("outside the viewport: %v", err)
	}
}

// On a page without refs the counters start at the tab's floors, so a new
// document never reissues a ref from an earlier one.
func TestElementAtStartsAboveFloors(t *testing.T) {
	p, _ := openFixture(t, "data.html")
	box := eval[struct{ X, Y float64 }](t, p, `(() => { const r = document.getElementById('title').getBoundingClientRect(); return {X: r.x + 5, Y: r.y + 5}; })()`)
	el, c, err := query.ElementAt(testCtx(t), p, query.FloatPoint{X: box.X, Y: box.Y}, query.Counters{Snapshot: 3, Element: 41})
	if err != nil {
		t.Fatal(err)
	}
	if el.Ref != "s3e42" || el.Existing || el.Role != "heading" || el.Name != "Products" || c != (query.Counters{Snapshot: 3, Element: 42, Minted: true}) {
		t.Errorf("got %s %+v", jsonOf(t, el), c)
	}
}

func TestElementsAtBatch(t *testing.T) {
	p, _ := openFixture(t, "boxes.html")
	b, err := query.ElementsAt(testCtx(t), p, query.PointRequest{Points: []query.FloatPoint{{X: 130, Y: 90}, {X: 9000, Y: 10}, {X: 320, Y: 170}}})
	if err != nil {
		t.Fatal(err)
	}
	if b.Count != 2 || len(b.Elements) != 3 {
		t.Fatalf("got %s", jsonOf(t, b))
	}
	if got := jsonOf(t, b.Elements[1]); got != `{"x":9000,"y":10,"error":"no element at this point"}` {
		t.Errorf("miss: %s", got)
	}
	first := b.Elements[0]
	if first.X != 130 || first.Y != 90 || first.Ref != "s1e1" || !first.Existing || b.Elements[2].Ref != "s1e4" {
		t.Errorf("hits: %s", jsonOf(t, b))
	}
}

func TestElementsNear(t *testing.T) {
	p, _ := openFixture(t, "data.html")
	// #near-a is centred at (940, 45) and #near-b at (1050, 45); the
	// hidden span at (970, 90) is skipped.
	n, err := query.ElementsNear(testCtx(t), p, query.NearRequest{X: 945, Y: 45, Radius: 60})
	if err != nil {
		t.Fatal(err)
	}
	if n.Count != 1 || n.Elements[0].Selector != "#near-a" || *n.Elements[0].Distance != 5 || n.Radius != 60 {
		t.Fatalf("got %s", jsonOf(t, n))
	}
	wide, err := query.ElementsNear(testCtx(t), p, query.NearRequest{X: 945, Y: 45, Radius: 200, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, e := range wide.Elements {
		order = append(order, e.Selector)
	}
	if jsonOf(t, order) != `["#near-a","#pane","#near-b"]` || wide.Count != 3 {
		t.Errorf("closest first: %s", jsonOf(t, wide))
	}
	if got := jsonOf(t, wide.Center); got != `{"x":945,"y":45}` {
		t.Errorf("center %s", got)
	}
}
