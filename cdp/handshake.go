package cdp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gorilla/websocket"
)

// A fleet server (browserless, a gateway) answers a websocket it will
// not open with an HTTP status and a sentence of its own, which says why
// far better than any guess: a bad token, a browser it no longer has, a
// server at capacity. The wire keeps both, redacted and cut short, for
// the layers above to say in the agent's words.

// HandshakeError is an endpoint's refusal of the websocket: its answer
// to the upgrade.
type HandshakeError struct {
	Status int
	// Said is the server's own words, the answer's body, redacted and cut
	// short; empty when it said nothing.
	Said string
	// RetryAfter is its Retry-After header, when it sent one.
	RetryAfter string
}

func (e *HandshakeError) Error() string {
	msg := fmt.Sprintf("the endpoint refused the websocket: HTTP %d %s", e.Status, http.StatusText(e.Status))
	if e.Said != "" {
		msg += ": " + e.Said
	}
	return msg
}

// UnansweredError is an endpoint that did not open the websocket within
// the caller's wait. Accepted: it took the connection and kept the
// upgrade waiting, as a fleet server does with a connection it queues
// beyond its concurrency limit.
type UnansweredError struct {
	Accepted bool
	Waited   time.Duration
	Err      error // context.DeadlineExceeded, or the socket's timeout
}

func (e *UnansweredError) Error() string {
	if e.Accepted {
		return fmt.Sprintf("the endpoint took the connection but did not open the websocket within %s: %v", e.Waited.Round(100*time.Millisecond), e.Err)
	}
	return fmt.Sprintf("the endpoint did not answer: %v", e.Err)
}
func (e *UnansweredError) Unwrap() error { return e.Err }

// saidMax bounds the server's words kept in a message.
const saidMax = 300

// dialError is what a failed handshake says: the server's refusal, a
// wait that ran out (the caller's, or dialWait), or the dial's error.
func dialError(ctx context.Context, err error, resp *http.Response, accepted bool, waited time.Duration) error {
	if errors.Is(err, websocket.ErrBadHandshake) && resp != nil {
		return handshakeError(resp)
	}
	var ne net.Error
	dl, hasDL := ctx.Deadline()
	switch {
	case ctx.Err() != nil:
		return &UnansweredError{Accepted: accepted, Waited: waited, Err: ctx.Err()}
	case errors.As(err, &ne) && ne.Timeout() && hasDL && !time.Now().Before(dl):
		// The socket's deadline is ctx's and may fire a hair before it.
		return &UnansweredError{Accepted: accepted, Waited: waited, Err: context.DeadlineExceeded}
	case errors.As(err, &ne) && ne.Timeout():
		return &UnansweredError{Accepted: accepted, Waited: waited, Err: fmt.Errorf("no answer within %s", dialWait)}
	}
	return err
}

func handshakeError(resp *http.Response) *HandshakeError {
	e := &HandshakeError{Status: resp.StatusCode, RetryAfter: resp.Header.Get("Retry-After")}
	if resp.Body != nil {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
		resp.Body.Close()
		e.Said = Said(string(body))
	}
	return e
}

// Said is a server's words as a message may repeat them: one line,
// URLs redacted (RedactText), at most saidMax bytes.
func Said(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	s = RedactText(s)
	if len(s) <= saidMax {
		return s
	}
	cut := saidMax
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
