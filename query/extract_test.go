package query_test

import (
	"testing"

	"github.com/cdpskill/cdpskill/query"
)

func TestExtract(t *testing.T) {
	cases := []struct {
		name string
		req  query.ExtractRequest
		want string
	}{
		{"thead table", query.ExtractRequest{Selector: "#priced"},
			`{"type":"table","headers":["Name","Price"],"rows":[["Apple","1.00"],["Pear","2.50"],["Plum","0.75"]],"rowCount":3}`},
		{"limit keeps the count", query.ExtractRequest{Selector: "#priced", Limit: 1},
			`{"type":"table","headers":["Name","Price"],"rows":[["Apple","1.00"]],"rowCount":3}`},
		{"headerless table inside a div", query.ExtractRequest{Selector: "#plain-wrap"},
			`{"type":"table","headers":[],"rows":[["a1","b1"],["a2","b2"]],"rowCount":2}`},
		{"first row of th", query.ExtractRequest{Selector: "#firstrow"},
			`{"type":"table","headers":["Key","Value"],"rows":[["k","v"]],"rowCount":1}`},
		{"ARIA table", query.ExtractRequest{Selector: "#grid"},
			`{"type":"table","headers":["City","Pop"],"rows":[["Oslo","700k"]],"rowCount":1}`},
		{"ul: direct items only", query.ExtractRequest{Selector: "#fruits"},
			`{"type":"list","items":["Apple","Pear","Plum nested"],"itemCount":3}`},
		{"ol", query.ExtractRequest{Selector: "#steps"},
			`{"type":"list","items":["one","two"],"itemCount":2}`},
		{"role=list", query.ExtractRequest{Selector: "#aria-list"},
			`{"type":"list","items":["first","second"],"itemCount":2}`},
		{"list inside a section", query.ExtractRequest{Selector: "#has-list"},
			`{"type":"list","items":["x","y"],"itemCount":2}`},
		{"explicit type", query.ExtractRequest{Selector: "body", Type: "list", Limit: 1},
			`{"type":"list","items":["Apple"],"itemCount":3}`},
	}
	p, _ := openFixture(t, "data.html")
	for _, tc := range cases {
		got, err := query.Extract(testCtx(t), p, tc.req)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if s := jsonOf(t, got); s != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, s, tc.want)
		}
	}
}

func TestExtractFailures(t *testing.T) {
	p, _ := openFixture(t, "data.html")
	cases := []struct {
		req  query.ExtractRequest
		name string
	}{
		{query.ExtractRequest{Selector: "#prose"}, "ElementNotFoundError"},
		{query.ExtractRequest{Selector: "#prose", Type: "table"}, "ElementNotFoundError"},
		{query.ExtractRequest{Selector: "#missing"}, "ElementNotFoundError"},
		{query.ExtractRequest{Selector: "table:frob"}, "StepValidationError"},
		{query.ExtractRequest{Selector: "#priced", Type: "grid"}, ""},
	}
	for _, tc := range cases {
		_, err := query.Extract(testCtx(t), p, tc.req)
		if err == nil || errName(err) != tc.name {
			t.Errorf("%+v: got %v (%s), want %s", tc.req, err, errName(err), tc.name)
		}
	}
}
