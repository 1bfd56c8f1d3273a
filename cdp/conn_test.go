package cdp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
)

// The fake browser: an httptest server that upgrades to a websocket and
// hands it to a script. Scripts run on the server's goroutine, so they
// report with t.Error, never t.Fatal.

type request struct {
	ID        int64           `json:"id"`
	SessionID string          `json:"sessionId"`
	Method    string          `json:"method"`
	Params    json.RawMessage `json:"params"`
}

// dialFake starts a fake browser running script and returns a Conn to it.
func dialFake(t *testing.T, script func(ws *websocket.Conn)) *cdp.Conn {
	t.Helper()
	var up websocket.Upgrader
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := up.Upgrade(w, r, nil)
		if err != nil {
			t.Errorf("upgrade: %v", err)
			return
		}
		defer ws.Close()
		script(ws)
	}))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	c, err := cdp.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() }) // before srv.Close, so the script's reads end
	return c
}

func readRequest(t *testing.T, ws *websocket.Conn) (request, bool) {
	var req request
	_, data, err := ws.ReadMessage()
	if err != nil {
		return req, false // the client went away; the test decides if that is wrong
	}
	if err := json.Unmarshal(data, &req); err != nil {
		t.Errorf("fake browser got a malformed request %q: %v", data, err)
		return req, false
	}
	return req, true
}

func send(t *testing.T, ws *websocket.Conn, frame string) {
	if err := ws.WriteMessage(websocket.TextMessage, []byte(frame)); err != nil {
		t.Errorf("fake browser write: %v", err)
	}
}

func replyTo(t *testing.T, ws *websocket.Conn, req request, result string) {
	send(t, ws, fmt.Sprintf(`{"id":%d,"result":%s}`, req.ID, result))
}

// echoMethod answers every request with {"method": its method} until the
// client leaves.
func echoMethod(t *testing.T, ws *websocket.Conn) {
	for {
		req, ok := readRequest(t, ws)
		if !ok {
			return
		}
		replyTo(t, ws, req, fmt.Sprintf(`{"method":%q}`, req.Method))
	}
}

func callCtx(t *testing.T) context.Context {
	// Generous: every test here expects an answer long before this, and
	// proves "at once" by checking the deadline had not passed.
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestRepliesMatchedByIDOutOfOrder(t *testing.T) {
	const n = 5
	c := dialFake(t, func(ws *websocket.Conn) {
		var reqs []request
		for len(reqs) < n {
			req, ok := readRequest(t, ws)
			if !ok {
				return
			}
			reqs = append(reqs, req)
		}
		for i := len(reqs) - 1; i >= 0; i-- {
			replyTo(t, ws, reqs[i], fmt.Sprintf(`{"method":%q}`, reqs[i].Method))
		}
		echoMethod(t, ws)
	})
	ctx := callCtx(t)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			method := fmt.Sprintf("Test.call%d", i)
			var res struct{ Method string }
			if err := c.Call(ctx, "", method, nil, &res); err != nil {
				t.Errorf("%s: %v", method, err)
				return
			}
			if res.Method != method {
				t.Errorf("%s got the reply meant for %s", method, res.Method)
			}
		})
	}
	wg.Wait()
}

// Send writes at once, in order, and each Wait gets its own reply however
// Chrome orders them: a worker paused at start answers nothing until the
// last call sent resumes it.
func TestSendOrderedWaitLater(t *testing.T) {
	methods := []string{"Network.enable", "Runtime.enable", "Runtime.runIfWaitingForDebugger"}
	c := dialFake(t, func(ws *websocket.Conn) {
		var reqs []request
		for len(reqs) < len(methods) {
			req, ok := readRequest(t, ws)
			if !ok {
				return
			}
			if req.Method != methods[len(reqs)] || req.SessionID != "W1" {
				t.Errorf("call %d arrived as %s on %q", len(reqs), req.Method, req.SessionID)
			}
			reqs = append(reqs, req)
		}
		for i := len(reqs) - 1; i >= 0; i-- {
			replyTo(t, ws, reqs[i], fmt.Sprintf(`{"method":%q}`, reqs[i].Method))
		}
		echoMethod(t, ws)
	})
	ctx := callCtx(t)
	s := cdp.Adopt(c, "W1", "T1")
	var sent []*cdp.Sent
	for _, m := range methods {
		sent = append(sent, s.Send(ctx, m, nil))
	}
	for i, w := range sent {
		var res struct{ Method string }
		if err := w.Wait(ctx, &res); err != nil || res.Method != methods[i] {
			t.Errorf("%s: %v, got the reply of %q", methods[i], err, res.Method)
		}
	}
}

func TestEventsRoutedBySession(t *testing.T) {
	c := dialFake(t, func(ws *websocket.Conn) {
		for {
			req, ok := readRequest(t, ws)
			if !ok {
				return
			}
			switch req.Method {
			case "Target.attachToTarget":
				replyTo(t, ws, req, `{"sessionId":"S1"}`)
			case "Test.emit":
				if req.SessionID != "S1" {
					t.Errorf("Test.emit went to session %q, want S1", req.SessionID)
				}
				send(t, ws, `{"method":"E.a","sessionId":"S1","params":{"n":1}}`)
				send(t, ws, `{"method":"E.a","sessionId":"S2","params":{"n":2}}`)
				send(t, ws, `{"method":"E.b","params":{"n":3}}`)
				send(t, ws, `{"method":"E.c","sessionId":"S1","params":{"n":4}}`)
				replyTo(t, ws, req, `{}`)
			}
		}
	})
	ctx := callCtx(t)
	s, err := proto.Attach(ctx, c, "T1")
	if err != nil {
		t.Fatal(err)
	}
	all1 := s.Listen()
	only1c := s.Listen("E.c")
	all2 := c.Listen("S2")
	browserLevel := c.Listen("")
	closed := s.Listen()
	closed.Close()

	// The read loop queues events before it delivers the reply that
	// follows them, so once Call returns every listener has its share.
	if err := s.Call(ctx, "Test.emit", nil, nil); err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		l    *cdp.Listener
		want string
	}{
		"session S1, all methods": {all1, "S1 E.a 1, S1 E.c 4"},
		"session S1, E.c only":    {only1c, "S1 E.c 4"},
		"session S2":              {all2, "S2 E.a 2"},
		"browser":                 {browserLevel, " E.b 3"},
		"closed listener":         {closed, ""},
	} {
		if got := describe(tc.l.Drain()); got != tc.want {
			t.Errorf("%s: got [%s], want [%s]", name, got, tc.want)
		}
	}
}

func describe(evs []cdp.Event) string {
	var parts []string
	for _, ev := range evs {
		var p struct{ N int }
		_ = json.Unmarshal(ev.Params, &p)
		parts = append(parts, fmt.Sprintf("%s %s %d", ev.SessionID, ev.Method, p.N))
	}
	return strings.Join(parts, ", ")
}

func TestSocketCloseFailsPendingCalls(t *testing.T) {
	const n = 3
	c := dialFake(t, func(ws *websocket.Conn) {
		for range n {
			if _, ok := readRequest(t, ws); !ok {
				return
			}
		}
		ws.Close() // Chrome dies with every call unanswered
	})
	ctx := callCtx(t)
	errs := make(chan error, n)
	for range n {
		go func() { errs <- c.Call(ctx, "", "Test.neverAnswered", nil, nil) }()
	}
	for range n {
		err := <-errs
		var ce *cdp.ClosedError
		if !errors.As(err, &ce) {
			t.Fatalf("pending call: got %v (%T), want *cdp.ClosedError", err, err)
		}
	}
	if ctx.Err() != nil {
		t.Fatal("pending calls only failed when their deadline passed")
	}
	<-c.Done()
	if c.Err() == nil {
		t.Error("Err is nil after the socket closed")
	}

	err := c.Call(ctx, "", "Test.afterClose", nil, nil)
	var ce *cdp.ClosedError
	if !errors.As(err, &ce) || !cdp.IsConnection(err) {
		t.Fatalf("call after close: got %v (%T), want *cdp.ClosedError", err, err)
	}
	if ctx.Err() != nil {
		t.Fatal("a call after close waited for its deadline")
	}
}

func TestCallsAfterOwnCloseFailAtOnce(t *testing.T) {
	c := dialFake(t, func(ws *websocket.Conn) { echoMethod(t, ws) })
	ctx := callCtx(t)
	if err := c.Call(ctx, "", "Test.before", nil, nil); err != nil {
		t.Fatal(err)
	}
	l := c.Listen("")
	c.Close()
	var ce *cdp.ClosedError
	if err := c.Call(ctx, "", "Test.after", nil, nil); !errors.As(err, &ce) {
		t.Fatalf("call after Close: got %v (%T), want *cdp.ClosedError", err, err)
	}
	if _, err := l.Next(ctx); !errors.As(err, &ce) {
		t.Fatalf("Next after Close: got %v (%T), want *cdp.ClosedError", err, err)
	}
	if ctx.Err() != nil {
		t.Fatal("calls after Close waited for their deadline")
	}
}

func TestMalformedFramesAreSkipped(t *testing.T) {
	c := dialFake(t, func(ws *websocket.Conn) {
		req, ok := readRequest(t, ws)
		if !ok {
			return
		}
		for _, junk := range []string{
			`not json at all`,
			`{"id":`,
			`[1,2,3]`,
			`{"id":"seven","result":{}}`,
			`{"method":17}`,
			`{"id":987654,"result":{"stray":true}}`, // nobody asked
			`{"params":{"orphan":true}}`,            // neither reply nor event
		} {
			send(t, ws, junk)
		}
		if err := ws.WriteMessage(websocket.BinaryMessage, []byte{0xff, 0x00, 0xfe}); err != nil {
			t.Errorf("write binary: %v", err)
		}
		replyTo(t, ws, req, `{"method":"Test.first"}`)
		echoMethod(t, ws)
	})
	ctx := callCtx(t)
	for _, method := range []string{"Test.first", "Test.second"} {
		var res struct{ Method string }
		if err := c.Call(ctx, "", method, nil, &res); err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		if res.Method != method {
			t.Fatalf("%s: got reply %q", method, res.Method)
		}
	}
}

func TestProtocolErrorReply(t *testing.T) {
	c := dialFake(t, func(ws *websocket.Conn) {
		for {
			req, ok := readRequest(t, ws)
			if !ok {
				return
			}
			data := `"extra detail"`
			if req.Method == "Test.objectData" {
				data = `{"detail":42}` // not what Chrome sends, but must not lose the reply
			}
			send(t, ws, fmt.Sprintf(`{"id":%d,"error":{"code":-32000,"message":"Cannot find context with specified id","data":%s}}`, req.ID, data))
		}
	})
	ctx := callCtx(t)
	for method, wantData := range map[string]string{
		"Runtime.evaluate": "extra detail",
		"Test.objectData":  `{"detail":42}`,
	} {
		err := c.Call(ctx, "", method, map[string]any{"expression": "1"}, nil)
		var pe *cdp.ProtocolError
		if !errors.As(err, &pe) {
			t.Fatalf("%s: got %v (%T), want *cdp.ProtocolError", method, err, err)
		}
		want := cdp.ProtocolError{Method: method, Code: -32000, Message: "Cannot find context with specified id", Data: wantData}
		if *pe != want {
			t.Errorf("%s: got %+v, want %+v", method, *pe, want)
		}
		if !cdp.IsContextDestroyed(err) {
			t.Errorf("%s: IsContextDestroyed is false for %v", method, err)
		}
	}
}

func TestContextEndsCall(t *testing.T) {
	received := make(chan struct{}, 4)
	c := dialFake(t, func(ws *websocket.Conn) {
		for {
			req, ok := readRequest(t, ws)
			if !ok {
				return
			}
			if req.Method == "Test.hang" {
				received <- struct{}{}
				continue
			}
			replyTo(t, ws, req, `{}`)
		}
	})

	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		<-received
		cancel()
	}()
	if err := c.Call(ctx, "", "Test.hang", nil, nil); err != context.Canceled {
		t.Fatalf("cancelled call: got %v, want context.Canceled", err)
	}

	dctx, dcancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer dcancel()
	if err := c.Call(dctx, "", "Test.hang", nil, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("call past its deadline: got %v, want context.DeadlineExceeded", err)
	}

	if err := c.Call(ctx, "", "Test.neverSent", nil, nil); err != context.Canceled {
		t.Fatalf("call with a cancelled ctx: got %v, want context.Canceled", err)
	}

	// Abandoned calls leave the connection usable.
	if err := c.Call(callCtx(t), "", "Test.ok", nil, nil); err != nil {
		t.Fatalf("call after abandoned ones: %v", err)
	}
}

func TestListenerDrainsQueueBeforeCloseError(t *testing.T) {
	c := dialFake(t, func(ws *websocket.Conn) {
		if _, ok := readRequest(t, ws); !ok {
			return
		}
		for i := 1; i <= 3; i++ {
			send(t, ws, fmt.Sprintf(`{"method":"E.tick","params":{"n":%d}}`, i))
		}
		ws.Close()
	})
	ctx := callCtx(t)
	l := c.Listen("", "E.tick")
	var ce *cdp.ClosedError
	if err := c.Call(ctx, "", "Test.tickThenDie", nil, nil); !errors.As(err, &ce) {
		t.Fatalf("got %v, want *cdp.ClosedError", err)
	}
	<-c.Done()
	for want := 1; want <= 3; want++ {
		ev, err := l.Next(ctx)
		if err != nil {
			t.Fatalf("event %d: %v (queued events must come before the close error)", want, err)
		}
		if got := describe([]cdp.Event{ev}); got != fmt.Sprintf(" E.tick %d", want) {
			t.Fatalf("event %d: got %q", want, got)
		}
	}
	if _, err := l.Next(ctx); !errors.As(err, &ce) {
		t.Fatalf("after the queue: got %v, want *cdp.ClosedError", err)
	}
	if ctx.Err() != nil {
		t.Fatal("Next waited for its deadline on a closed connection")
	}
}

func TestErrorPatterns(t *testing.T) {
	pe := func(msg, data string) error {
		return &cdp.ProtocolError{Method: "Runtime.callFunctionOn", Code: -32000, Message: msg, Data: data}
	}
	tests := []struct {
		name                   string
		err                    error
		destroyed, stale, gone bool
	}{
		{"context id", pe("Cannot find context with specified id", ""), true, false, false},
		{"context destroyed", pe("Execution context was destroyed.", ""), true, false, false},
		{"target navigated", pe("Inspected target navigated or closed", ""), true, false, false},
		{"default context", pe("Cannot find default execution context", ""), true, false, false},
		{"object id", pe("Could not find object with given id", ""), false, true, false},
		{"node not in document", pe("Node with given id does not belong to the document", ""), false, true, false},
		{"no node", pe("No node with given id found", ""), false, true, false},
		{"could not find node", pe("Could not find node with given id", ""), false, true, false},
		{"detached", pe("Node is detached from document", ""), false, true, false},
		{"cannot find object", pe("Cannot find object with id", ""), false, true, false},
		{"no target", pe("No target with given id found", ""), false, false, true},
		{"no session", pe("No session with given id", ""), false, false, true},
		{"session not found", pe("Session with given id not found.", ""), false, false, true},
		{"target closed", pe("Target closed", ""), false, false, true},
		{"pattern in data", pe("Internal error", "Could not find object with given id"), false, true, false},
		{"wrapped", fmt.Errorf("click: %w", pe("Execution context was destroyed.", "")), true, false, false},
		{"unrelated protocol error", pe("Invalid parameters", "Failed to deserialize params.url"), false, false, false},
		{"same text, not a protocol error", errors.New("Execution context was destroyed."), false, false, false},
		{"nil", nil, false, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := cdp.IsContextDestroyed(tc.err); got != tc.destroyed {
				t.Errorf("IsContextDestroyed = %v", got)
			}
			if got := cdp.IsStaleObject(tc.err); got != tc.stale {
				t.Errorf("IsStaleObject = %v", got)
			}
			if got := cdp.IsTargetGone(tc.err); got != tc.gone {
				t.Errorf("IsTargetGone = %v", got)
			}
		})
	}
}

func TestIsBrowserContextGone(t *testing.T) {
	pe := func(method, msg string) error { return &cdp.ProtocolError{Method: method, Code: -32602, Message: msg} }
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{pe("Target.createTarget", "Failed to find browser context with id 1BF7BC66654D09C87F95B6345A3617AE"), true},
		{pe("Target.disposeBrowserContext", "Failed to find context with id 1BF7BC66654D09C87F95B6345A3617AE"), true},
		{pe("Runtime.evaluate", "Cannot find context with specified id"), false},
		{pe("Target.createTarget", "No target with given id found"), false},
		{errors.New("Failed to find browser context with id 1"), false},
	} {
		if got := cdp.IsBrowserContextGone(tc.err); got != tc.want {
			t.Errorf("IsBrowserContextGone(%v) = %v", tc.err, got)
		}
	}
}

func TestIsConnection(t *testing.T) {
	for name, tc := range map[string]struct {
		err  error
		want bool
	}{
		"closed":         {&cdp.ClosedError{Err: errors.New("EOF")}, true},
		"connect":        {&cdp.ConnectError{Endpoint: "localhost:9222", Err: errors.New("refused")}, true},
		"wrapped closed": {fmt.Errorf("step 2: %w", &cdp.ClosedError{Err: errors.New("EOF")}), true},
		"protocol":       {&cdp.ProtocolError{Method: "Page.navigate", Message: "Target closed"}, false},
		"deadline":       {context.DeadlineExceeded, false},
	} {
		if got := cdp.IsConnection(tc.err); got != tc.want {
			t.Errorf("%s: IsConnection = %v, want %v", name, got, tc.want)
		}
	}
}

// A trace is the context's: calls under it are recorded in it, in reply
// order, with its marks; calls under another context, on the same
// connection at the same time, are not.
func TestTraceIsTheContexts(t *testing.T) {
	c := dialFake(t, func(ws *websocket.Conn) { echoMethod(t, ws) })
	tr := cdp.NewTrace()
	traced := cdp.WithTrace(callCtx(t), tr)
	if err := c.Call(traced, "", "Test.first", nil, nil); err != nil {
		t.Fatal(err)
	}
	tr.Mark("between")
	if err := c.Call(callCtx(t), "", "Test.untraced", nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Call(traced, "S123456789", "Test.second", nil, nil); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range tr.Entries() {
		got = append(got, e.Method+"/"+e.Session)
	}
	if want := []string{"Test.first/", "· between/", "Test.second/S1234567"}; !slices.Equal(got, want) {
		t.Errorf("trace %v, want %v", got, want)
	}
	var none *cdp.Trace
	none.Mark("nothing")
	if none.Entries() != nil || cdp.WithTrace(traced, nil) != traced {
		t.Error("a nil trace must record nothing")
	}
}

// DialHeader sends its header with the handshake (a Grid's basic auth);
// a server that refuses it is a *HandshakeError whose message repeats
// no header.
func TestDialHeader(t *testing.T) {
	t.Parallel()
	var up websocket.Upgrader
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Basic c2VjcmV0" {
			http.Error(w, "Unauthorized", http.StatusUnauthorized)
			return
		}
		ws, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		ws.Close()
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	ws := "ws" + strings.TrimPrefix(srv.URL, "http")
	c, err := cdp.DialHeader(ctx, ws, "grid", http.Header{"Authorization": {"Basic c2VjcmV0"}})
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	_, err = cdp.DialHeader(ctx, ws, "grid", http.Header{"Authorization": {"Basic d3Jvbmc="}})
	var he *cdp.HandshakeError
	if !errors.As(err, &he) || he.Status != http.StatusUnauthorized || strings.Contains(err.Error(), "d3Jvbmc") {
		t.Errorf("a wrong header: %v", err)
	}
	if _, err = cdp.DialAs(ctx, ws, "grid"); !errors.As(err, &he) {
		t.Errorf("no header: %v", err)
	}
}
