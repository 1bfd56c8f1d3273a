package keeper

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/chrome"
	"github.com/cdpskill/cdpskill/fleet"
	"github.com/cdpskill/cdpskill/internal/private"
)

// A fleet's browser (fleet.Kept) is kept between calls by its keeper: its
// connection, dialled for holding (browserless closes a browser with its
// last connection, and the keeper's asks for no job timeout), and its
// letting go, which releases the browser: at the last closeTab of its
// tabs (Client.Release), or when no call came for the idle time, the
// keeper asks the provider to release it and exits, closing its
// connection. The server may end it too (its job timeout, a kill), and
// the keeper goes with it. Each way leaves a note, so that the call that
// finds the browser gone says why (ReleasedWhy) rather than a guess.

// releaseWait bounds a provider's release as the keeper exits.
const releaseWait = 5 * time.Second

// connect dials the keeper's browser: a fleet's with the token the call
// that started it passed on, for holding.
func connect(ctx context.Context, cfg Config) (*chrome.Browser, error) {
	ep, err := fleet.Resolve(cfg.endpoint(), nil, true)
	if err == nil {
		var b *chrome.Browser
		if b, err = chrome.Connect(ctx, nil, chrome.LaunchOptions{Endpoint: ep, Temp: cfg.Temp}, false); err == nil {
			return b, nil
		}
	}
	err = fleet.Explain(ctx, ep, err)
	var r *fleet.Refusal
	if errors.As(err, &r) {
		return nil, errors.New(r.Error())
	}
	return nil, fmt.Errorf("cannot reach Chrome at %s: %w", cdp.RedactURL(cfg.Endpoint.String()), err)
}

// endpoint is the keeper's browser with its token.
func (cfg Config) endpoint() chrome.Endpoint {
	ep := cfg.Endpoint
	ep.Token = cfg.Token
	return ep
}

// keepAliveWait bounds a ping within a tick: with the tick's own second,
// a call waiting for the tick stays within askWait.
const keepAliveWait = time.Second

// keepAlive pings the kept browser, when due, at a server that ends a
// session it sees no command for (a Selenium Grid's session timeout):
// while the keeper keeps it, its server does not end it. A failed ping
// is logged, and the next tick tries again.
func (k *keeper) keepAlive(ctx context.Context, now time.Time) {
	every := fleet.KeepAliveEvery(k.cfg.Endpoint)
	if !k.kept || every <= 0 || now.Sub(k.pinged) < every {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, keepAliveWait)
	defer cancel()
	if err := fleet.KeepAlive(ctx, k.cfg.endpoint()); err != nil {
		k.log.Printf("could not keep the browser alive at its server: %s", cdp.RedactText(err.Error()))
		return
	}
	k.pinged = now
}

// releaseNote is what a keeper leaves when its fleet's browser ended.
type releaseNote struct {
	At  time.Time `json:"at"`
	Why string    `json:"why"`
}

// letGo marks the browser released, saying why (after "cdpskill released
// it at 14:02:11 "); the keeper then exits, and releases it (releaseBrowser).
func (k *keeper) letGo(now time.Time, why string) {
	k.released = fmt.Sprintf("cdpskill released it at %s %s", now.Local().Format("15:04:05"), why)
	k.letGoAt = now
}

// connectionLost says why the keeper ends when its browser's connection
// closed, and notes a kept browser the server ended. A REST provider's
// session outlives a connection the server cut (a proxy's limit, a
// network blip): one that can still be reached is left to the next call's
// keeper, not reported ended.
func (k *keeper) connectionLost(now time.Time) string {
	if !k.kept {
		return "Chrome is gone"
	}
	if k.cfg.Endpoint.Session != "" && k.released == "" && k.reachable() {
		k.log.Print("the server closed the keeper's connection, and the session is still there")
		return "the server closed its connection"
	}
	k.endedByServer(now)
	return "the browser is gone"
}

// reachable reports whether the kept browser answers a new connection.
func (k *keeper) reachable() bool {
	ctx, cancel := context.WithTimeout(context.Background(), reachWait)
	defer cancel()
	b, err := connect(ctx, k.cfg)
	if err != nil {
		return false
	}
	b.Conn.Close()
	return true
}

// reachWait bounds trying the kept browser again after its connection
// closed.
const reachWait = 5 * time.Second

// endedByServer notes a kept browser whose connection the server ended.
func (k *keeper) endedByServer(now time.Time) {
	if k.released != "" {
		return
	}
	after := Duration(now.Sub(k.started).Round(time.Second))
	if why := fleet.Expired(k.cfg.Endpoint, now); why != "" {
		k.released = fmt.Sprintf("%s ended its session at %s: %s", k.cfg.Endpoint.Provider, now.Local().Format("15:04:05"), why)
		return
	}
	if k.cfg.Endpoint.Session != "" { // a REST provider's session outlives connections
		k.released = fmt.Sprintf("%s ended its session at %s, after %s (its own timeout, or it was released or killed there)",
			k.cfg.Endpoint.Provider, now.Local().Format("15:04:05"), after)
		return
	}
	k.released = fmt.Sprintf("the server ended the connection that kept it at %s, after %s (its job timeout, or it was killed there), and a browser goes with its last connection",
		now.Local().Format("15:04:05"), after)
}

// releaseBrowser ends the keeper's hold on a fleet's browser as it exits for
// why: the provider releases one it let go of, and a note says what
// became of it (its connection closes as the keeper exits).
func (k *keeper) releaseBrowser(why string) {
	if !k.kept {
		return
	}
	switch {
	case k.released != "":
	case k.cfg.Endpoint.Session != "":
		// A REST provider's session outlives the keeper's connection: the
		// next call's keeper holds it again, unless the service ended it.
		k.released = fmt.Sprintf("its keeper stopped at %s (%s), which left the session to %s's own timeout", time.Now().Local().Format("15:04:05"), why, k.cfg.Endpoint.Provider)
	default:
		k.released = fmt.Sprintf("its keeper stopped at %s (%s), and the browser went with its connection", time.Now().Local().Format("15:04:05"), why)
	}
	// The note comes first: a call that sees the browser gone, once the
	// provider released it, finds why.
	data, _ := json.Marshal(releaseNote{At: time.Now(), Why: k.released})
	if err := k.cfg.Temp.WriteFile(releasedPath(k.dir), data); err != nil {
		k.log.Print(err)
	}
	k.log.Print(k.released)
	if k.letGoAt.IsZero() {
		return
	}
	if p, err := fleet.Lookup(k.cfg.Endpoint.Provider); err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), releaseWait)
		if err := p.Release(ctx, k.cfg.endpoint()); err != nil {
			k.log.Printf("the provider may not have released it: %s", cdp.RedactText(err.Error()))
		}
		cancel()
	}
}

// ReleasedWhy says what became of the held browser at ep, when its
// keeper knows; "" otherwise.
func ReleasedWhy(temp private.Temp, ep chrome.Endpoint) string {
	data, err := temp.ReadFile(releasedPath(Dir(temp, ep)), 1<<12)
	if err != nil {
		return ""
	}
	var n releaseNote
	if json.Unmarshal(data, &n) != nil {
		return ""
	}
	return n.Why
}

// Release has the keeper of the fleet's browser at ep let go of it, its
// last tab closed, which releases it. done is false when no keeper
// answered: the caller releases it then.
func (c *Client) Release(ctx context.Context, ep chrome.Endpoint) (done bool, err error) {
	if c == nil {
		return false, nil
	}
	rec, ok := readRecord(c.Temp, Dir(c.Temp, ep))
	if !ok {
		return false, nil
	}
	rep, err := ask(ctx, rec, request{Version: protocol, Op: "release"})
	if err != nil {
		return false, nil // gone or hung: nothing of it to wait for
	}
	if rep.Failure != nil && !rep.Failure.Exiting {
		return false, errors.New(rep.Failure.Message)
	}
	return true, nil
}

// noteFailure leaves why a keeper could not start, for the call that
// started it (Client.start).
func noteFailure(temp private.Temp, dir string, err error) {
	_ = temp.WriteFile(failedPath(dir), []byte(cdp.RedactText(err.Error())))
}

// takeFailure is the failure a keeper that exited at once noted.
func takeFailure(temp private.Temp, dir string) string {
	data, err := temp.ReadFile(failedPath(dir), 1<<12)
	if err != nil {
		return ""
	}
	_ = os.Remove(failedPath(dir))
	return string(data)
}

// Keep has a keeper keep the fleet's browser at ep (fleet.Kept) until
// its last tab closes or no call comes for the idle time; it starts one
// when none runs. ep carries the call's token (fleet.Resolve), which the
// keeper dials with.
func (c *Client) Keep(ctx context.Context, ep chrome.Endpoint, session string) (note string, err error) {
	if c == nil || c.Exe == nil {
		return "", errNoExe
	}
	_, _, note, _, err = c.do(ctx, ep, request{Op: "visit", Session: session}, true)
	return note, err
}
