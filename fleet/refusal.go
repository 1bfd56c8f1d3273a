package fleet

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/chrome"
)

// Kind is what a server's refusal means for the agent.
type Kind int

const (
	// Refused is any other refusal: its status and words say the rest.
	Refused Kind = iota
	// BadToken: the token is missing or wrong (401, 403).
	BadToken
	// Gone: the server no longer has the browser (404, 410).
	Gone
	// Full: the server is at its limits, or gave up on a queued
	// connection (408, 429, 503).
	Full
	// Queued: the server took the connection and kept it waiting past
	// the call's time, as it does beyond its concurrency limit.
	Queued
)

// kinds reads an HTTP status.
var kinds = map[int]Kind{
	http.StatusUnauthorized:       BadToken,
	http.StatusForbidden:          BadToken,
	http.StatusNotFound:           Gone,
	http.StatusGone:               Gone,
	http.StatusRequestTimeout:     Full,
	http.StatusTooManyRequests:    Full,
	http.StatusServiceUnavailable: Full,
}

// Refusal is a remote endpoint's refusal to open a browser's connection,
// with who refused and why: the server's status and its own words, and
// what the agent can do.
type Refusal struct {
	Kind Kind
	// Server names the endpoint, redacted; What is what of it refused
	// ("the websocket", "its /sessions").
	Server, What string
	Status       int
	// Said is the server's own words, redacted and cut short.
	Said string
	// RetryAfter is its Retry-After header; Limit what it says of its
	// limits (Full, Queued).
	RetryAfter, Limit string
	// Waited is how long a Queued connection waited.
	Waited time.Duration
	// TokenEnv is where calls take the token from ("" for a plain
	// endpoint, whose URL carries it); TokenForm what it holds, when it
	// is more than a key ("user:password" for a Grid's basic auth).
	TokenEnv, TokenForm string
	// NoToken: a provider's call sent none (its variable unset).
	NoToken bool
	// Why is what became of a Gone browser, when cdpskill knows.
	Why string
	Err error
}

func (r *Refusal) Error() string {
	switch r.Kind {
	case BadToken:
		if r.NoToken {
			return fmt.Sprintf("the server at %s wants a token, and the call had none (%s): %s", r.Server, r.answer(), r.tokenAdvice())
		}
		return fmt.Sprintf("the server at %s refused the token (%s): %s", r.Server, r.answer(), r.tokenAdvice())
	case Gone:
		why := r.Why
		if why == "" {
			why = "the server no longer has it (released, expired when idle, killed by the server, or the server restarted)"
		}
		return fmt.Sprintf("the browser at %s is gone (%s): %s; openTab makes a new one", r.Server, r.answer(), why)
	case Full:
		return fmt.Sprintf("the server at %s is full or queueing (%s%s): retry later%s", r.Server, r.answer(), r.limit(), r.retry())
	case Queued:
		return fmt.Sprintf("the server at %s took the connection but did not open it within %s, as a server at its concurrency limit does with those it queues%s: retry later, or give the call a longer timeout", r.Server, r.Waited.Round(100*time.Millisecond), r.limit())
	}
	return fmt.Sprintf("the server at %s refused %s (%s)", r.Server, r.what(), r.answer())
}

func (r *Refusal) Unwrap() error { return r.Err }

// answer is the server's answer: its status and its words.
func (r *Refusal) answer() string {
	s := fmt.Sprintf("HTTP %d %s", r.Status, http.StatusText(r.Status))
	if r.What != "" && r.What != "the websocket" {
		s = r.What + " answered " + s
	}
	if r.Said != "" {
		s += ": " + r.Said
	}
	return s
}

func (r *Refusal) what() string {
	if r.What == "" {
		return "the websocket"
	}
	return r.What
}

func (r *Refusal) tokenAdvice() string {
	if r.TokenEnv == "" {
		return "check the token in its URL"
	}
	if r.TokenForm != "" {
		return fmt.Sprintf("set %s=%s in the environment of every call (cdpskill reads it at each call and keeps none)", r.TokenEnv, r.TokenForm)
	}
	return fmt.Sprintf("set %s to a valid token in the environment of every call (cdpskill reads it at each call and keeps none)", r.TokenEnv)
}

// tokenFormer is a provider whose token is more than a key: tokenForm
// says what it holds.
type tokenFormer interface {
	tokenForm() string
}

func (r *Refusal) limit() string {
	if r.Limit == "" {
		return ""
	}
	return "; " + r.Limit
}

func (r *Refusal) retry() string {
	if r.RetryAfter == "" {
		return ""
	}
	return " (it says after " + r.RetryAfter + ")"
}

// refusal is a server's HTTP refusal, read by its status.
func refusal(server, what string, status int, said, retryAfter string) *Refusal {
	return &Refusal{Kind: kinds[status], Server: server, What: what, Status: status, Said: said, RetryAfter: retryAfter}
}

// limiter is a provider that can say what its server's limits are.
type limiter interface {
	limits(ctx context.Context, ep chrome.Endpoint) string
}

// limitsWait bounds asking a server for its limits, after it refused.
const limitsWait = time.Second

// Explain reads err, the failure to reach the remote browser at ep, and
// returns it as a *Refusal when the server refused or queued the
// connection; any other error as it is.
func Explain(ctx context.Context, ep chrome.Endpoint, err error) error {
	if err == nil || !ep.Remote() {
		return err
	}
	p, perr := Lookup(ep.Provider)
	if perr != nil {
		return err
	}
	var r *Refusal
	var he *cdp.HandshakeError
	var ue *cdp.UnansweredError
	switch {
	case errors.As(err, &r):
	case errors.As(err, &he):
		r = refusal(ep.String(), "the websocket", he.Status, he.Said, he.RetryAfter)
	case errors.As(err, &ue) && ue.Accepted:
		r = &Refusal{Kind: Queued, Server: ep.String(), Waited: ue.Waited}
	default:
		return err
	}
	r.TokenEnv = p.TokenEnv()
	r.NoToken = r.TokenEnv != "" && ep.Token == ""
	if r.Kind == Gone {
		r.Why = Expired(ep, time.Now())
	}
	if f, ok := p.(tokenFormer); ok {
		r.TokenForm = f.tokenForm()
	}
	if r.Err == nil && !errors.As(err, new(*Refusal)) {
		r.Err = err // a refusal that err is, or wraps, would wrap itself
	}
	if l, ok := p.(limiter); ok && (r.Kind == Full || r.Kind == Queued) && r.Limit == "" {
		// The call's own time may be over: a moment more for the answer.
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), limitsWait)
		r.Limit = l.limits(lctx, ep)
		cancel()
	}
	return r
}

// IsGone reports whether err says the server no longer has the browser.
func IsGone(err error) bool {
	var r *Refusal
	return errors.As(err, &r) && r.Kind == Gone
}
