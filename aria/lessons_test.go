package aria_test

import (
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/aria"
)

// The lessons of issue 3 not tested elsewhere: TestInteractiveNeverLarger,
// TestSinceComparesGivenID, TestSearchWholePage and
// TestFramesetFramesSnapshotted hold the others.

// A <select> is named by its label, never by its options' text, and shows
// its current value.
func TestLessonSelectNamedByLabel(t *testing.T) {
	y := snap(t, open(t, "form.html"), aria.Options{}).YAML
	for _, want := range []string{
		`combobox "Country" [name=country] [ref=s1e13]: "Canada"`,
		`combobox "Country of birth" [name=birth] [ref=s1e14]: "England"`,
	} {
		if !strings.Contains(y, want) {
			t.Errorf("missing %s in:\n%s", want, y)
		}
	}
	if strings.Contains(y, "France") || strings.Contains(y, "Mexico") {
		t.Errorf("a select's unselected options leak into the snapshot:\n%s", y)
	}
}

// <input type=submit value="Log in"> is a button named "Log in".
func TestLessonSubmitNamedByValue(t *testing.T) {
	y := snap(t, open(t, "form.html"), aria.Options{}).YAML
	if !strings.Contains(y, `button "Log in" [ref=`) {
		t.Errorf("submit input:\n%s", y)
	}
}

// A client-rendered React-style page (divs, spans, handlers from script)
// still shows its text and controls in full mode.
func TestLessonReactPage(t *testing.T) {
	res := snap(t, open(t, "react.html"), aria.Options{})
	for _, want := range []string{`"Today's deals"`, `"Blue mug"`, `"$9.99"`, `generic [ref=s1e2]: "Add to cart"`,
		`generic [ref=s1e4]: "Load more"`, `textbox [ref=s1e7]: "Draft text"`} {
		if !strings.Contains(res.YAML, want) {
			t.Errorf("missing %s in:\n%s", want, res.YAML)
		}
	}
	if res.Refs != 7 {
		t.Errorf("%d refs, want 7", res.Refs)
	}
}
