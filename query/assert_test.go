package query_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/query"
)

func str(s string) *string { return &s }

func TestAssertURL(t *testing.T) {
	p, base := openFixture(t, "data.html?x=1")
	url := base + "/data.html?x=1"
	cases := []struct {
		u    query.URLAssert
		pass bool
	}{
		{query.URLAssert{Contains: str("/data.html")}, true},
		{query.URLAssert{Contains: str("/other")}, false},
		{query.URLAssert{Equals: str(url)}, true},
		{query.URLAssert{Equals: str(base + "/data.html")}, false},
		{query.URLAssert{StartsWith: str(base)}, true},
		{query.URLAssert{StartsWith: str("https://")}, false},
		{query.URLAssert{EndsWith: str("?x=1")}, true},
		{query.URLAssert{EndsWith: str(".html")}, false},
		{query.URLAssert{Matches: str(`data\.html\?x=\d$`)}, true},
		{query.URLAssert{Matches: str(`/DATA/i`)}, true},
		{query.URLAssert{Matches: str(`^https:`)}, false},
	}
	for _, tc := range cases {
		res, err := query.Assert(testCtx(t), p, query.AssertRequest{URL: &tc.u})
		if tc.pass {
			if err != nil || !res.Passed || len(res.Assertions) != 1 || !res.Assertions[0].Passed {
				t.Errorf("%s: got %s %v", jsonOf(t, tc.u), jsonOf(t, res), err)
			}
			continue
		}
		var ae *query.AssertionError
		if !errors.As(err, &ae) || errName(err) != "AssertionError" || res == nil || res.Passed {
			t.Errorf("%s: got %s %v", jsonOf(t, tc.u), jsonOf(t, res), err)
			continue
		}
		if a := res.Assertions[0]; a.Actual == nil || *a.Actual != url || !strings.Contains(err.Error(), url) {
			t.Errorf("%s: the failure lacks the actual URL: %s / %v", jsonOf(t, tc.u), jsonOf(t, a), err)
		}
	}
}

// Several conditions are several assertions; the error lists only the
// failed ones.
func TestAssertSeveral(t *testing.T) {
	p, _ := openFixture(t, "data.html")
	res, err := query.Assert(testCtx(t), p, query.AssertRequest{
		URL:  &query.URLAssert{Contains: str("data"), EndsWith: str(".php")},
		Text: str("Products"),
	})
	if err == nil || len(res.Assertions) != 3 || res.Passed {
		t.Fatalf("got %s %v", jsonOf(t, res), err)
	}
	if msg := err.Error(); !strings.Contains(msg, `url endsWith ".php"`) || strings.Contains(msg, "contains") || strings.Contains(msg, "Products") {
		t.Errorf("message %q", msg)
	}
}

func TestAssertText(t *testing.T) {
	p, _ := openFixture(t, "data.html")
	no := false
	cases := []struct {
		req  query.AssertRequest
		pass bool
	}{
		{query.AssertRequest{Text: str("About us")}, true}, // whitespace collapsed
		{query.AssertRequest{Text: str("about US")}, false},
		{query.AssertRequest{Text: str("about US"), CaseSensitive: &no}, true},
		{query.AssertRequest{Text: str("Apple"), Selector: "#fruits"}, true},
		{query.AssertRequest{Text: str("Products"), Selector: "#fruits"}, false},
		{query.AssertRequest{Text: str("secret words")}, false}, // display:none
		{query.AssertRequest{Text: str("Apple"), Selector: "#nowhere"}, false},
	}
	for _, tc := range cases {
		res, err := query.Assert(testCtx(t), p, tc.req)
		if (err == nil) != tc.pass || res == nil || res.Passed != tc.pass {
			t.Errorf("%s: got %s %v", jsonOf(t, tc.req), jsonOf(t, res), err)
		}
	}
	res, err := query.Assert(testCtx(t), p, query.AssertRequest{Text: str("Products"), Selector: "#fruits"})
	if a := res.Assertions[0]; a.Actual == nil || !strings.HasPrefix(*a.Actual, "Apple Pear Plum") || !strings.Contains(err.Error(), `not in #fruits (actual "Apple`) {
		t.Errorf("failure lacks the actual text: %s %v", jsonOf(t, a), err)
	}
	res, err = query.Assert(testCtx(t), p, query.AssertRequest{Text: str("x"), Selector: "#nowhere"})
	if a := res.Assertions[0]; a.Error != "no element matches" || !strings.Contains(err.Error(), "#nowhere: no element matches") {
		t.Errorf("missing element: %s %v", jsonOf(t, a), err)
	}
}

// Mistakes in the step fail at once as validation problems, never as a
// failed assertion.
func TestAssertInvalidInput(t *testing.T) {
	p, _ := openFixture(t, "data.html")
	for _, req := range []query.AssertRequest{
		{URL: &query.URLAssert{Matches: str("(unclosed")}},
		{Text: str("x"), Selector: "p:frob"},
	} {
		_, err := query.Assert(testCtx(t), p, req)
		if errName(err) != "StepValidationError" {
			t.Errorf("%s: got %v (%s)", jsonOf(t, req), err, errName(err))
		}
	}
	for _, req := range []query.AssertRequest{{}, {URL: &query.URLAssert{}}, {Text: str(" ")}, {Selector: "p"}} {
		if err := req.Validate(); err == nil {
			t.Errorf("%s: accepted", jsonOf(t, req))
		}
	}
	if _, err := query.Assert(context.Background(), p, query.AssertRequest{}); err == nil {
		t.Error("an empty assert ran")
	}
}
