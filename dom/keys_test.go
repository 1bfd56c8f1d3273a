package dom_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/dom"
	"github.com/cdpskill/cdpskill/internal/invalid"
)

// The key table gives each key the key value, code and key code a US
// keyboard gives it, whatever name or alias the agent used.
func TestParseKeystrokeTable(t *testing.T) {
	type key struct {
		key, code string
		keyCode   int
		text      string
	}
	cases := []struct {
		in   string
		mods []string
		want key
	}{
		{"Enter", nil, key{"Enter", "Enter", 13, "\r"}},
		{"enter", nil, key{"Enter", "Enter", 13, "\r"}},
		{"Return", nil, key{"Enter", "Enter", 13, "\r"}},
		{"Tab", nil, key{"Tab", "Tab", 9, ""}},
		{"Escape", nil, key{"Escape", "Escape", 27, ""}},
		{"Esc", nil, key{"Escape", "Escape", 27, ""}},
		{"Backspace", nil, key{"Backspace", "Backspace", 8, ""}},
		{"Delete", nil, key{"Delete", "Delete", 46, ""}},
		{"Insert", nil, key{"Insert", "Insert", 45, ""}},
		{"Space", nil, key{" ", "Space", 32, " "}},
		{" ", nil, key{" ", "Space", 32, " "}},
		{"ArrowDown", nil, key{"ArrowDown", "ArrowDown", 40, ""}},
		{"Up", nil, key{"ArrowUp", "ArrowUp", 38, ""}},
		{"ArrowLeft", nil, key{"ArrowLeft", "ArrowLeft", 37, ""}},
		{"ArrowRight", nil, key{"ArrowRight", "ArrowRight", 39, ""}},
		{"Home", nil, key{"Home", "Home", 36, ""}},
		{"End", nil, key{"End", "End", 35, ""}},
		{"PageUp", nil, key{"PageUp", "PageUp", 33, ""}},
		{"PageDown", nil, key{"PageDown", "PageDown", 34, ""}},
		{"F1", nil, key{"F1", "F1", 112, ""}},
		{"f5", nil, key{"F5", "F5", 116, ""}},
		{"F12", nil, key{"F12", "F12", 123, ""}},
		{"a", nil, key{"a", "KeyA", 65, "a"}},
		{"Z", nil, key{"Z", "KeyZ", 90, "Z"}},
		{"7", nil, key{"7", "Digit7", 55, "7"}},
		{"!", nil, key{"!", "Digit1", 49, "!"}},
		{"/", nil, key{"/", "Slash", 191, "/"}},
		{"?", nil, key{"?", "Slash", 191, "?"}},
		{"é", nil, key{"é", "", 0, "é"}},
		{"Control+a", []string{"Control"}, key{"a", "KeyA", 65, "a"}},
		{"Ctrl+a", []string{"Control"}, key{"a", "KeyA", 65, "a"}},
		{"Meta+Shift+Enter", []string{"Meta", "Shift"}, key{"Enter", "Enter", 13, "\r"}},
		{"Cmd+c", []string{"Meta"}, key{"c", "KeyC", 67, "c"}},
		{"Command+v", []string{"Meta"}, key{"v", "KeyV", 86, "v"}},
		{"Alt+F4", []string{"Alt"}, key{"F4", "F4", 115, ""}},
		{"Control+Control+x", []string{"Control"}, key{"x", "KeyX", 88, "x"}},
		{"Control++", []string{"Control"}, key{"+", "Equal", 187, "+"}},
		{"+", nil, key{"+", "Equal", 187, "+"}},
		{"Shift", nil, key{"Shift", "ShiftLeft", 16, ""}},
		{"Control+Shift", []string{"Control"}, key{"Shift", "ShiftLeft", 16, ""}},
	}
	for _, tc := range cases {
		k, err := dom.ParseKeystroke(tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		got := key{k.Key.Key, k.Key.Code, k.Key.KeyCode, k.Key.Text}
		if got != tc.want {
			t.Errorf("%q: key %+v, want %+v", tc.in, got, tc.want)
		}
		var mods []string
		for _, m := range k.Modifiers {
			mods = append(mods, m.Key)
		}
		if strings.Join(mods, "+") != strings.Join(tc.mods, "+") {
			t.Errorf("%q: modifiers %v, want %v", tc.in, mods, tc.mods)
		}
	}
}

// Names round-trip to their canonical spelling.
func TestKeystrokeString(t *testing.T) {
	cases := map[string]string{
		"ctrl+shift+esc": "Control+Shift+Escape",
		"Cmd+a":          "Meta+a",
		"space":          "Space",
		"Alt+F4":         "Alt+F4",
		"Control++":      "Control++",
	}
	for in, want := range cases {
		k, err := dom.ParseKeystroke(in)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if got := k.String(); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// Unknown names are reported with a suggestion; empty ones are invalid.
func TestParseKeystrokeErrors(t *testing.T) {
	unknown := []struct{ in, name, suggestion string }{
		{"Entr", "Entr", "Enter"},
		{"Escpe", "Escpe", "Escape"},
		{"ArrowDwn", "ArrowDwn", "ArrowDown"},
		{"Contrl+a", "Contrl", "Control"},
		{"Shfit+Tab", "Shfit", "Shift"},
		{"a+b", "a", ""},
		{"Control+Florp", "Florp", ""},
	}
	for _, tc := range unknown {
		_, err := dom.ParseKeystroke(tc.in)
		var uk *dom.UnknownKeyError
		if !errors.As(err, &uk) {
			t.Errorf("%q: %v, want *UnknownKeyError", tc.in, err)
			continue
		}
		if uk.Name != tc.name || uk.Suggestion != tc.suggestion {
			t.Errorf("%q: %+v, want name %q suggestion %q", tc.in, *uk, tc.name, tc.suggestion)
		}
	}
	for _, in := range []string{"", "Control+", "+a", "Control++a"} {
		_, err := dom.ParseKeystroke(in)
		var ia *invalid.Option
		if !errors.As(err, &ia) {
			t.Errorf("%q: %v, want *invalid.Option", in, err)
		}
	}
}
