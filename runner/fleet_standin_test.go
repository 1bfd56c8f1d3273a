package runner_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/cdpskill/cdpskill/chrome"
	"github.com/cdpskill/cdpskill/internal/testbrowser"
)

// Stand-ins for the REST fleets (Browserbase, Steel, a Selenium Grid 4,
// browserless's cloud Session API):
// small servers implementing the endpoints cdpskill uses, as their
// documentation states them, in front of a Chromium of their own per
// session, whose browser websocket they relay. They are not the
// services: what they check and answer is what the documentation says,
// no more. Each records the calls it saw (creations, releases, pings).

// standIn is one fleet's stand-in.
type standIn struct {
	t     *testing.T
	kind  string // "browserbase", "steel", "selenium", "browserless" (its cloud)
	token string // a Grid's is its basic auth's "user:password", "" for none
	// idle is a Grid's session timeout: a session no WebDriver command
	// came for within it is deleted, CDP traffic aside.
	idle time.Duration
	srv  *httptest.Server

	mu       sync.Mutex
	sessions map[string]*standInSession
	// expiring lets sessions end at the end of their life: a test turns
	// it on when it wants one to, so that a short life does not end a
	// session before a loaded machine has opened its tab.
	expiring bool
	calls    []string
	seq      int
}

// standInSession is a session there: its browser, and its state.
type standInSession struct {
	browser *testbrowser.Browser
	ws      string // the browser's own websocket
	ended   string // "released", "expired": the session is gone
	used    time.Time
	expires time.Time         // the end of the life it was made with, if any
	conns   []*websocket.Conn // its relayed connections, client side
}

// startStandIn starts kind's stand-in, stopped when the test ends.
func startStandIn(t *testing.T, kind, token string, idle time.Duration) *standIn {
	t.Helper()
	s := &standIn{t: t, kind: kind, token: token, idle: idle, sessions: map[string]*standInSession{}}
	mux := http.NewServeMux()
	switch kind {
	case "browserbase":
		mux.HandleFunc("POST /v1/sessions", s.bbCreate)
		mux.HandleFunc("POST /v1/sessions/{id}", s.bbUpdate)
		mux.HandleFunc("GET /connect", s.relay("apiKey", "sessionId"))
	case "steel":
		mux.HandleFunc("POST /v1/sessions", s.steelCreate)
		mux.HandleFunc("POST /v1/sessions/{id}/release", s.steelRelease)
		mux.HandleFunc("GET /{$}", s.relay("apiKey", "sessionId"))
	case "browserless": // its cloud's Session API
		mux.HandleFunc("POST /session", s.blCreate)
		mux.HandleFunc("DELETE /session/{id}", s.blDelete)
		mux.HandleFunc("GET /chromium", s.relay("token", "session"))
	case "selenium":
		mux.HandleFunc("POST /session", s.gridAuth(s.gridCreate))
		mux.HandleFunc("GET /session/{id}/url", s.gridAuth(s.gridURL))
		mux.HandleFunc("DELETE /session/{id}", s.gridAuth(s.gridDelete))
		mux.HandleFunc("GET /session/{id}/se/cdp", s.gridAuth(s.relay("", "")))
	}
	s.srv = httptest.NewServer(mux)
	done := make(chan struct{})
	go s.reap(done)
	t.Cleanup(func() {
		close(done)
		s.mu.Lock()
		for _, ss := range s.sessions {
			ss.browser.Stop() // its relays end with it, and then the server can close
		}
		s.mu.Unlock()
		s.srv.Close()
	})
	return s
}

// saw reports whether the stand-in saw call.
func (s *standIn) saw(call string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.calls {
		if c == call {
			return true
		}
	}
	return false
}

// awaitCall waits until the stand-in saw call, 10 s at most.
func (s *standIn) awaitCall(t *testing.T, call string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if s.saw(call) {
			return
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t.Fatalf("%s's stand-in never saw %q; it saw %v", s.kind, call, s.calls)
}

func (s *standIn) note(format string, args ...any) {
	s.calls = append(s.calls, fmt.Sprintf(format, args...))
}

// authorized checks the request's token where the service takes it.
func (s *standIn) authorized(w http.ResponseWriter, got string) bool {
	if s.token == "" || got == s.token {
		return true
	}
	writeJSON(w, http.StatusUnauthorized, map[string]any{"statusCode": 401, "error": "Unauthorized", "message": "Invalid API key"})
	return false
}

// create launches a session's browser, to live for life (0: until
// released).
func (s *standIn) create(life time.Duration) (string, error) {
	b, err := testbrowser.Start()
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	v, err := chrome.GetVersion(ctx, b.Endpoint)
	if err != nil {
		b.Stop()
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	id := fmt.Sprintf("%s-sess-%d", s.kind, s.seq)
	ss := &standInSession{browser: b, ws: v.WebSocketDebuggerURL, used: time.Now()}
	if life > 0 {
		ss.expires = time.Now().Add(life)
	}
	s.sessions[id] = ss
	s.note("create %s", id)
	return id, nil
}

// end ends session id as why ("released", "expired"), its browser with
// it; false when there is no live one.
func (s *standIn) end(id, why string) bool {
	s.mu.Lock()
	ss := s.sessions[id]
	if ss == nil || ss.ended != "" {
		s.mu.Unlock()
		return false
	}
	ss.ended = why
	s.note("%s %s", why, id)
	s.mu.Unlock()
	ss.browser.Stop()
	return true
}

// relay is a session's CDP websocket: it checks the token (query
// parameter tokenParam) and the session (idParam, else the path's id),
// then relays the connection to the session's browser.
func (s *standIn) relay(tokenParam, idParam string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if tokenParam != "" && !s.authorized(w, r.URL.Query().Get(tokenParam)) {
			return
		}
		id := r.PathValue("id")
		if idParam != "" {
			id = r.URL.Query().Get(idParam)
		}
		s.mu.Lock()
		ss := s.sessions[id]
		s.mu.Unlock()
		if ss == nil || ss.ended != "" {
			writeJSON(w, http.StatusNotFound, map[string]any{"error": "Session " + id + " not found"})
			return
		}
		up, _, err := websocket.DefaultDialer.Dial(ss.ws, nil)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		down, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			up.Close()
			return
		}
		s.mu.Lock()
		ss.conns = append(ss.conns, down)
		s.mu.Unlock()
		go relayWS(down, up)
		relayWS(up, down)
	}
}

// expire lets sessions end at the end of their life from now on.
func (s *standIn) expire() {
	s.mu.Lock()
	s.expiring = true
	s.mu.Unlock()
}

// cut closes session id's connections, as a proxy in front of the
// service may; the session lives on.
func (s *standIn) cut(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.sessions[id].conns {
		c.Close()
	}
	s.sessions[id].conns = nil
}

// relayWS copies messages from src to dst until either closes.
func relayWS(dst, src *websocket.Conn) {
	defer dst.Close()
	defer src.Close()
	for {
		typ, data, err := src.ReadMessage()
		if err != nil {
			return
		}
		if dst.WriteMessage(typ, data) != nil {
			return
		}
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (s *standIn) wsBase() string { return "ws" + strings.TrimPrefix(s.srv.URL, "http") }

// Browserbase: POST /v1/sessions (X-BB-API-Key; {projectId, keepAlive})
// answers {id, connectUrl, …}, the connect URL signed; POST
// /v1/sessions/{id} with {status: "REQUEST_RELEASE"} releases it.
func (s *standIn) bbCreate(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r.Header.Get("X-BB-API-Key")) {
		return
	}
	var body struct {
		ProjectID string `json:"projectId"`
		KeepAlive bool   `json:"keepAlive"`
		Timeout   int    `json:"timeout"` // s; the stand-in's project default is an hour
	}
	if json.NewDecoder(r.Body).Decode(&body) != nil || !body.KeepAlive {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "want keepAlive"})
		return
	}
	if body.Timeout == 0 {
		body.Timeout = 3600
	}
	life := time.Duration(body.Timeout) * time.Second
	id, err := s.create(life)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	s.mu.Lock()
	s.note("project %s", body.ProjectID)
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, map[string]any{"id": id, "projectId": body.ProjectID, "status": "RUNNING", "keepAlive": true,
		"expiresAt":  time.Now().Add(life).UTC().Format(time.RFC3339),
		"connectUrl": s.wsBase() + "/connect?signingKey=signed-" + id})
}

func (s *standIn) bbUpdate(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r.Header.Get("X-BB-API-Key")) {
		return
	}
	var body struct{ Status, ProjectID string }
	if json.NewDecoder(r.Body).Decode(&body) != nil || body.Status != "REQUEST_RELEASE" {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "want status REQUEST_RELEASE"})
		return
	}
	if !s.end(r.PathValue("id"), "released") {
		writeJSON(w, http.StatusNotFound, map[string]any{"error": "Session not found"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": r.PathValue("id"), "status": "COMPLETED"})
}

// Steel: POST /v1/sessions (steel-api-key; {timeout} in ms) answers {id,
// websocketUrl, …}; POST /v1/sessions/{id}/release releases it.
func (s *standIn) steelCreate(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r.Header.Get("steel-api-key")) {
		return
	}
	var body struct {
		Timeout int `json:"timeout"`
	}
	if json.NewDecoder(r.Body).Decode(&body) != nil || body.Timeout <= 0 {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "want a timeout"})
		return
	}
	id, err := s.create(time.Duration(body.Timeout) * time.Millisecond)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": id, "status": "live", "timeout": body.Timeout,
		"websocketUrl": s.wsBase() + "/?sessionId=" + id})
}

func (s *standIn) steelRelease(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r.Header.Get("steel-api-key")) {
		return
	}
	if !s.end(r.PathValue("id"), "released") {
		writeJSON(w, http.StatusNotFound, map[string]any{"error": "Session not found"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true})
}

// browserless's cloud: POST /session?token=… with {ttl} (ms) answers {id,
// browserWSEndpoint, stop, …}; DELETE /session/{id}?token=…&force=true
// ends it.
func (s *standIn) blCreate(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r.URL.Query().Get("token")) {
		return
	}
	var body struct {
		TTL int64 `json:"ttl"`
	}
	if json.NewDecoder(r.Body).Decode(&body) != nil || body.TTL <= 0 {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "want a ttl"})
		return
	}
	id, err := s.create(time.Duration(body.TTL) * time.Millisecond)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": id, "ttl": body.TTL,
		"browserWSEndpoint": s.wsBase() + "/chromium?session=" + id + "&token=" + s.token,
		"stop":              s.srv.URL + "/session/" + id + "?token=" + s.token})
}

func (s *standIn) blDelete(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r.URL.Query().Get("token")) {
		return
	}
	if !s.end(r.PathValue("id"), "released") {
		writeJSON(w, http.StatusNotFound, map[string]any{"error": "Session not found"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true})
}

// A Grid 4: POST /session with W3C capabilities asking for chrome
// answers {value: {sessionId, capabilities: {"se:cdp": …}}}; a WebDriver
// command (GET /session/{id}/url) keeps it from its session timeout;
// DELETE /session/{id} ends it.
func (s *standIn) gridCreate(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Capabilities struct {
			AlwaysMatch map[string]any `json:"alwaysMatch"`
		} `json:"capabilities"`
	}
	if json.NewDecoder(r.Body).Decode(&body) != nil || body.Capabilities.AlwaysMatch["browserName"] != "chrome" {
		writeJSON(w, http.StatusBadRequest, map[string]any{"value": map[string]any{"error": "invalid argument"}})
		return
	}
	id, err := s.create(0)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"value": map[string]any{"sessionId": id, "capabilities": map[string]any{
		"browserName": "chrome", "se:cdp": s.wsBase() + "/session/" + id + "/se/cdp", "se:cdpVersion": "stand-in"}}})
}

// gridAuth checks the basic auth a Grid started with --username and
// --password asks of every request, its websocket's upgrade too.
func (s *standIn) gridAuth(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if user, pass, _ := r.BasicAuth(); s.token != "" && user+":"+pass != s.token {
			w.Header().Set("WWW-Authenticate", `Basic realm="selenium-server"`)
			http.Error(w, "Unauthorized", http.StatusUnauthorized)
			return
		}
		h(w, r)
	}
}

func (s *standIn) gridURL(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	ss := s.sessions[r.PathValue("id")]
	if ss != nil && ss.ended == "" {
		ss.used = time.Now()
		s.note("ping %s", r.PathValue("id"))
	}
	s.mu.Unlock()
	if ss == nil || ss.ended != "" {
		writeJSON(w, http.StatusNotFound, map[string]any{"value": map[string]any{"error": "invalid session id"}})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"value": "about:blank"})
}

func (s *standIn) gridDelete(w http.ResponseWriter, r *http.Request) {
	if !s.end(r.PathValue("id"), "released") {
		writeJSON(w, http.StatusNotFound, map[string]any{"value": map[string]any{"error": "invalid session id"}})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"value": nil})
}

// reap ends the sessions past the life they were made with, as the
// services do, and those no WebDriver command came for within the
// session timeout, as a Grid does.
func (s *standIn) reap(done <-chan struct{}) {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
		}
		var stale []string
		s.mu.Lock()
		for id, ss := range s.sessions {
			idled := s.idle > 0 && time.Since(ss.used) > s.idle
			expired := s.expiring && !ss.expires.IsZero() && time.Now().After(ss.expires)
			if ss.ended == "" && (idled || expired) {
				stale = append(stale, id)
			}
		}
		s.mu.Unlock()
		for _, id := range stale {
			s.end(id, "expired")
		}
	}
}
