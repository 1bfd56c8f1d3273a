package dom_test

import (
	"testing"

	"github.com/cdpskill/cdpskill/dom"
)

// BenchmarkClick is one ready button clicked by selector: the checks
// (no animation frames for a still one), three mouse events, the probe
// read and the wait for the effects (a frame and the grace).
func BenchmarkClick(b *testing.B) {
	p := openFixture(b, "click.html")
	for b.Loop() {
		if _, err := dom.Click(b.Context(), p, dom.ClickRequest{Target: "#save"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFill is one fill by label of a field that already has text.
func BenchmarkFill(b *testing.B) {
	p := openFixture(b, "fill.html")
	for b.Loop() {
		if _, err := dom.Fill(b.Context(), p, dom.FillRequest{Label: "First name", Value: "Ada Lovelace"}); err != nil {
			b.Fatal(err)
		}
	}
}
