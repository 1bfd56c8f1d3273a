package aria_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/aria"
	"github.com/cdpskill/cdpskill/internal/invalid"
)

var fixtures = []string{"landmarks.html", "form.html", "hidden.html", "react.html", "structure.html", "refs.html", "long.html",
	"roles.html", "shadow.html", "frames.html", "frameset.html", "products.html", "todos.html", "table.html", "sidebar.html", "nomain.html"}

// TestInteractiveNeverLarger (issue 3 lesson): the interactive level only
// drops and shortens lines, on every fixture, scoped or not.
func TestInteractiveNeverLarger(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f, func(t *testing.T) {
			t.Parallel()
			p := open(t, f)
			for _, root := range []string{"", "body"} {
				full := snap(t, p, aria.Options{Root: root, IncludeFrames: true})
				inter := snap(t, p, aria.Options{Root: root, IncludeFrames: true, Detail: aria.DetailInteractive})
				if len(inter.YAML) > len(full.YAML) {
					t.Errorf("root %q: interactive is %d bytes, full %d\n--- interactive:\n%s\n--- full:\n%s",
						root, len(inter.YAML), len(full.YAML), inter.YAML, full.YAML)
				}
				if inter.Refs != full.Refs {
					t.Errorf("root %q: interactive shows %d refs, full %d", root, inter.Refs, full.Refs)
				}
			}
		})
	}
}

func TestMaxElementsTruncates(t *testing.T) {
	p := open(t, "structure.html")
	if res := snap(t, p, aria.Options{}); res.Truncated {
		t.Errorf("unlimited snapshot reports truncated")
	}
	res := snap(t, p, aria.Options{MaxElements: 5})
	if !res.Truncated {
		t.Errorf("maxElements 5 not truncated:\n%s", res.YAML)
	}
	if n := strings.Count(res.YAML, "\n") + 1; n > 5 {
		t.Errorf("maxElements 5 gave %d lines:\n%s", n, res.YAML)
	}
	if !strings.HasPrefix(res.YAML, `- heading "Title" [level=1]`) {
		t.Errorf("truncated snapshot does not keep the first elements:\n%s", res.YAML)
	}
}

func TestMaxDepth(t *testing.T) {
	p := open(t, "structure.html")
	res := snap(t, p, aria.Options{MaxDepth: 1})
	if strings.Contains(res.YAML, "\n  -") {
		t.Errorf("maxDepth 1 shows nested lines:\n%s", res.YAML)
	}
	if !strings.Contains(res.YAML, "- table \"Prices\"") {
		t.Errorf("maxDepth 1 lost the top level:\n%s", res.YAML)
	}
}

func TestMaxNameLength(t *testing.T) {
	p := open(t, "structure.html")
	res := snap(t, p, aria.Options{MaxNameLength: 10})
	for _, want := range []string{`heading "Section tw…" [level=2]`, `heading "Title" [level=1]`, `[url=/long]`} {
		if !strings.Contains(res.YAML, want) {
			t.Errorf("missing %s in:\n%s", want, res.YAML)
		}
	}
}

func TestIncludeTextFalse(t *testing.T) {
	p := open(t, "landmarks.html")
	f := false
	res := snap(t, p, aria.Options{IncludeText: &f})
	if strings.Contains(res.YAML, "- text:") || strings.Contains(res.YAML, "newsletter") {
		t.Errorf("includeText false still shows text:\n%s", res.YAML)
	}
	if !strings.Contains(res.YAML, `button "Sign Up"`) {
		t.Errorf("includeText false lost names:\n%s", res.YAML)
	}
}

func TestViewportOnly(t *testing.T) {
	p := open(t, "long.html")
	top := snap(t, p, aria.Options{ViewportOnly: true})
	if !strings.Contains(top.YAML, `"Item 1"`) || strings.Contains(top.YAML, `"Item 50"`) {
		t.Errorf("viewport snapshot at the top:\n%s", top.YAML)
	}
	eval(t, p, `window.scrollTo(0, document.body.scrollHeight)`)
	bottom := snap(t, p, aria.Options{ViewportOnly: true})
	if !strings.Contains(bottom.YAML, `button "Act 100"`) || strings.Contains(bottom.YAML, `"Item 1"`) {
		t.Errorf("viewport snapshot at the bottom:\n%s", bottom.YAML)
	}
	if all := snap(t, p, aria.Options{}); !strings.Contains(all.YAML, `"Item 1"`) || !strings.Contains(all.YAML, `"Item 100"`) {
		t.Errorf("full snapshot misses items")
	}
}

func TestHiddenContentOmitted(t *testing.T) {
	p := open(t, "hidden.html")
	res := snap(t, p, aria.Options{})
	if strings.Contains(res.YAML, "SECRET") {
		t.Errorf("hidden content leaked:\n%s", res.YAML)
	}
}

func TestRootErrors(t *testing.T) {
	p := open(t, "landmarks.html")
	ctx := t.Context()

	_, err := aria.Snapshot(ctx, p, aria.Options{Root: "[[[invalid"})
	var inv *invalid.Selector
	if !errors.As(err, &inv) || inv.ErrorName() != "StepValidationError" {
		t.Errorf("invalid selector: err = %v, want *invalid.Selector", err)
	}

	for _, root := range []string{"#nope", "role=dialog", `role=navigation "Nope"`} {
		_, err = aria.Snapshot(ctx, p, aria.Options{Root: root})
		var nf *aria.RootNotFoundError
		if !errors.As(err, &nf) || nf.ErrorName() != "ElementNotFoundError" || nf.Root != root || !strings.Contains(err.Error(), "matches no element") {
			t.Errorf("root %s: err = %v, want *RootNotFoundError naming it", root, err)
		}
	}

	// Failed snapshots do not use up a snapshot number.
	if res := snap(t, p, aria.Options{}); res.SnapshotID != "s1" {
		t.Errorf("snapshot id after errors = %q, want s1", res.SnapshotID)
	}
}

func TestDeadlineStaysWrapped(t *testing.T) {
	p := open(t, "landmarks.html")
	ctx, cancel := context.WithDeadline(t.Context(), time.Now().Add(-time.Second))
	defer cancel()
	_, err := aria.Snapshot(ctx, p, aria.Options{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want it to wrap context.DeadlineExceeded", err)
	}
}

func TestOptionsDecodeAndValidate(t *testing.T) {
	in := `{"root":"body","detail":"interactive","mode":"ai","maxDepth":3,"maxElements":10,
		"maxNameLength":20,"includeText":false,"viewportOnly":true,"internal":true}`
	dec := json.NewDecoder(bytes.NewReader([]byte(in)))
	dec.DisallowUnknownFields()
	var o aria.Options
	if err := dec.Decode(&o); err != nil {
		t.Fatal(err)
	}
	if o.Root != "body" || o.Detail != "interactive" || o.MaxDepth != 3 || o.MaxElements != 10 ||
		o.MaxNameLength != 20 || o.IncludeText == nil || *o.IncludeText || !o.ViewportOnly || !o.Internal {
		t.Errorf("decoded %+v", o)
	}
	if err := o.Validate(); err != nil {
		t.Errorf("valid options rejected: %v", err)
	}

	bad := []aria.Options{{Detail: "verbose"}, {Mode: "robot"}, {MaxDepth: -1}, {MaxElements: -2}, {MaxNameLength: -3}}
	for _, b := range bad {
		err := b.Validate()
		var oe *invalid.Option
		if !errors.As(err, &oe) || oe.ErrorName() != "StepValidationError" {
			t.Errorf("Validate(%+v) = %v, want *invalid.Option", b, err)
		}
	}
}

// The on-screen part an oversized snapshot gives from its own walk is
// what a viewportOnly walk shows, on every fixture whose frames the page
// may read; at the other details a viewportOnly walk gives it.
func TestViewportFromTheSameWalk(t *testing.T) {
	for _, f := range append(fixtures, "slot-text.html") {
		t.Run(f, func(t *testing.T) {
			t.Parallel()
			p := open(t, f)
			for _, detail := range []string{"", aria.DetailInteractive} {
				// The first call on the new document sends onscreen.js
				// before the page has snapshot.js: it is asked again.
				opts := aria.Options{Root: "body", Detail: detail, Internal: true, ViewportAbove: 1}
				got := snap(t, p, opts).Viewport(t.Context())
				opts.ViewportOnly, opts.ViewportAbove = true, 0
				want := snap(t, p, opts).YAML
				switch {
				case detail != "" && got != "":
					t.Errorf("detail %q: the on-screen part came from the same walk", detail)
				case detail == "" && got != want:
					t.Errorf("from the same walk:\n%s\n--- a viewportOnly walk:\n%s", got, want)
				}
			}
		})
	}
}

// A slot has no box of its own; what is assigned to it is on screen.
func TestViewportOnlyShowsSlottedContent(t *testing.T) {
	p := open(t, "shadow.html")
	res := snap(t, p, aria.Options{Root: "body", ViewportOnly: true})
	for _, want := range []string{`button "Slotted action"`, `"Slotted light paragraph"`, `"Default slot text"`} {
		if !strings.Contains(res.YAML, want) {
			t.Errorf("viewportOnly snapshot lacks %s:\n%s", want, res.YAML)
		}
	}
	p = open(t, "slot-text.html")
	if res := snap(t, p, aria.Options{Root: "body", ViewportOnly: true}); !strings.Contains(res.YAML, "Saved two minutes ago") {
		t.Errorf("viewportOnly snapshot lacks the text a slot shows:\n%s", res.YAML)
	}
}
