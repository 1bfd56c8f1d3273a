package page

import (
	"context"
	"time"
)

// Traffic is what a tab's network capture knows of its requests.
type Traffic struct {
	InFlight []string  // the URLs of the requests under way
	LastEnd  time.Time // when the latest one seen ended; zero when none did
}

// TrackRequests tells every Page of the tab how to learn of the tab's
// requests: f, from the caller's network capture. The page itself cannot
// say (its timing records hold only requests that have ended, and only
// once the page has read their bodies), and a wait that gives up on a
// still page must not give up while an answer that may render what it
// waits for is on its way or has only just come.
func (p *Page) TrackRequests(f func(context.Context) Traffic) {
	fs := p.frameState()
	fs.mu.Lock()
	fs.traffic = f
	fs.mu.Unlock()
}

// Traffic returns the tab's requests as TrackRequests' function knows
// them; nothing when no one tracks them.
func (p *Page) Traffic(ctx context.Context) Traffic {
	fs := p.frameState()
	fs.mu.Lock()
	f := fs.traffic
	fs.mu.Unlock()
	if f == nil {
		return Traffic{}
	}
	return f(ctx)
}
