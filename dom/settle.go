package dom

import (
	"context"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/page"
)

// Defaults of Settle.
const (
	DefaultSettleTimeout = 3 * time.Second
	DefaultSettleStable  = 300 * time.Millisecond
)

// Settle asks for a wait until the DOM has not changed for Stable, at most
// Timeout; zero fields take the defaults.
type Settle struct {
	Timeout time.Duration
	Stable  time.Duration
}

// SettleDOM waits for the page's DOM to stop changing. Running out of
// time is a result (false), not an error; ctx still bounds the wait. A
// document replaced during the wait counts as settled: the new one has
// just been loaded.
func SettleDOM(ctx context.Context, p *page.Page, s Settle) (bool, error) {
	if s.Timeout <= 0 {
		s.Timeout = DefaultSettleTimeout
	}
	if s.Stable <= 0 {
		s.Stable = DefaultSettleStable
	}
	var r struct {
		Settled bool `json:"settled"`
	}
	arg := map[string]int64{"timeout": s.Timeout.Milliseconds(), "stable": s.Stable.Milliseconds()}
	err := p.CallJS(ctx, settleFn(), &r, arg)
	if cdp.IsContextDestroyed(err) {
		return true, nil
	}
	return r.Settled, err
}
