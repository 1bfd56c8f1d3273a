package cdp

import (
	"context"
	"encoding/json"
)

// Session is a flat session attached to one target; its calls and events
// travel over the browser connection tagged with the session id, or over
// the target's own websocket (TabSession) with none.
type Session struct {
	conn     *Conn
	ID       string
	TargetID string
}

// Adopt wraps a session Chrome opened itself: one it attached to a target
// of targetID under Target.setAutoAttach, announced by
// Target.attachedToTarget.
func Adopt(c *Conn, sessionID, targetID string) *Session {
	return &Session{conn: c, ID: sessionID, TargetID: targetID}
}

// TabSession is the session of the tab whose own websocket c is
// (chrome.DialTab): its messages carry no session id.
func TabSession(c *Conn, targetID string) *Session {
	return &Session{conn: c, TargetID: targetID}
}

// Browser is the connection's own session, with no session id: its
// commands go to the browser, or, over a tab's own websocket, to the tab
// (which hands the browser's domains, Target and Browser, on).
func (c *Conn) Browser() *Session { return &Session{conn: c} }

// Conn is the browser connection the session travels over.
func (s *Session) Conn() *Conn { return s.conn }

// Call sends method to the session's target.
func (s *Session) Call(ctx context.Context, method string, params, result any) error {
	return s.conn.Call(ctx, s.ID, method, params, result)
}

// CallRaw is Call returning the undecoded result.
func (s *Session) CallRaw(ctx context.Context, method string, params any) (json.RawMessage, error) {
	return s.conn.CallRaw(ctx, s.ID, method, params)
}

// Send writes method to the session's target without waiting for the
// reply (see Conn.Send).
func (s *Session) Send(ctx context.Context, method string, params any) *Sent {
	return s.conn.Send(ctx, s.ID, method, params)
}

// Listen subscribes to the session's events.
func (s *Session) Listen(methods ...string) *Listener {
	return s.conn.Listen(s.ID, methods...)
}
