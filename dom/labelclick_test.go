package dom_test

import (
	"slices"
	"testing"

	"github.com/cdpskill/cdpskill/dom"
)

// A radio or checkbox a user cannot see (transparent, clipped, display:
// none, off-screen) is clicked through its visible label, with real mouse
// events, and really changes state (SPEC 19.16).
func TestClickHiddenInputThroughLabel(t *testing.T) {
	for _, id := range []string{"small", "news", "gone", "away"} {
		t.Run(id, func(t *testing.T) {
			p := openFixture(t, "hidden-inputs.html")
			res := click(t, p, dom.ClickRequest{Target: "#" + id})
			if !res.ViaLabel || res.Method != dom.MethodCDP || !res.TargetReceived || res.AutoForced {
				t.Errorf("result = %+v", *res)
			}
			if !eval[bool](t, p, "document.getElementById('"+id+"').checked") {
				t.Fatalf("#%s is not checked", id)
			}
			if got := pageEvents(t, p); !slices.Equal(got, []string{id + ":true"}) {
				t.Errorf("events = %v", got)
			}
		})
	}
}

// The same by ref, and a second click unchecks a checkbox; a radio moves
// to its sibling.
func TestClickHiddenInputToggles(t *testing.T) {
	p := openFixture(t, "hidden-inputs.html")
	news := mint(t, p, "makeRef(document.getElementById('news'), 'checkbox', 'Newsletter', '#news')")
	click(t, p, dom.ClickRequest{Target: news})
	click(t, p, dom.ClickRequest{Target: news})
	if eval[bool](t, p, "document.getElementById('news').checked") {
		t.Error("second click did not uncheck #news")
	}
	click(t, p, dom.ClickRequest{Target: "#small"})
	click(t, p, dom.ClickRequest{Target: "#large"})
	if got := eval[[]bool](t, p, "[small.checked, large.checked]"); !slices.Equal(got, []bool{false, true}) {
		t.Errorf("radios = %v", got)
	}
}

// A visible checkbox is clicked as itself, even inside a label, and the
// label-wrapped click reports success.
func TestClickVisibleCheckboxInLabel(t *testing.T) {
	p := openFixture(t, "hidden-inputs.html")
	res := click(t, p, dom.ClickRequest{Target: "#plain"})
	if res.ViaLabel || res.Method != dom.MethodCDP || !res.TargetReceived {
		t.Errorf("result = %+v", *res)
	}
	if !eval[bool](t, p, "document.getElementById('plain').checked") {
		t.Error("#plain is not checked")
	}
}
