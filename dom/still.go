package dom

import (
	"context"
	"errors"
	"time"

	"github.com/cdpskill/cdpskill/page"
)

// StillFor is how long a page must have stood still before an action
// whose target is nowhere on it fails, rather than wait out
// DefaultTimeout (issue 21): a wrong guess should cost a second, not
// five. Still means no DOM change and no response arriving in that
// time, nothing loading or animating, and no request under way.
const StillFor = time.Second

// stillReply is js/still.js's answer.
type stillReply struct {
	Quiet     float64 `json:"quiet"` // ms since the DOM changed or a response came
	Busy      string  `json:"busy"`
	Candidate bool    `json:"candidate"`
}

// endEarly is asked after an attempt found nothing for req.Target, whose
// error is last. It says whether the wait may end now: the agent did not
// set the wait itself (req.AgentTimeout), no hidden element matches the
// target (it may yet show), and the page has been still for StillFor;
// then last says so. Otherwise it returns how long until the page could
// have been still that long (0 when it is changing), for the next
// attempt to come no later. Whatever keeps it from knowing (a page
// navigating, a call cut short) means waiting on.
func endEarly(ctx context.Context, p *page.Page, req ActionRequest, last error) (bool, time.Duration) {
	if req.AgentTimeout {
		return false, 0
	}
	var r stillReply
	if err := p.CallJS(ctx, stillFn(), &r, map[string]any{"target": req.Target.arg()}); err != nil {
		return false, 0
	}
	if r.Candidate || r.Busy != "" {
		return false, 0
	}
	quiet := time.Duration(r.Quiet * float64(time.Millisecond))
	if quiet < StillFor {
		return false, StillFor - quiet
	}
	// Still, but an answer on its way may render the target (a slow API),
	// and one that has just come may not have rendered yet: the page's
	// timing records hold a fetch only once the page has read its body.
	t := p.Traffic(ctx)
	if len(t.InFlight) > 0 {
		return false, 0
	}
	if since := time.Since(t.LastEnd); since < StillFor {
		return false, StillFor - since
	}
	var nf *NotFoundError
	if errors.As(last, &nf) {
		nf.Still = quiet
	}
	return true, 0
}

// WatchStill starts recording when p's document last changed, if nothing
// does yet, so that a later call that misses its target knows how long
// the page has been still since this one (see endEarly). The runner calls
// it at the end of each call that acted on the page; it is best-effort.
func WatchStill(ctx context.Context, p *page.Page) error {
	return p.CallJS(ctx, stillFn(), nil, map[string]any{"op": "watch"})
}
