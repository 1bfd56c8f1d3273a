package runner_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Issue 22, item 2: a virtualized data grid (widgets/grid.html: 1,000
// orders, ~20 rows rendered in its own scroller, recycled so the DOM
// order is not the order on screen, headers that sort) and a long list
// in a scrolling sidebar, each task done in the call an agent sends
// first.

// gridScroll is where the grid's scroller stands.
func gridScroll(t *testing.T, c *cli, tab string) float64 {
	t.Helper()
	v, _ := c.value(t, tab, "document.getElementById('viewport').scrollTop").(float64)
	return v
}

func gridStatus(t *testing.T, c *cli, tab string) string {
	t.Helper()
	s, _ := c.value(t, tab, "document.getElementById('status').textContent").(string)
	return s
}

// orderRE reads the order numbers of the grid's rows as a view lists them.
var orderRE = regexp.MustCompile(`gridcell "Order #(\d+)"`)

func ordersIn(view string) []int {
	var out []int
	for _, m := range orderRE.FindAllStringSubmatch(view, -1) {
		n, _ := strconv.Atoi(m[1])
		out = append(out, n)
	}
	return out
}

// A click by text on a row the grid has not rendered scrolls the grid to
// it and clicks it; the output says which container scrolled and how
// far, and the report shows the rows now on screen, in order, the
// clicked one selected. Its Open button then opens that order.
func TestGridClickRowNotRendered(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/widgets/grid.html")
	res := c.act(t, tab, `{"click":{"text":"Order #734"}}`)
	out := stepOutputs(t, res)[0]["output"].(map[string]any)
	sc, _ := out["scrolled"].(map[string]any)
	at := gridScroll(t, c, tab)
	if sc == nil || sc["container"] != `grid "Orders"` || sc["by"] != at || at < 700*32 {
		t.Errorf("output %s, the grid stands at %v", jsonText(out), at)
	}
	if got := gridStatus(t, c, tab); got != "Selected order #734" {
		t.Errorf("the page says %q", got)
	}
	// The rows the grid re-rendered as it scrolled are the scroll, not
	// news out of view.
	if away := changesOf(res)["elsewhere"]; away != nil {
		t.Errorf("elsewhere %s", jsonText(away))
	}
	view, _ := res["viewportSnapshot"].(string)
	rows := ordersIn(view)
	if len(rows) < 8 || len(rows) > 12 {
		t.Fatalf("the report shows %d rows, want those in the scroller's view:\n%s", len(rows), view)
	}
	for i := 1; i < len(rows); i++ {
		if rows[i] != rows[i-1]+1 {
			t.Fatalf("rows out of display order %v:\n%s", rows, view)
		}
	}
	if !strings.Contains(view, "- row [selected]:\n    - gridcell \"Order #734\" [ref=") {
		t.Errorf("the report does not show row 734 selected:\n%s", view)
	}
	open := refOn(t, view, `button "Open" [ref=s0e`) // any, until row 734's
	for _, line := range strings.Split(view, "\n") {
		if m := ariaRefRE.FindStringSubmatch(line); m != nil && strings.Contains(line, `button "Open"`) && strings.Contains(line, `in "Order #734"`) {
			open = m[1]
		}
	}
	res = c.act(t, tab, fmt.Sprintf(`{"click":%q}`, open))
	if got := gridStatus(t, c, tab); !strings.HasPrefix(got, "Opened order #734 for ") {
		t.Errorf("Open in row 734 (%s) made the page say %q", open, got)
	}
	if ch := jsonText(changesOf(res)); !strings.Contains(ch, `"to":"Opened order #734 for`) {
		t.Errorf("changes: %s", ch)
	}
	// "Order #73" is part of every row on screen (#730…#739), and the
	// whole text of a row far above: that one is meant.
	out = c.call(t, tab, `{"click":{"text":"Order #73"}}`)[0]
	if got := gridStatus(t, c, tab); got != "Selected order #73" {
		t.Errorf("Order #73: the page says %q (%s)", got, jsonText(out))
	}
	if sc, _ := out["scrolled"].(map[string]any); sc == nil || sc["by"].(float64) >= 0 {
		t.Errorf("Order #73: %s", jsonText(out))
	}
}

// scrollUntilVisible and a scroll to a row's selector find a row not
// rendered the same way; snapshotSearch finds one too and gives its ref.
func TestGridScrollToRows(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/widgets/grid.html")
	out := c.call(t, tab, `{"click":{"text":"Order #950","scrollUntilVisible":true}}`)[0]
	if sc, _ := out["scrolled"].(map[string]any); sc == nil || sc["container"] != `grid "Orders"` || sc["by"] != gridScroll(t, c, tab) {
		t.Errorf("scrollUntilVisible: %s", jsonText(out))
	}
	if got := gridStatus(t, c, tab); got != "Selected order #950" {
		t.Errorf("the page says %q", got)
	}

	from := gridScroll(t, c, tab)
	out = c.call(t, tab, `{"scroll":"[aria-rowindex=\"201\"]"}`)[0]
	at := gridScroll(t, c, tab)
	if sc, _ := out["scrolled"].(map[string]any); sc == nil || sc["by"] != at-from || out["scrollY"] != at {
		t.Errorf("scroll to row 201: %s; the grid went from %v to %v", jsonText(out), from, at)
	}
	if got := c.value(t, tab, "(() => { const r = document.querySelector('[aria-rowindex=\"201\"]').getBoundingClientRect(), v = document.getElementById('viewport').getBoundingClientRect(); return r.top >= v.top && r.bottom <= v.bottom; })()"); got != true {
		t.Errorf("row 201 is not in the grid's view")
	}

	out = c.call(t, tab, `{"snapshotSearch":"Order #12"}`)[0]
	m, _ := out["matches"].([]any)
	if sc, _ := out["scrolled"].(map[string]any); len(m) == 0 || sc == nil || sc["by"].(float64) >= 0 {
		t.Fatalf("snapshotSearch: %s", jsonText(out))
	}
	first := m[0].(map[string]any)
	if first["role"] != "gridcell" || !strings.HasPrefix(first["name"].(string), "Order #12") || first["ref"] == "" {
		t.Errorf("snapshotSearch's first match: %s", jsonText(first))
	}
	c.call(t, tab, fmt.Sprintf(`{"click":%q}`, first["ref"]))
	if got, want := gridStatus(t, c, tab), "Selected o"+strings.ToLower(first["name"].(string))[1:]; got != want {
		t.Errorf("clicking the match's ref: the page says %q, want %q", got, want)
	}
}

// Sorting by a column's header: the result shows the header's aria-sort
// and the rows in their new order.
func TestGridSortByColumn(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/widgets/grid.html")
	for _, dir := range []string{"ascending", "descending"} {
		res := c.act(t, tab, `{"click":{"text":"Date"}}`)
		view, _ := res["viewportSnapshot"].(string)
		if !strings.Contains(view, `columnheader "Date" [sort=`+dir+`] [ref=`) || strings.Contains(view, `"Order" [sort=`) {
			t.Fatalf("after sorting %s:\n%s", dir, view)
		}
		if ch := jsonText(changesOf(res)); !strings.Contains(ch, `"field":"sort"`) || !strings.Contains(ch, `"to":"`+dir+`"`) {
			t.Errorf("changes after sorting %s: %s", dir, ch)
		}
		dates := regexp.MustCompile(`gridcell "(\d{4}-\d\d-\d\d)"`).FindAllStringSubmatch(view, -1)
		if len(dates) < 8 {
			t.Fatalf("the view shows %d dates:\n%s", len(dates), view)
		}
		for i := 1; i < len(dates); i++ {
			if a, b := dates[i-1][1], dates[i][1]; (dir == "ascending" && a > b) || (dir == "descending" && a < b) {
				t.Fatalf("dates not %s: %v\n%s", dir, dates, view)
			}
		}
	}
}

// A ref to a cell the grid has since recycled for another row does not
// click that other row; a text no row holds fails, naming the grid it
// scrolled through, and leaves the grid where it stood; a link past the
// end of the sidebar's list is clicked by its text.
func TestGridMissesAndSidebar(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/widgets/grid.html")
	view := c.call(t, tab, `{"snapshot":true}`)[0]["yaml"].(string)
	cell := refOn(t, view, `gridcell "Order #3"`)
	c.call(t, tab, `{"scroll":"[aria-rowindex=\"400\"]"}`)
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":%q}]}`, tab, cell))
	if e := firstError(res); code != 1 || e == nil || e["name"] != "StaleElementError" {
		t.Errorf("the recycled cell's ref %s: %s", cell, jsonText(res["errors"]))
	}
	if got := gridStatus(t, c, tab); got != "" {
		t.Errorf("a stale ref clicked a row: %q", got)
	}

	from := gridScroll(t, c, tab)
	res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":{"text":"Order #5000"}}]}`, tab))
	if e := firstError(res); code != 1 || e == nil || e["name"] != "ElementNotFoundError" ||
		!strings.Contains(fmt.Sprint(e["error"]), `scrolled through grid "Orders"`) {
		t.Errorf("a text no row holds: %s", jsonText(res["errors"]))
	}
	if at := gridScroll(t, c, tab); at != from {
		t.Errorf("the grid was left at %v, not at %v", at, from)
	}

	res = c.act(t, tab, `{"click":{"text":"Customer 140"}}`)
	if got := gridStatus(t, c, tab); got != "Showing customer 140" {
		t.Errorf("the sidebar's link: the page says %q", got)
	}
	if _, ok := stepOutputs(t, res)[0]["output"].(map[string]any)["scrolled"]; ok {
		t.Errorf("a link in the page needs no search: %s", jsonText(stepOutputs(t, res)[0]))
	}
}

// feedState is where widgets/feed.html's scrolling <main> stands, how
// many pages its infinite feed has fetched and how many posts it shows.
func feedState(t *testing.T, c *cli, tab string) (top, pages, posts float64) {
	t.Helper()
	v, _ := c.value(t, tab, `({top: document.querySelector('main').scrollTop, pages: window.pagesLoaded, posts: document.querySelectorAll('article').length})`).(map[string]any)
	top, _ = v["top"].(float64)
	pages, _ = v["pages"].(float64)
	posts, _ = v["posts"].(float64)
	return top, pages, posts
}

// An app shell whose <main> scrolls, an infinite feed below: a click on
// "Save", part of the button "Save draft", clicks that button and leaves
// the page as it was otherwise: <main> not scrolled, no page of the feed
// fetched, nothing of the feed in the report. A text the page does not
// hold looks through <main> once to its end, fetching one page at most,
// and puts <main> back.
func TestFeedPartialTextClickStaysPut(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/widgets/feed.html")
	top, pages, posts := feedState(t, c, tab)
	if top != 0 || pages < 1 || posts != 10*pages {
		t.Fatalf("the feed stands at %v with %v pages, %v posts", top, pages, posts)
	}
	res := c.act(t, tab, `{"click":{"text":"Save"}}`)
	out := stepOutputs(t, res)[0]["output"].(map[string]any)
	if got, _ := c.value(t, tab, "document.getElementById('status').textContent").(string); got != "Draft saved" {
		t.Errorf("the page says %q", got)
	}
	if _, ok := out["scrolled"]; ok {
		t.Errorf("a button needs no search: %s", jsonText(out))
	}
	if ch := jsonText(changesOf(res)); !strings.Contains(ch, `"to":"Draft saved"`) || strings.Contains(ch, "article") || strings.Contains(ch, "Post ") {
		t.Errorf("changes: %s", ch)
	}
	if t2, p2, n2 := feedState(t, c, tab); t2 != top || p2 != pages || n2 != posts {
		t.Errorf("clicking Save moved <main> to %v (from %v) and fetched %v pages (%v posts), not %v (%v)", t2, top, p2, n2, pages, posts)
	}

	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":{"text":"Post 9999"}}]}`, tab))
	if e := firstError(res); code != 1 || e == nil || e["name"] != "ElementNotFoundError" ||
		!strings.Contains(fmt.Sprint(e["error"]), "scrolled through main to its end") {
		t.Errorf("a text the page does not hold: %s", jsonText(res["errors"]))
	}
	if t2, p2, _ := feedState(t, c, tab); t2 != top || p2 > pages+1 {
		t.Errorf("the search left <main> at %v (from %v) and fetched %v pages, from %v", t2, top, p2, pages)
	}
}

// A server-rendered page carries its grid's data inlined in a script
// (Next.js's __NEXT_DATA__) and some of its text in a closed menu: a row
// the grid has not rendered is still looked for in the grid's scroller
// and clicked, not taken as text the page shows already.
func TestSSRGridRowNotRendered(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/widgets/ssr-grid.html")
	out := c.call(t, tab, `{"click":{"text":"Invoice #250"}}`)[0]
	at, _ := c.value(t, tab, "document.getElementById('viewport').scrollTop").(float64)
	if sc, _ := out["scrolled"].(map[string]any); sc == nil || sc["container"] != `grid "Invoices"` || sc["by"] != at || at < 200*30 {
		t.Errorf("output %s, the grid stands at %v", jsonText(out), at)
	}
	if got, _ := c.value(t, tab, "document.getElementById('status').textContent").(string); got != "Selected invoice #250" {
		t.Errorf("the page says %q", got)
	}
	if got := c.value(t, tab, "document.getElementById('recent-menu').hidden"); got != true {
		t.Errorf("the closed menu was opened")
	}
}
