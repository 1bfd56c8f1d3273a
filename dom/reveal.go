package dom

import (
	"context"
	"fmt"
	"time"

	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/page"
)

// ScrollSearch configures scrollUntilVisible (SPEC 8.10); zero fields take
// the defaults: down, 80% of the viewport per step, 20 steps.
type ScrollSearch struct {
	// Direction is down, up, right or left.
	Direction string
	// Distance is how far each step scrolls, in CSS pixels.
	Distance float64
	// MaxAttempts is how many steps to scroll before giving up.
	MaxAttempts int
}

// Per scroll step: how long lazily loaded content may take to start
// arriving at the edge of the page, and elsewhere (lazy images, sections
// that render on sight), and how long the DOM must then stay quiet for the
// load to count as done.
const (
	revealWait  = 700 * time.Millisecond
	revealPeek  = 100 * time.Millisecond
	revealQuiet = 150 * time.Millisecond
	// revealEnds is how many steps in a row may neither move nor grow the
	// page before the search stops early.
	revealEnds = 3
)

var directions = map[string][2]float64{"down": {0, 1}, "up": {0, -1}, "right": {1, 0}, "left": {-1, 0}}

// CheckScrollSearch rejects options no page can fix.
func CheckScrollSearch(s ScrollSearch) error {
	if _, ok := directions[s.Direction]; !ok && s.Direction != "" {
		return &invalid.Option{Field: "direction", Reason: fmt.Sprintf("must be down, up, right or left, got %q", s.Direction)}
	}
	if s.Distance < 0 || s.MaxAttempts < 0 {
		return &invalid.Option{Field: "scrollUntilVisible", Reason: "distance and maxAttempts must be positive"}
	}
	return nil
}

// Reveal scrolls until target exists, then scrolls it into view: first
// the page's scrolling containers, a view at a time (a virtualized grid
// renders only the rows in its view; js/scrollers.js), then the page
// itself step by step, as s says. It reports the container it scrolled
// to find target, if that found it. It fails with *NotFoundError when the
// steps run out or the page stops moving and growing. A target no
// scrolling can find (an invalid selector, an unknown ref) returns at
// once, for the actionability check that follows to report.
func Reveal(ctx context.Context, p *page.Page, target Target, s ScrollSearch) (*Scrolled, error) {
	if err := CheckScrollSearch(s); err != nil {
		return nil, err
	}
	inside, err := searchScrollers(ctx, p, target, 0)
	switch {
	case err != nil:
		return nil, err
	case inside.Found || inside.Hopeless:
		return inside.scrolled(), nil
	}
	return nil, revealPage(ctx, p, target, s, inside.note())
}

// revealPage is Reveal's steps through the page; note says which
// containers were searched first.
func revealPage(ctx context.Context, p *page.Page, target Target, s ScrollSearch, note string) error {
	dir := directions[orStr(s.Direction, "down")]
	attempts := s.MaxAttempts
	if attempts == 0 {
		attempts = 20
	}
	arg := map[string]any{"target": target.arg(), "dirX": dir[0], "dirY": dir[1], "distance": s.Distance,
		"wait": revealWait.Milliseconds(), "peek": revealPeek.Milliseconds(), "quiet": revealQuiet.Milliseconds()}
	ends := 0
	for i := 0; i < attempts; i++ {
		var r struct {
			Found    bool `json:"found"`
			AtEnd    bool `json:"atEnd"`
			Hopeless bool `json:"hopeless"`
		}
		if err := p.CallJS(ctx, revealFn(), &r, arg); err != nil {
			return err
		}
		switch {
		case r.Found, r.Hopeless: // the actionability check names what is wrong
			return nil
		case r.AtEnd:
			ends++
		default:
			ends = 0
		}
		if ends == revealEnds {
			return &NotFoundError{Target: target, Detail: fmt.Sprintf("not found after scrolling %d times; the page stopped scrolling and growing", i+1), ScrollNote: note}
		}
	}
	return &NotFoundError{Target: target, Detail: fmt.Sprintf("not found after scrolling %d times (maxAttempts)", attempts), ScrollNote: note}
}
