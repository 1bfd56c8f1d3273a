package page_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/page"
)

func waitBool(b bool) *bool { return &b }

// waitOn opens fixture in a fresh tab.
func waitOn(t *testing.T, fixture string) (*page.Page, *navServer) {
	srv := newNavServer(t)
	p := navPage(t)
	navGoto(t, p, srv.URL+"/"+fixture, "")
	return p, srv
}

func TestWaitSucceeds(t *testing.T) {
	cases := []struct {
		name    string
		fixture string
		cond    page.WaitCondition
		count   int // the exact count expected, -1 for "at least MinCount"
	}{
		{"selector added later", "wait-dynamic.html", page.WaitCondition{Selector: "#late"}, 1},
		{"removed element is hidden", "wait-dynamic.html", page.WaitCondition{Selector: "#spinner", Hidden: true}, 0},
		{"display:none is hidden", "wait-hidden.html", page.WaitCondition{Selector: "#toast", Hidden: true}, 0},
		{"visibility:hidden is hidden", "wait-hidden.html", page.WaitCondition{Selector: "#ghost", Hidden: true}, 0},
		{"minCount", "wait-dynamic.html", page.WaitCondition{Selector: "li.item", MinCount: 4}, -1},
		{"text, whitespace squashed", "wait-dynamic.html", page.WaitCondition{Text: "Ready Now"}, 0},
		{"text any case", "wait-dynamic.html", page.WaitCondition{Text: "ready now", CaseSensitive: waitBool(false)}, 0},
		{"textRegex with flags", "wait-dynamic.html", page.WaitCondition{TextRegex: `/ready\s+now/i`}, 0},
		{"textRegex bare", "wait-dynamic.html", page.WaitCondition{TextRegex: `item \d`}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, _ := waitOn(t, c.fixture)
			r, err := page.Wait(navCtx(t, 10*time.Second), p, c.cond)
			if err != nil {
				t.Fatal(err)
			}
			if (c.count >= 0 && r.Count != c.count) || (c.count < 0 && r.Count < c.cond.MinCount) {
				t.Errorf("count %d, want %d (min %d)", r.Count, c.count, c.cond.MinCount)
			}
		})
	}
}

func TestWaitURLContains(t *testing.T) {
	for _, c := range []struct{ name, query, want string }{
		{"pushState", "?push", "pushed=1"},
		{"full navigation", "", "arrived=1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, srv := waitOn(t, "wait-nav.html"+c.query)
			r, err := page.Wait(navCtx(t, 10*time.Second), p, page.WaitCondition{URLContains: c.want})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(r.URL, srv.URL) || !strings.Contains(r.URL, c.want) {
				t.Errorf("URL %q, want it to contain %q", r.URL, c.want)
			}
		})
	}
}

func TestWaitInvalidSelectorFailsAtOnce(t *testing.T) {
	p, _ := waitOn(t, "wait-dynamic.html")
	ctx := navCtx(t, 10*time.Second)
	_, err := page.Wait(ctx, p, page.WaitCondition{Selector: "[[[invalid"})
	t.Log(err)
	var se *invalid.Selector
	if !errors.As(err, &se) || se.ErrorName() != "StepValidationError" {
		t.Fatalf("got %v (%T), want *invalid.Selector", err, err)
	}
	if ctx.Err() != nil {
		t.Error("the invalid selector was reported only when the context ran out")
	}
	if !strings.Contains(err.Error(), "[[[invalid") {
		t.Errorf("message %q does not name the selector", err)
	}
}

func TestWaitInvalidRegexFailsAtOnce(t *testing.T) {
	p, _ := waitOn(t, "wait-dynamic.html")
	ctx := navCtx(t, 10*time.Second)
	_, err := page.Wait(ctx, p, page.WaitCondition{TextRegex: "(unclosed"})
	var pe *invalid.Pattern
	if !errors.As(err, &pe) || pe.Field != "textRegex" {
		t.Fatalf("got %v (%T), want *invalid.Pattern for textRegex", err, err)
	}
	if ctx.Err() != nil {
		t.Error("the invalid regex was reported only when the context ran out")
	}
}

func TestWaitTimeoutSaysHowClose(t *testing.T) {
	cases := []struct {
		name string
		cond page.WaitCondition
		seen string
	}{
		{"minCount", page.WaitCondition{Selector: "li.item", MinCount: 10}, "found 5 visible of 5 matching, want 10"},
		{"case", page.WaitCondition{Text: "ready now"}, "different case"},
		{"absent text", page.WaitCondition{Text: "never there"}, "not in the page text"},
		{"url", page.WaitCondition{URLContains: "/elsewhere"}, "the URL is http://"},
	}
	p, _ := waitOn(t, "wait-dynamic.html")
	// Everything the fixture adds is there before these waits give up.
	if _, err := page.Wait(navCtx(t, 10*time.Second), p, page.WaitCondition{Selector: "li.item", MinCount: 5}); err != nil {
		t.Fatal(err)
	}
	if _, err := page.Wait(navCtx(t, 10*time.Second), p, page.WaitCondition{Text: "Ready Now"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := page.Wait(navCtx(t, time.Second), p, c.cond)
			t.Log(err)
			var te *page.WaitTimeoutError
			if !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &te) || te.ErrorName() != "TimeoutError" {
				t.Fatalf("got %v (%T), want a *WaitTimeoutError wrapping DeadlineExceeded", err, err)
			}
			if !strings.Contains(err.Error(), c.cond.String()) || !strings.Contains(err.Error(), c.seen) {
				t.Errorf("message %q, want it to name %q and say %q", err, c.cond.String(), c.seen)
			}
		})
	}
}

func TestWaitConditionValidate(t *testing.T) {
	cases := []struct {
		cond page.WaitCondition
		ok   bool
	}{
		{page.WaitCondition{Selector: "#a"}, true},
		{page.WaitCondition{Selector: "#a", Hidden: true}, true},
		{page.WaitCondition{Selector: "#a", MinCount: 3}, true},
		{page.WaitCondition{Text: "x", CaseSensitive: waitBool(false)}, true},
		{page.WaitCondition{TextRegex: "x"}, true},
		{page.WaitCondition{URLContains: "x"}, true},
		{page.WaitCondition{}, false},
		{page.WaitCondition{Selector: "#a", Text: "x"}, false},
		{page.WaitCondition{Selector: "#a", MinCount: -1}, false},
		{page.WaitCondition{Selector: "#a", Hidden: true, MinCount: 2}, false},
		{page.WaitCondition{Text: "x", Hidden: true}, false},
		{page.WaitCondition{URLContains: "x", CaseSensitive: waitBool(true)}, false},
	}
	for _, c := range cases {
		err := c.cond.Validate()
		if (err == nil) != c.ok {
			t.Errorf("%+v: Validate() = %v, want ok=%v", c.cond, err, c.ok)
		}
		var pe *invalid.Option
		if err != nil && !errors.As(err, &pe) {
			t.Errorf("%+v: error %T, want *invalid.Option", c.cond, err)
		}
	}
}

func BenchmarkWaitSelectorPresent(b *testing.B) {
	srv := newBenchServer(b)
	p := page.New(browser.NewTab(b))
	if _, err := page.Goto(b.Context(), p, srv+"/wait-hidden.html", page.WaitLoad); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := page.Wait(b.Context(), p, page.WaitCondition{Selector: "body"}); err != nil {
			b.Fatal(err)
		}
	}
}
