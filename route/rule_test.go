package route

import (
	"testing"

	"github.com/cdpskill/cdpskill/cdp/proto"
)

func TestMatches(t *testing.T) {
	for _, c := range []struct {
		rule          Rule
		url, method   string
		resource      string
		want          bool
		wantURLGlobOf string
	}{
		{Rule{URL: "*/api/items"}, "http://h:1/api/items", "POST", "Fetch", true, "*/api/items"},
		{Rule{URL: "*/api/items"}, "http://h:1/api/items?x=1", "GET", "Fetch", false, "*/api/items"},
		{Rule{URL: "/api/items*"}, "http://h:1/api/items?x=1", "GET", "Fetch", true, "*/api/items*"},
		{Rule{URL: "/api/items", Method: "post"}, "http://h/api/items", "GET", "Fetch", false, "*/api/items"},
		{Rule{URL: "/api/items", Type: "XHR"}, "http://h/api/items", "GET", "Fetch", false, "*/api/items"},
		{Rule{URL: "/api/items", Type: "fetch"}, "http://h/api/items", "GET", "Fetch", true, "*/api/items"},
		{Rule{URL: "/items\\?page=\\d+/"}, "http://h/items?page=2", "GET", "Fetch", true, "*"},
		{Rule{URL: "http://h/a.b?c"}, "http://h/a.b?c", "GET", "Fetch", true, "*"},
		{Rule{URL: "http://h/a.b?c"}, "http://h/aXb?c", "GET", "Fetch", false, "*"},
	} {
		r := c.rule
		r.Status = 500
		if err := r.Check(); err != nil {
			t.Fatalf("%+v: %v", c.rule, err)
		}
		if got := r.Matches(c.url, c.method, c.resource); got != c.want {
			t.Errorf("%q %s %s against %+v: %v", c.url, c.method, c.resource, c.rule, got)
		}
		if p := r.pattern(); p.URLPattern != c.wantURLGlobOf || p.RequestStage != "Request" {
			t.Errorf("%+v: pattern %+v", c.rule, p)
		}
	}
	m := Rule{URL: "*", Modify: &Modify{Status: 201}}
	if err := m.Check(); err != nil || m.pattern().RequestStage != "Response" {
		t.Errorf("a modify rule pauses at the response: %+v, %v", m.pattern(), err)
	}
}

func TestFileAddRemove(t *testing.T) {
	var f File
	f.Add(Rule{URL: "a", Method: "GET"})
	f.Add(Rule{URL: "b"})
	if replaced := f.Add(Rule{URL: "a", Method: "GET", Status: 500}); replaced == nil || replaced.ID != 1 {
		t.Errorf("replaced: %+v", replaced)
	}
	if len(f.Rules) != 2 || f.Rules[1].ID != 3 || f.Next != 3 {
		t.Errorf("rules: %+v", f)
	}
	if gone := f.Remove("b"); len(gone) != 1 || len(f.Rules) != 1 {
		t.Errorf("removed %+v, left %+v", gone, f.Rules)
	}
	if gone := f.Remove(""); len(gone) != 1 || len(f.Rules) != 0 {
		t.Errorf("removed all: %+v, left %+v", gone, f.Rules)
	}
}

func TestChangedHeaders(t *testing.T) {
	got := changed([]proto.HeaderEntry{{Name: "content-type", Value: "text/plain"}, {Name: "content-encoding", Value: "gzip"},
		{Name: "x-a", Value: "1"}, {Name: "X-B", Value: "2"}},
		map[string]string{"X-A": "", "x-b": "3", "X-C": "4"})
	want := map[string]string{"content-type": "text/plain", "x-b": "3", "X-C": "4"}
	if len(got) != len(want) {
		t.Fatalf("headers: %+v", got)
	}
	for _, h := range got {
		if want[h.Name] != h.Value {
			t.Errorf("headers: %+v", got)
		}
	}
}
