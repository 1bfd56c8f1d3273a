package dom_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/dom"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/page"
)

// keyEvent is one entry of the keyboard fixture's log.
type keyEvent struct {
	Type, Key, Code, Mods, Target string
	KeyCode                       int
	Trusted                       bool
	T                             float64
}

func (e keyEvent) String() string {
	s := fmt.Sprintf("%s:%s:%s:%d", e.Type, e.Key, e.Code, e.KeyCode)
	if e.Mods != "" {
		s += ":" + e.Mods
	}
	return s
}

func keyLog(t *testing.T, p *page.Page) []keyEvent {
	t.Helper()
	return eval[[]keyEvent](t, p, "window.keys")
}

func keyStrings(events []keyEvent) []string {
	var out []string
	for _, e := range events {
		out = append(out, e.String())
	}
	return out
}

func press(t *testing.T, p *page.Page, req dom.PressRequest) *dom.PressResult {
	t.Helper()
	res, err := dom.Press(testCtx(t), p, req)
	if err != nil {
		t.Fatalf("press %+v: %v", req, err)
	}
	return res
}

// The page's listeners see each modifier go down, the key with every
// modifier flag set, no keypress while Control or Meta is held, and the
// modifiers come up in reverse order; all events are trusted.
func TestPressModifiersSeenByPage(t *testing.T) {
	p := openFixture(t, "input-keys.html")
	res := press(t, p, dom.PressRequest{Key: "Meta+Shift+Enter", Target: "#notes"})
	if res.Pressed != "Meta+Shift+Enter" || res.Warning != "" {
		t.Errorf("result = %+v", *res)
	}
	got := keyLog(t, p)
	want := []string{
		"keydown:Meta:MetaLeft:91:meta",
		"keydown:Shift:ShiftLeft:16:shift+meta",
		"keydown:Enter:Enter:13:shift+meta",
		"keyup:Enter:Enter:13:shift+meta",
		"keyup:Shift:ShiftLeft:16:meta",
		"keyup:Meta:MetaLeft:91",
	}
	if !slices.Equal(keyStrings(got), want) {
		t.Errorf("events:\n got %v\nwant %v", keyStrings(got), want)
	}
	for _, e := range got {
		if !e.Trusted || e.Target != "notes" {
			t.Errorf("event %v: trusted %v target %q", e, e.Trusted, e.Target)
		}
	}
}

// Shift turns a character key into its shifted character, which is typed;
// a printable key without Control or Meta gets a keypress.
func TestPressShiftedCharacter(t *testing.T) {
	p := openFixture(t, "input-keys.html")
	press(t, p, dom.PressRequest{Key: "Shift+a", Target: "#q"})
	press(t, p, dom.PressRequest{Key: "Shift+1"})
	want := []string{
		"keydown:Shift:ShiftLeft:16:shift",
		"keydown:A:KeyA:65:shift", "keypress:A:KeyA:65:shift", "keyup:A:KeyA:65:shift",
		"keyup:Shift:ShiftLeft:16",
		"keydown:Shift:ShiftLeft:16:shift",
		// keypress reports the character code, not the key code.
		"keydown:!:Digit1:49:shift", "keypress:!:Digit1:33:shift", "keyup:!:Digit1:49:shift",
		"keyup:Shift:ShiftLeft:16",
	}
	got := keyStrings(keyLog(t, p))
	if !slices.Equal(got, want) {
		t.Errorf("events:\n got %v\nwant %v", got, want)
	}
	if v := eval[string](t, p, "document.getElementById('q').value"); v != "A!" {
		t.Errorf("value = %q, want A!", v)
	}
}

// Control+a, and Meta+a as on a Mac, select the whole value of the
// focused input, so the next character replaces it.
func TestPressSelectAll(t *testing.T) {
	for _, combo := range []string{"Control+a", "Meta+a"} {
		t.Run(combo, func(t *testing.T) {
			p := openFixture(t, "input-keys.html")
			press(t, p, dom.PressRequest{Key: combo, Target: "#field"})
			sel := eval[[]int](t, p, "(() => { const f = document.getElementById('field'); return [f.selectionStart, f.selectionEnd]; })()")
			if !slices.Equal(sel, []int{0, len("hello world")}) {
				t.Fatalf("selection = %v, want the whole value", sel)
			}
			press(t, p, dom.PressRequest{Key: "x"})
			if v := eval[string](t, p, "document.getElementById('field').value"); v != "x" {
				t.Errorf("value = %q, want x", v)
			}
		})
	}
}

// Tab moves focus to the next field and Shift+Tab back.
func TestPressTabMovesFocus(t *testing.T) {
	p := openFixture(t, "input-keys.html")
	press(t, p, dom.PressRequest{Key: "Tab", Target: "s1e1"}) // #q
	if id := eval[string](t, p, "document.activeElement.id"); id != "second" {
		t.Fatalf("after Tab focus is on %q, want second", id)
	}
	press(t, p, dom.PressRequest{Key: "Shift+Tab"})
	if id := eval[string](t, p, "document.activeElement.id"); id != "q" {
		t.Errorf("after Shift+Tab focus is on %q, want q", id)
	}
}

// Enter in a form field submits the form.
func TestPressEnterSubmits(t *testing.T) {
	p := openFixture(t, "input-keys.html")
	press(t, p, dom.PressRequest{Key: "Enter", Target: "#q"})
	if n := eval[int](t, p, "window.submits"); n != 1 {
		t.Errorf("submits = %d, want 1", n)
	}
}

// Editing keys edit: ArrowLeft moves the caret, Backspace deletes before it.
func TestPressEditingKeys(t *testing.T) {
	p := openFixture(t, "input-keys.html")
	if _, err := dom.Type(testCtx(t), p, dom.TypeRequest{Target: "#q", Text: "abc"}); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"ArrowLeft", "Backspace", "End", "Space", "d"} {
		press(t, p, dom.PressRequest{Key: k})
	}
	if v := eval[string](t, p, "document.getElementById('q').value"); v != "ac d" {
		t.Errorf("value = %q, want %q", v, "ac d")
	}
}

// A custom listbox driven by its keydown handler: arrows move, Enter picks.
func TestPressDrivesCustomListbox(t *testing.T) {
	p := openFixture(t, "input-keys.html")
	press(t, p, dom.PressRequest{Key: "ArrowDown", Target: "#listbox"})
	press(t, p, dom.PressRequest{Key: "Down"})
	press(t, p, dom.PressRequest{Key: "Enter"})
	if got := eval[string](t, p, "window.chosen"); got != "Green" {
		t.Errorf("chosen = %q, want Green", got)
	}
}

// An unknown key is a warning with a suggestion, and nothing is sent.
func TestPressUnknownKeyWarns(t *testing.T) {
	p := openFixture(t, "input-keys.html")
	res := press(t, p, dom.PressRequest{Key: "Contrl+Entr", Target: "#q"})
	if res.Pressed != "" || !strings.Contains(res.Warning, `"Contrl"`) || !strings.Contains(res.Warning, `did you mean "Control"`) {
		t.Errorf("result = %+v", *res)
	}
	if got := keyLog(t, p); len(got) != 0 {
		t.Errorf("keys were sent: %v", keyStrings(got))
	}
	_, err := dom.Press(testCtx(t), p, dom.PressRequest{Key: ""})
	var ia *invalid.Option
	if !errors.As(err, &ia) {
		t.Errorf("empty key: %v, want *invalid.Option", err)
	}
}

// A press target that cannot take focus is a warning, not a failure.
func TestPressUnfocusableTargetWarns(t *testing.T) {
	p := openFixture(t, "input-keys.html")
	res := press(t, p, dom.PressRequest{Key: "Escape", Target: "label[for=ac]"})
	if res.Pressed != "Escape" || !strings.Contains(res.Warning, "cannot take focus") {
		t.Errorf("result = %+v", *res)
	}
}
