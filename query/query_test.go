package query_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/query"
)

func runQuery(t *testing.T, q query.CSSQuery, fixture string) *query.QueryResult {
	t.Helper()
	p, _ := openFixture(t, fixture)
	res, err := query.Query(testCtx(t), p, q)
	if err != nil {
		t.Fatalf("Query(%+v): %v", q, err)
	}
	return res
}

func output(t *testing.T, src string) query.Output {
	t.Helper()
	var o query.Output
	if err := json.Unmarshal([]byte(src), &o); err != nil {
		t.Fatalf("output %s: %v", src, err)
	}
	return o
}

func values(res *query.QueryResult) string {
	var parts []string
	for _, m := range res.Results {
		parts = append(parts, string(m.Value))
	}
	return strings.Join(parts, " ")
}

// The default output is each match's text, and limit caps the results
// but not the total.
func TestQueryTextAndLimit(t *testing.T) {
	res := runQuery(t, query.CSSQuery{Selector: "  #fruits > li ", Limit: 2}, "data.html")
	if res.Selector != "#fruits > li" || res.Total != 3 || res.Showing != 2 || len(res.Results) != 2 {
		t.Fatalf("got %s", jsonOf(t, res))
	}
	if got := values(res); got != `"Apple" " Pear "` || res.Results[0].Index != 1 || res.Results[1].Index != 2 {
		t.Errorf("got %s", jsonOf(t, res))
	}
}

// Each output mode, clean, and the mixed list of modes and attributes.
func TestQueryOutputs(t *testing.T) {
	cases := []struct {
		sel, output string
		clean       bool
		want        string
	}{
		{"nav a", `"href"`, false, `"%s/home" "%s/about"`},
		{"nav a", `"tag"`, false, `"a" "a"`},
		{"nav a.nav", `"text"`, true, `"About us"`},
		{"nav a.nav", `"html"`, false, `"<a href=\"/about\" class=\"nav\" data-id=\"a2\">About   us</a>"`},
		{"nav a", `{"attribute":"data-id"}`, false, `null "a2"`},
		{"nav a.nav", `{"attribute":["class","href"]}`, false, `{"class":"nav","href":"/about"}`},
		{"nav a.nav", `["text","href","data-id"]`, true, `{"text":"About us","href":"%s/about","data-id":"a2"}`},
		{"#name", `"value"`, true, `"Ada"`},
		{"#name", `"value"`, false, `"  Ada  "`},
		{"#pw", `"value"`, false, `"********"`},
	}
	p, base := openFixture(t, "data.html")
	for _, tc := range cases {
		res, err := query.Query(testCtx(t), p, query.CSSQuery{Selector: tc.sel, Output: output(t, tc.output), Clean: tc.clean})
		if err != nil {
			t.Fatalf("%s %s: %v", tc.sel, tc.output, err)
		}
		want := strings.ReplaceAll(tc.want, "%s", base)
		if got := values(res); got != want {
			t.Errorf("%s output %s clean %v: got %s, want %s", tc.sel, tc.output, tc.clean, got, want)
		}
	}
}

func TestQueryMetadata(t *testing.T) {
	res := runQuery(t, query.CSSQuery{Selector: "#outer", Metadata: true}, "data.html")
	md := res.Results[0].Metadata
	if md == nil || md.Tag != "div" || md.Attributes["class"] != "box" || md.Attributes["id"] != "outer" || md.Box.Width == 0 {
		t.Errorf("got %s", jsonOf(t, res))
	}
}

func TestQueryNoMatchIsEmpty(t *testing.T) {
	res := runQuery(t, query.CSSQuery{Selector: ".nothing"}, "data.html")
	if res.Total != 0 || res.Showing != 0 || res.Results == nil {
		t.Errorf("got %s", jsonOf(t, res))
	}
	if got := jsonOf(t, res); got != `{"selector":".nothing","total":0,"showing":0,"results":[]}` {
		t.Errorf("got %s", got)
	}
}

// A selector only the browser can reject fails at once, as a validation
// problem of the step.
func TestQueryInvalidSelectorFailsAtOnce(t *testing.T) {
	p, _ := openFixture(t, "data.html")
	_, err := query.Query(testCtx(t), p, query.CSSQuery{Selector: "div:nope(1)"})
	if errName(err) != "StepValidationError" || !strings.Contains(err.Error(), "div:nope(1)") {
		t.Fatalf("got %v (%s)", err, errName(err))
	}
}

func TestOutputRejectsUnknownForms(t *testing.T) {
	for _, src := range []string{`"txt"`, `[]`, `["text", "a b"]`, `{"attr":"x"}`, `{"attribute":1}`, `7`} {
		var o query.Output
		if err := json.Unmarshal([]byte(src), &o); err == nil {
			t.Errorf("%s: accepted as %+v", src, o)
		}
	}
}

func TestInspect(t *testing.T) {
	p, base := openFixture(t, "data.html")
	got, err := query.Inspect(testCtx(t), p, query.InspectRequest{Selectors: []string{"li", "button"}, Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "Data fixture" || got.URL != base+"/data.html" || got.Elements["a"] != 2 || got.Elements["input"] != 2 || got.Elements["form"] != 0 {
		t.Errorf("got %s", jsonOf(t, got))
	}
	if c := string(got.Custom["li"]); c != `{"count":8,"values":["Apple","Pear"]}` {
		t.Errorf("custom li: %s", c)
	}
	counts, err := query.Inspect(testCtx(t), p, query.InspectRequest{Selectors: []string{"table"}})
	if err != nil || string(counts.Custom["table"]) != "3" {
		t.Errorf("counts only: %s, %v", jsonOf(t, counts), err)
	}
	if _, err := query.Inspect(testCtx(t), p, query.InspectRequest{Selectors: []string{"a:bogus"}}); errName(err) != "StepValidationError" {
		t.Errorf("invalid custom selector: %v", err)
	}
}

func TestGetDOM(t *testing.T) {
	p, _ := openFixture(t, "data.html")
	ctx := testCtx(t)
	outer, err := query.GetDOM(ctx, p, query.DOMRequest{Selector: "#inner"})
	if err != nil {
		t.Fatal(err)
	}
	want := `<div id="inner"><span id="leaf">Leaf <b>text</b></span></div>`
	if outer.HTML != want || outer.TagName != "div" || outer.Selector != "#inner" || outer.Length != len(want) {
		t.Errorf("outer: %s", jsonOf(t, outer))
	}
	no := false
	inner, err := query.GetDOM(ctx, p, query.DOMRequest{Selector: "#inner", Outer: &no})
	if err != nil || inner.HTML != `<span id="leaf">Leaf <b>text</b></span>` {
		t.Errorf("inner: %s, %v", jsonOf(t, inner), err)
	}
	full, err := query.GetDOM(ctx, p, query.DOMRequest{})
	if err != nil || full.TagName != "html" || !strings.HasPrefix(full.HTML, "<html><head><title>Data fixture") || full.Selector != "" {
		t.Errorf("full page: %.80s %v", jsonOf(t, full), err)
	}
	if _, err := query.GetDOM(ctx, p, query.DOMRequest{Selector: "#missing"}); errName(err) != "ElementNotFoundError" {
		t.Errorf("missing: %v", err)
	}
}
