package cdp

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// ProtocolError is an error reply from Chrome, kept intact.
type ProtocolError struct {
	Method  string
	Code    int
	Message string
	Data    string
}

func (e *ProtocolError) Error() string {
	s := fmt.Sprintf("%s: %s", e.Method, e.Message)
	if e.Data != "" {
		s += " (" + e.Data + ")"
	}
	return s
}

// ClosedError means the websocket closed: Chrome exited or the tab went
// away, or a remote endpoint dropped the connection.
type ClosedError struct {
	// Endpoint names the browser (redacted), when known.
	Endpoint string
	Err      error
	// After is how long the connection had been open.
	After time.Duration
}

func (e *ClosedError) Error() string {
	if e.Endpoint != "" {
		return "connection to Chrome at " + e.Endpoint + " closed: " + RedactText(e.Err.Error())
	}
	return "connection to Chrome closed: " + RedactText(e.Err.Error())
}
func (e *ClosedError) Unwrap() error { return e.Err }

// ConnectError means Chrome, or the fleet server that hands it out, could
// not be reached at all.
type ConnectError struct {
	Endpoint string
	// What is what was not reached there: "" is Chrome, else a fleet's
	// server ("the server").
	What string
	Err  error
}

func (e *ConnectError) Error() string {
	what := e.What
	if what == "" {
		what = "Chrome"
	}
	return RedactText(fmt.Sprintf("cannot reach %s at %s: %v", what, e.Endpoint, e.Err))
}
func (e *ConnectError) Unwrap() error { return e.Err }

// Protocol messages that mean the same thing, whatever the method.
var (
	contextDestroyedPatterns = []string{
		"Cannot find context with specified id",
		"Execution context was destroyed",
		"Inspected target navigated or closed",
		"Cannot find default execution context",
	}
	staleObjectPatterns = []string{
		"Could not find object with given id",
		"Node with given id does not belong to the document",
		"No node with given id found",
		"Could not find node with given id",
		"Node is detached from document",
		"Cannot find object with id",
	}
	targetGonePatterns = []string{
		"No target with given id found",
		"No session with given id",
		"Session with given id not found",
		"Target closed",
	}
	// A browser context that is gone: Target.createTarget's and
	// Target.disposeBrowserContext's words for it.
	browserContextGonePatterns = []string{
		"Failed to find browser context with id",
		"Failed to find context with id",
	}
)

func matches(err error, patterns []string) bool {
	var pe *ProtocolError
	if !errors.As(err, &pe) {
		return false
	}
	for _, p := range patterns {
		if strings.Contains(pe.Message, p) || strings.Contains(pe.Data, p) {
			return true
		}
	}
	return false
}

// IsContextDestroyed reports whether err means the JavaScript context the
// call ran in is gone (the frame navigated or was removed).
func IsContextDestroyed(err error) bool { return matches(err, contextDestroyedPatterns) }

// IsStaleObject reports whether err means a remote object or node handle no
// longer names anything.
func IsStaleObject(err error) bool { return matches(err, staleObjectPatterns) }

// IsTargetGone reports whether err means the target or its session is gone.
func IsTargetGone(err error) bool { return matches(err, targetGonePatterns) }

// IsBrowserContextGone reports whether err means the browser context a
// command named is gone (disposed, or its browser restarted).
func IsBrowserContextGone(err error) bool { return matches(err, browserContextGonePatterns) }

// IsTargetCrashed reports whether err is Chrome refusing a command because
// the target's renderer crashed.
func IsTargetCrashed(err error) bool { return matches(err, []string{"Target crashed"}) }

// IsConnection reports whether err means Chrome itself cannot be talked to.
func IsConnection(err error) bool {
	var ce *ClosedError
	var xe *ConnectError
	return errors.As(err, &ce) || errors.As(err, &xe)
}
