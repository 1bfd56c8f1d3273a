package dom

import (
	"strings"
	"testing"
)

// What an editor shows beside the value is told apart: closing brackets
// and indentation it adds as it goes are its own; anything else is not.
func TestAddedByEditor(t *testing.T) {
	for _, tc := range []struct {
		want, shown, added string
		ok                 bool
	}{
		{"f(x", "f(x)", ")", true},
		{"if (a) {\nb\n}", "if (a) {\n  b\n}", "  ", true},
		{`say("hi`, `say("hi")`, `")`, true},
		{"SELECT 1;", "SELECT 1;", "", true},
		{"SELECT 1;", "SELECT 2;", "", false},
		{"abc", "ab", "", false},
		{"x = 1", "let total = 0;x = 1", "", false},
	} {
		added, ok := addedByEditor(tc.want, tc.shown)
		if added != tc.added || ok != tc.ok {
			t.Errorf("addedByEditor(%q, %q) = %q, %v; want %q, %v", tc.want, tc.shown, added, ok, tc.added, tc.ok)
		}
	}
	if got := codeText("a  \r\nb\t\n\n"); got != "a\nb" {
		t.Errorf("codeText = %q", got)
	}
}

// An editor that renders only the lines in view shows the value when
// its lines are the value's, in order; a message quotes 80 characters.
func TestEditorPartialAndQuote(t *testing.T) {
	for _, tc := range []struct {
		part, whole string
		ok          bool
	}{
		{"b\nc", "a\nb\nc\nd", true},
		{"a\nd", "a\nb\nc\nd", true},
		{"c\nb", "a\nb\nc\nd", false},
		{"b\nx", "a\nb\nc\nd", false},
		{"b", "abc", false},
	} {
		if got := linesIn(tc.part, tc.whole); got != tc.ok {
			t.Errorf("linesIn(%q, %q) = %v", tc.part, tc.whole, got)
		}
	}
	long := strings.Repeat("x", 100)
	if got := quoteCut(long); got != `"`+strings.Repeat("x", 80)+`…"` {
		t.Errorf("quoteCut = %s", got)
	}
	if got := quoteCut("a\nb"); got != `"a\nb"` {
		t.Errorf("quoteCut = %s", got)
	}
}
