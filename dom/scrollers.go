package dom

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/page"
)

var (
	//go:embed js/scrollers.js
	scrollersJS string
	scrollersFn = bind(scrollersJS)
)

// Scrolled says which of the page's scrolling containers a search
// scrolled to find its element (issue 22: a virtualized grid renders only
// the rows in its view), as the snapshot names it (`grid "Orders"`), and
// how far: By is in CSS pixels, positive down.
type Scrolled struct {
	Container string  `json:"container"`
	By        float64 `json:"by"`
}

// ScrollQuery is what SearchScrollers looks for on behalf of a snapshot
// search: an element with Role whose text or name contains Text (or is
// it, when Exact) or matches Pattern.
type ScrollQuery struct {
	Text, Pattern, Role string
	Exact               bool
}

// scrollPeek is how long a step through a container may wait for the page
// to re-render what it scrolled to when nothing changed in its frame;
// three times that is the wait at a container's end for more to load.
const scrollPeek = 100 * time.Millisecond

// scrollSearchAgain is how often an action's wait asks again for
// scrolling containers, on a page that had none (they may come with its
// content).
const scrollSearchAgain = 500 * time.Millisecond

// maxScrollSearch bounds a search through the containers that no step
// timeout bounds more tightly.
const maxScrollSearch = 10 * time.Second

// scrollSearch is js/scrollers.js's reply.
type scrollSearch struct {
	Found     bool     `json:"found"`
	Container string   `json:"container"`
	By        float64  `json:"by"`
	Searched  []string `json:"searched"`
	TimedOut  bool     `json:"timedOut"`
	Hopeless  bool     `json:"hopeless"`
	// Shown: the text is in the page already, in nothing a click by text
	// takes; no container was searched.
	Shown bool `json:"shown"`
}

// scrolled is what the search scrolled, or nil when it scrolled nothing.
func (r scrollSearch) scrolled() *Scrolled {
	if !r.Found || r.Container == "" {
		return nil
	}
	return &Scrolled{Container: r.Container, By: r.By}
}

// note says, for a failure, which containers were searched in vain.
func (r scrollSearch) note() string {
	if r.Found || len(r.Searched) == 0 {
		return ""
	}
	names := r.Searched
	if len(names) > 3 {
		names = append(names[:3:3], fmt.Sprintf("%d more", len(r.Searched)-3))
	}
	how := "to their ends"
	switch {
	case r.TimedOut:
		how = "until the time ran out"
	case len(r.Searched) == 1:
		how = "to its end"
	}
	return fmt.Sprintf("scrolled through %s %s; none shows it", strings.Join(names, ", "), how)
}

// scrollHunt is what an action's wait (WaitActionable) knows of its
// searches through the page's scrolling containers: a target not in the
// page may be in a container's rows not rendered yet (missed), and text
// found only as part of a row's may be the whole text of one not
// rendered (partial).
type scrollHunt struct {
	done      bool      // the not-found search has its answer, or the target calls for none
	wholeDone bool      // the whole-text search has run
	last      time.Time // when the not-found search last ran
	scrolled  *Scrolled // what the searches left scrolled, all told
	note      string    // the containers searched in vain
}

// missed runs the not-found search for req's target when it is due: once
// it has an answer, else every scrollSearchAgain (a page without
// scrolling containers may get them with its content). It says whether
// the target is now rendered.
func (s *scrollHunt) missed(ctx context.Context, p *page.Page, req ActionRequest, deadline time.Time) bool {
	if s.done || time.Since(s.last) < scrollSearchAgain {
		return false
	}
	s.last = time.Now()
	r, err := searchScrollers(ctx, p, req.Target, time.Until(deadline)-200*time.Millisecond)
	if err != nil {
		return false
	}
	s.done = r.Found || r.Shown || len(r.Searched) > 0
	s.add(r.scrolled())
	if !r.Found {
		s.note = r.note()
	}
	return r.Found
}

// partial runs, once, the search for the row whose whole text a click's
// text is when the element found (res) holds it only as part of its own
// in a row of a scrolling container ("Order #73" in "Order #730"). It
// says whether the page moved under that element.
func (s *scrollHunt) partial(ctx context.Context, p *page.Page, req ActionRequest, res *checkResult, deadline time.Time) bool {
	if s.wholeDone || !res.PartOfRow {
		return false
	}
	s.wholeDone = true
	r, err := runScrollSearch(ctx, p, map[string]any{"target": req.Target.arg(), "whole": true}, time.Until(deadline)-200*time.Millisecond)
	if err != nil || (r.scrolled() == nil && len(r.Searched) == 0) {
		return false
	}
	s.add(r.scrolled())
	return true
}

// add folds in what one search scrolled: two moves of one container add
// up (the not-found search stopped on a row holding the text, the
// whole-text search went on from there); a search that scrolled nothing
// leaves what an earlier one did; a move of another container is the
// one that holds the element now found.
func (s *scrollHunt) add(r *Scrolled) {
	switch {
	case r == nil:
	case s.scrolled != nil && s.scrolled.Container == r.Container:
		s.scrolled = &Scrolled{Container: r.Container, By: s.scrolled.By + r.By}
	default:
		s.scrolled = r
	}
}

func runScrollSearch(ctx context.Context, p *page.Page, arg map[string]any, budget time.Duration) (scrollSearch, error) {
	if budget <= 0 || budget > maxScrollSearch {
		budget = maxScrollSearch
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl)-time.Second < budget {
		budget = time.Until(dl) - time.Second
	}
	var r scrollSearch
	if budget <= 0 {
		return r, nil
	}
	arg["budget"], arg["peek"] = budget.Milliseconds(), scrollPeek.Milliseconds()
	err := p.CallJS(ctx, scrollersFn(), &r, arg)
	return r, err
}

// searchScrollers looks for target through the page's scrolling
// containers, for at most budget: see js/scrollers.js.
func searchScrollers(ctx context.Context, p *page.Page, target Target, budget time.Duration) (scrollSearch, error) {
	return runScrollSearch(ctx, p, map[string]any{"target": target.arg()}, budget)
}

// SearchScrollers scrolls the page's scrolling containers, a view at a
// time, until an element q describes is rendered in one of them, for at
// most budget (the context's deadline less a second bounds it too), and
// says which container it scrolled and how far; nil when none shows one.
// A container searched in vain is put back where it was.
func SearchScrollers(ctx context.Context, p *page.Page, q ScrollQuery, budget time.Duration) (*Scrolled, error) {
	query := map[string]any{"text": q.Text, "pattern": q.Pattern, "role": q.Role, "exact": q.Exact}
	r, err := runScrollSearch(ctx, p, map[string]any{"query": query}, budget)
	if err != nil {
		return nil, err
	}
	return r.scrolled(), nil
}
