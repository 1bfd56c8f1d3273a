package page_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/page"
)

func ctxRead(t *testing.T, p *page.Page) *page.Context {
	t.Helper()
	c, err := page.GetContext(navCtx(t, 5*time.Second), p, false)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestContextScrolledPage(t *testing.T) {
	p, srv := waitOn(t, "ctx-long.html")
	c := ctxRead(t, p)
	if c.URL != srv.URL+"/ctx-long.html" || c.Title != "Long page" {
		t.Errorf("url %q title %q", c.URL, c.Title)
	}
	if c.Scroll != (page.Scroll{}) {
		t.Errorf("scroll %+v at the top, want zero", c.Scroll)
	}
	if c.Viewport.Width <= 0 || c.Viewport.Height <= 0 {
		t.Errorf("viewport %+v", c.Viewport)
	}
	if c.ActiveElement != nil || c.Modal != nil {
		t.Errorf("activeElement %+v modal %+v on a page with neither", c.ActiveElement, c.Modal)
	}
	// Absent parts vanish from the JSON.
	data, _ := json.Marshal(c)
	for _, key := range []string{"activeElement", "modal"} {
		if strings.Contains(string(data), key) {
			t.Errorf("JSON %s has %q", data, key)
		}
	}

	navEval[any](t, p, "window.scrollTo(0, document.body.scrollHeight)")
	c = ctxRead(t, p)
	if want := 5000 - c.Viewport.Height; c.Scroll.Y != want || c.Scroll.Percent != 100 {
		t.Errorf("scroll %+v at the bottom, want y %d and 100%%", c.Scroll, want)
	}
	navEval[any](t, p, "window.scrollTo(0, (document.body.scrollHeight - innerHeight) / 2)")
	if c = ctxRead(t, p); c.Scroll.Percent != 50 {
		t.Errorf("scroll %+v half way, want 50%%", c.Scroll)
	}
}

func TestContextActiveElement(t *testing.T) {
	p, _ := waitOn(t, "ctx-form.html")
	str := func(s string) *string { return &s }
	cases := []struct {
		focus string // selector to focus
		want  page.ActiveElement
	}{
		{"#email", page.ActiveElement{Tag: "input", Selector: "#email", Editable: true, Type: "email", Value: str("ann@example.com"), Placeholder: "you@example.com"}},
		{"[name=secret]", page.ActiveElement{Tag: "input", Selector: `input[name="secret"]`, Editable: true, Type: "password", Value: str("********")}},
		{"#ro", page.ActiveElement{Tag: "input", Selector: "#ro", Editable: false, Type: "text", Value: str("fixed")}},
		{"textarea", page.ActiveElement{Tag: "textarea", Selector: `textarea[data-testid="notes"]`, Editable: true, Value: str("some notes")}},
		{"#agree", page.ActiveElement{Tag: "input", Selector: "#agree", Editable: false, Type: "checkbox", Checked: new(false)}},
		{"span button", page.ActiveElement{Tag: "button", Selector: "span > button", Editable: false}},
		{"p button", page.ActiveElement{Tag: "button", Selector: "p > button", Editable: false}},
		{"#rich", page.ActiveElement{Tag: "div", Selector: "#rich", Editable: true}},
	}
	for _, c := range cases {
		navEval[any](t, p, "document.querySelector('"+c.focus+"').focus()")
		got := ctxRead(t, p).ActiveElement
		if got == nil {
			t.Errorf("%s: no activeElement", c.focus)
			continue
		}
		if got.Box.Width <= 0 || got.Box.Height <= 0 {
			t.Errorf("%s: box %+v", c.focus, got.Box)
		}
		got.Box = page.Box{}
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(c.want)
		if string(gj) != string(wj) {
			t.Errorf("%s:\n got %s\nwant %s", c.focus, gj, wj)
		}
		// The generated selector finds the element it describes.
		if !navEval[bool](t, p, "document.querySelector('"+strings.ReplaceAll(got.Selector, "'", "\\'")+"') === document.activeElement") {
			t.Errorf("%s: selector %q does not find the focused element", c.focus, got.Selector)
		}
	}
	navEval[any](t, p, "document.activeElement.blur()")
	if got := ctxRead(t, p).ActiveElement; got != nil {
		t.Errorf("with focus on the body: activeElement %+v", got)
	}
}

func TestContextModal(t *testing.T) {
	p, _ := waitOn(t, "ctx-dialog.html")
	// A hidden alertdialog and a closed <dialog> are not modals.
	if m := ctxRead(t, p).Modal; m != nil {
		t.Fatalf("modal %+v with no dialog open", m)
	}

	navEval[any](t, p, "document.getElementById('confirm').showModal()")
	m := ctxRead(t, p).Modal
	if m == nil || m.Title != "Confirm delete" || m.Selector != "#confirm" {
		t.Errorf("open <dialog>: modal %+v, want title from its heading", m)
	}

	navEval[any](t, p, "document.getElementById('confirm').close(), document.getElementById('labelled').hidden = false")
	m = ctxRead(t, p).Modal
	if m == nil || m.Title != "Cookie settings" {
		t.Errorf("aria-modal dialog: modal %+v, want title from aria-label", m)
	}

	navEval[any](t, p, "document.getElementById('labelled').removeAttribute('aria-label')")
	if m = ctxRead(t, p).Modal; m == nil || m.Title != "Dialog" {
		t.Errorf("unlabelled dialog: modal %+v, want the fallback title", m)
	}
}

func BenchmarkContext(b *testing.B) {
	srv := newBenchServer(b)
	p := page.New(browser.NewTab(b))
	if _, err := page.Goto(b.Context(), p, srv+"/ctx-form.html", page.WaitLoad); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := page.GetContext(b.Context(), p, false); err != nil {
			b.Fatal(err)
		}
	}
}

// After a navigation the context says what the page runs on.
func TestContextFramework(t *testing.T) {
	cases := map[string]string{
		"next":      "Next.js 14.2.3, React",
		"react":     "React",
		"vue":       "Vue 3.4.21",
		"nuxt":      "Nuxt, Vue 3.4.21",
		"angular":   "Angular 17.3.0",
		"angularjs": "AngularJS 1.8.3",
		"svelte":    "Svelte",
		"ember":     "Ember 5.6.0",
		"backbone":  "Backbone 1.6.0, jQuery 3.7.1",
		"wordpress": "WordPress 6.4.3",
		"odd":       "jQuery 1.12.4",
		"plain":     "",
		"named":     "",
		"nextdata":  "Next.js",
	}
	srv := newNavServer(t)
	p := navPage(t)
	for stack, want := range cases {
		navGoto(t, p, srv.URL+"/frameworks.html?"+stack, "")
		c, err := page.GetContext(navCtx(t, 5*time.Second), p, true)
		if err != nil {
			t.Fatal(err)
		}
		if c.Framework != want {
			t.Errorf("%s: framework %q, want %q", stack, c.Framework, want)
		}
		if ctxRead(t, p).Framework != "" {
			t.Errorf("%s: framework told without being asked", stack)
		}
	}
}
