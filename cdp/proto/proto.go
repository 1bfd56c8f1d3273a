// Package proto is the part of the Chrome DevTools Protocol cdpskill
// speaks, as Go types: one struct per command's parameters with a Do
// method that returns its result struct, one per event's parameters, and
// the events' names. Nothing outside it names a CDP method as a string or
// builds parameters as a map.
//
// The types are written by hand, for the methods cdpskill calls and the
// fields it reads, rather than generated from the protocol's JSON: a
// generated package would carry the protocol's 59 domains and thousands of
// fields cdpskill never sends, and the quirks each call needs (why a field
// is omitted, which reply field is trusted) belong beside its type. The
// test holds them to the protocol the test browser serves (/json/protocol):
// every method and event exists, every field is one of its parameters and
// every parameter it requires is set.
package proto

import (
	"context"
	"encoding/json"

	"github.com/cdpskill/cdpskill/cdp"
)

// Caller carries commands to a target: a *cdp.Session, or a connection's
// own (cdp.Conn.Browser) for the browser's commands.
type Caller interface {
	Call(ctx context.Context, method string, params, result any) error
	CallRaw(ctx context.Context, method string, params any) (json.RawMessage, error)
	Send(ctx context.Context, method string, params any) *cdp.Sent
}

// call sends method with params and decodes its result into a new R.
func call[R any](ctx context.Context, c Caller, method string, params any) (R, error) {
	var r R
	err := c.Call(ctx, method, params, &r)
	return r, err
}

// Empty is the result of a command that returns nothing.
type Empty struct{}

// run sends a command whose result says nothing.
func run(ctx context.Context, c Caller, method string, params any) error {
	return c.Call(ctx, method, params, nil)
}
