// Package cdp is the wire of the Chrome DevTools Protocol: one websocket
// to a browser or a tab, calls matched to their replies by id, flat
// sessions routed by sessionId, events queued for their listeners, and the
// errors a call can end in. It imports nothing else of cdpskill's: finding,
// launching and reaching a Chrome is package chrome's job, the tabs' aliases
// package tabs'.
package cdp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// Conn is one websocket to Chrome's browser endpoint. One goroutine reads
// and routes replies by id and events by sessionId; writes are serialised.
// When the socket closes every pending call fails at once with a
// *ClosedError, so no caller can hang on a dead browser.
type Conn struct {
	ws     *websocket.Conn
	nextID atomic.Int64
	// name is the endpoint, redacted, for the errors of a dropped socket.
	name string
	// opened is when the handshake completed: a dropped socket says how
	// long it lived (a fleet server's job timeout cuts it at a round time).
	opened time.Time

	writeMu sync.Mutex

	mu        sync.Mutex
	pending   map[int64]pendingCall
	listeners map[*Listener]struct{}
	closeErr  error
	done      chan struct{}
}

// writeTimeout bounds one frame's write to Chrome.
const writeTimeout = 10 * time.Second

// pendingCall is a call awaiting its reply.
type pendingCall struct {
	ch    chan reply
	trace *traced // nil unless tracing
}

type reply struct {
	result json.RawMessage
	err    error
}

// message is every frame Chrome sends: a reply has an id, an event a method.
type message struct {
	ID        int64
	SessionID string
	Method    string
	Params    json.RawMessage
	Result    json.RawMessage
	Error     *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"` // a string from Chrome, but any JSON must not lose the reply
	}
}

// parseMessage reads a frame's envelope; params and result stay slices
// of data (fields.go). ok is false for a frame that is no JSON object or
// whose id, method, sessionId or error is not of its type.
func parseMessage(data []byte) (m message, ok bool) {
	var err error
	ok = Fields(data, func(key string, v json.RawMessage) bool {
		switch key {
		case "id":
			err = json.Unmarshal(v, &m.ID)
		case "sessionId":
			err = json.Unmarshal(v, &m.SessionID)
		case "method":
			err = json.Unmarshal(v, &m.Method)
		case "params":
			m.Params = v
		case "result":
			m.Result = v
		case "error":
			err = json.Unmarshal(v, &m.Error)
		}
		return err == nil
	})
	return m, ok && err == nil
}

// errorData renders an error reply's data: a JSON string unquoted, any
// other value as its JSON text.
func errorData(raw json.RawMessage) string {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s
	}
	return string(raw)
}

// dialWait bounds the websocket handshake (TCP, TLS, upgrade) when the
// caller set no deadline; with one, the caller's wait is the wait: a
// fleet server may hold a connection in its queue for as long.
const dialWait = 15 * time.Second

// Dial opens the browser websocket at wsURL (ws:// or wss://; a query
// string, such as a gateway's token, is sent as it is).
func Dial(ctx context.Context, wsURL string) (*Conn, error) {
	return DialAs(ctx, wsURL, RedactURL(wsURL))
}

// DialAs is Dial naming the endpoint name, which must hold no secret, in
// its errors. An endpoint that refuses the websocket is a
// *HandshakeError, with the server's own words; one that does not
// answer in time an *UnansweredError; both inside a *ConnectError.
func DialAs(ctx context.Context, wsURL, name string) (*Conn, error) {
	return DialHeader(ctx, wsURL, name, nil)
}

// DialHeader is DialAs sending header with the handshake's request (a
// fleet server's Authorization), which no error repeats.
func DialHeader(ctx context.Context, wsURL, name string, header http.Header) (*Conn, error) {
	var accepted atomic.Bool
	nd := &net.Dialer{}
	d := websocket.Dialer{ReadBufferSize: 64 << 10, WriteBufferSize: 64 << 10,
		NetDialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := nd.DialContext(ctx, network, addr)
			accepted.Store(err == nil)
			return c, err
		}}
	if _, ok := ctx.Deadline(); !ok {
		d.HandshakeTimeout = dialWait
	}
	start := time.Now()
	ws, resp, err := d.DialContext(ctx, wsURL, header)
	if err != nil {
		return nil, &ConnectError{Endpoint: name, Err: dialError(ctx, err, resp, accepted.Load(), time.Since(start))}
	}
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
	ws.SetReadLimit(-1) // snapshots of huge pages run to many MiB
	c := &Conn{
		name:      name,
		opened:    time.Now(),
		ws:        ws,
		pending:   map[int64]pendingCall{},
		listeners: map[*Listener]struct{}{},
		done:      make(chan struct{}),
	}
	go c.readLoop()
	return c, nil
}

// Done is closed when the socket has closed.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err is why the socket closed, or nil while it is open.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closeErr
}

// Close closes the socket; pending calls fail with a *ClosedError.
func (c *Conn) Close() error {
	c.writeMu.Lock()
	_ = c.ws.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""))
	c.writeMu.Unlock()
	err := c.ws.Close()
	<-c.done
	return err
}

// Call sends method with params to the session (the browser when sessionID
// is empty) and decodes the reply's result into result, which may be nil.
func (c *Conn) Call(ctx context.Context, sessionID, method string, params, result any) error {
	raw, err := c.CallRaw(ctx, sessionID, method, params)
	if err != nil || result == nil {
		return err
	}
	if err := json.Unmarshal(raw, result); err != nil {
		return fmt.Errorf("cdp: decode %s result: %w", method, err)
	}
	return nil
}

// CallRaw is Call returning the undecoded result.
func (c *Conn) CallRaw(ctx context.Context, sessionID, method string, params any) (json.RawMessage, error) {
	s := c.Send(ctx, sessionID, method, params)
	defer s.Forget() // a call given up on takes no reply
	return s.WaitRaw(ctx)
}

// Sent is a call written to Chrome whose reply may not have come yet. It
// is waited for by one goroutine at a time.
type Sent struct {
	c      *Conn
	id     int64
	method string
	ch     chan reply
	err    error // the call could not be sent
	got    bool  // r holds the reply
	r      reply
}

// Send writes method to the session now and returns at once; Wait reads
// the reply. Calls sent one after another reach Chrome in that order, so
// a worker paused at its start can be set up and resumed with one send
// each, none waiting on a reply that comes only once the worker runs.
func (c *Conn) Send(ctx context.Context, sessionID, method string, params any) *Sent {
	s := &Sent{c: c, method: method}
	if s.err = ctx.Err(); s.err != nil {
		return s
	}
	s.id = c.nextID.Add(1)
	s.ch = make(chan reply, 1)
	c.mu.Lock()
	if c.closeErr != nil {
		s.err = c.closeErr
		c.mu.Unlock()
		return s
	}
	c.pending[s.id] = pendingCall{s.ch, newTraced(ctx, method, sessionID)}
	c.mu.Unlock()

	if params == nil {
		params = struct{}{}
	}
	frame := struct {
		ID        int64  `json:"id"`
		SessionID string `json:"sessionId,omitempty"`
		Method    string `json:"method"`
		Params    any    `json:"params"`
	}{s.id, sessionID, method, params}
	data, err := json.Marshal(frame)
	if err != nil {
		s.Forget()
		s.err = fmt.Errorf("cdp: encode %s: %w", method, err)
		return s
	}
	c.writeMu.Lock()
	// A fixed write deadline, not ctx's: a write that fails half-way
	// leaves the socket unusable, so only a truly stuck peer may break it.
	_ = c.ws.SetWriteDeadline(time.Now().Add(writeTimeout))
	err = c.ws.WriteMessage(websocket.TextMessage, data)
	c.writeMu.Unlock()
	if err != nil {
		s.Forget()
		c.shutdown(&ClosedError{Endpoint: c.name, Err: err, After: time.Since(c.opened)})
		s.err = c.Err()
	}
	return s
}

// Wait reads the reply and decodes its result into result, which may be
// nil.
func (s *Sent) Wait(ctx context.Context, result any) error {
	raw, err := s.WaitRaw(ctx)
	if err != nil || result == nil {
		return err
	}
	if err := json.Unmarshal(raw, result); err != nil {
		return fmt.Errorf("cdp: decode %s result: %w", s.method, err)
	}
	return nil
}

// WaitRaw is Wait returning the undecoded result. When ctx ends first the
// reply can still be waited for again: a worker paused at its start
// answers some calls only once it is resumed.
func (s *Sent) WaitRaw(ctx context.Context) (json.RawMessage, error) {
	if s.err != nil {
		return nil, s.err
	}
	if !s.got {
		select {
		case s.r = <-s.ch:
			s.got = true
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		var pe *ProtocolError
		if errors.As(s.r.err, &pe) {
			pe.Method = s.method
		}
	}
	return s.r.result, s.r.err
}

// Forget drops a call whose reply will not be waited for (again).
func (s *Sent) Forget() {
	s.c.mu.Lock()
	delete(s.c.pending, s.id)
	s.c.mu.Unlock()
}

func (c *Conn) readLoop() {
	for {
		_, data, err := c.ws.ReadMessage()
		if err != nil {
			c.shutdown(&ClosedError{Endpoint: c.name, Err: err, After: time.Since(c.opened)})
			return
		}
		m, ok := parseMessage(data)
		if !ok {
			continue // a malformed frame is not worth killing the connection for
		}
		if m.ID != 0 {
			// Taking the entry out means shutdown can never send a second
			// reply into the one-slot channel and block holding c.mu.
			c.mu.Lock()
			p, ok := c.pending[m.ID]
			delete(c.pending, m.ID)
			c.mu.Unlock()
			if !ok {
				continue
			}
			p.trace.done(len(data), m.Error != nil)
			ch := p.ch
			if m.Error != nil {
				ch <- reply{err: &ProtocolError{Code: m.Error.Code, Message: m.Error.Message, Data: errorData(m.Error.Data)}}
			} else {
				ch <- reply{result: m.Result}
			}
			continue
		}
		if m.Method != "" {
			c.dispatch(Event{SessionID: m.SessionID, Method: m.Method, Params: m.Params, At: time.Now()})
		}
	}
}

func (c *Conn) shutdown(err error) {
	c.mu.Lock()
	if c.closeErr != nil {
		c.mu.Unlock()
		return
	}
	c.closeErr = err
	for id, p := range c.pending {
		select {
		case p.ch <- reply{err: err}:
		default: // already answered
		}
		delete(c.pending, id)
	}
	c.mu.Unlock()
	_ = c.ws.Close()
	close(c.done)
}

// Deliver hands ev to c's listeners as if Chrome had sent it on c: an
// event heard on another connection to the same browser (a keeper's) that
// Chrome does not send on this one.
func (c *Conn) Deliver(ev Event) { c.dispatch(ev) }

func (c *Conn) dispatch(ev Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for l := range c.listeners {
		l.offer(ev)
	}
}
