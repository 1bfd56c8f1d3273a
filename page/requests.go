package page

import "context"

// TrackRequests tells every Page of the tab how to learn which of the
// tab's requests are under way: f, from the caller's network capture,
// returns their URLs. The page itself cannot say (its timing records
// hold only requests that have ended), and a wait that gives up on a
// still page must not give up while an answer that may render what it
// waits for is on its way.
func (p *Page) TrackRequests(f func(context.Context) []string) {
	fs := p.frameState()
	fs.mu.Lock()
	fs.inFlight = f
	fs.mu.Unlock()
}

// RequestsInFlight returns the URLs of the tab's requests under way, as
// TrackRequests' function knows them; nil when none are, or when no one
// tracks them.
func (p *Page) RequestsInFlight(ctx context.Context) []string {
	fs := p.frameState()
	fs.mu.Lock()
	f := fs.inFlight
	fs.mu.Unlock()
	if f == nil {
		return nil
	}
	return f(ctx)
}
