package route

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
)

// Server serves a tab's rules on a session of its own: Chrome pauses the
// requests the rules may route (Fetch), and the server answers each.
// Requests no usable rule routes go on untouched.
type Server struct {
	s      *cdp.Session
	paused *cdp.Listener
	stop   context.CancelFunc
	done   chan struct{}

	mu    sync.Mutex
	rules []Rule
	hits  Hits
	// save keeps the hits where the tab's calls read them; called under
	// mu, so the file's writes keep their order.
	save func(Hits)
}

// answerWait bounds each command answering a paused request; a delay is
// on top.
const answerWait = 10 * time.Second

// Serve starts serving on s; Set gives it the rules. hits are those
// counted so far (the file's), save is called with them after each hit.
func Serve(s *cdp.Session, hits Hits, save func(Hits)) *Server {
	ctx, stop := context.WithCancel(context.Background())
	sv := &Server{s: s, paused: s.Listen(proto.EventFetchRequestPaused), stop: stop, done: make(chan struct{}), hits: hits, save: save}
	if sv.hits.Count == nil {
		sv.hits.Count = map[int]int{}
	}
	go sv.loop(ctx)
	return sv
}

// Set makes rules the ones served: Chrome pauses what any usable one
// may route, and nothing when none is left.
func (sv *Server) Set(ctx context.Context, rules []Rule) error {
	sv.mu.Lock()
	sv.rules = slices.Clone(rules)
	var patterns []proto.RequestPattern
	for i := range sv.rules {
		if err := sv.rules[i].compile(); err != nil {
			sv.mu.Unlock()
			return err
		}
		if p := sv.rules[i].pattern(); !sv.usedUp(&sv.rules[i]) && !slices.Contains(patterns, p) {
			patterns = append(patterns, p)
		}
	}
	sv.mu.Unlock()
	if len(patterns) == 0 {
		return proto.FetchDisable{}.Do(ctx, sv.s)
	}
	return proto.FetchEnable{Patterns: patterns}.Do(ctx, sv.s)
}

// Close stops serving; requests paused then go on when the session ends.
func (sv *Server) Close() {
	sv.stop()
	sv.paused.Close()
	<-sv.done
}

// Hits are the hits counted so far.
func (sv *Server) Hits() Hits {
	sv.mu.Lock()
	defer sv.mu.Unlock()
	return sv.hits.clone()
}

func (sv *Server) loop(ctx context.Context) {
	defer close(sv.done)
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		ev, err := sv.paused.Next(ctx)
		if err != nil {
			return
		}
		var rp proto.FetchRequestPaused
		if json.Unmarshal(ev.Params, &rp) != nil {
			continue
		}
		wg.Add(1)
		go func() { // a delayed request holds up no other
			defer wg.Done()
			sv.answer(ctx, &rp)
		}()
	}
}

// answer routes one paused request by the newest usable rule that
// matches it at its stage; a request the newest one routes at the other
// stage goes on to it.
func (sv *Server) answer(ctx context.Context, rp *proto.FetchRequestPaused) {
	atResponse := rp.ResponseStatusCode != 0 || rp.ResponseErrorReason != ""
	rule := sv.take(rp, atResponse)
	actx, cancel := context.WithTimeout(ctx, answerWait+time.Duration(ruleDelay(rule))*time.Millisecond)
	defer cancel()
	if rule == nil || (atResponse && rp.ResponseErrorReason != "") {
		_ = proto.FetchContinueRequest{RequestID: rp.RequestID}.Do(actx, sv.s)
		return
	}
	if rule.Delay > 0 {
		select {
		case <-time.After(time.Duration(rule.Delay) * time.Millisecond):
		case <-actx.Done():
			return
		}
	}
	var err error
	switch {
	case rule.Abort != "":
		err = proto.FetchFailRequest{RequestID: rp.RequestID, ErrorReason: aborts[rule.Abort]}.Do(actx, sv.s)
	case rule.Modify != nil:
		err = sv.modify(actx, rp, rule.Modify)
	case rule.Status != 0 || rule.Body != nil || len(rule.Headers) > 0:
		err = proto.FetchFulfillRequest{RequestID: rp.RequestID, ResponseCode: orInt(rule.Status, 200),
			ResponseHeaders: fulfilled(rule, rp.Request.Headers), Body: body(rule.Body)}.Do(actx, sv.s)
	default:
		err = proto.FetchContinueRequest{RequestID: rp.RequestID}.Do(actx, sv.s)
	}
	if err != nil && ctx.Err() == nil {
		_ = proto.FetchContinueRequest{RequestID: rp.RequestID}.Do(actx, sv.s)
	}
}

func ruleDelay(r *Rule) int {
	if r == nil {
		return 0
	}
	return r.Delay
}

// take picks the rule that routes rp at this stage and counts its hit.
func (sv *Server) take(rp *proto.FetchRequestPaused, atResponse bool) *Rule {
	sv.mu.Lock()
	defer sv.mu.Unlock()
	for i := len(sv.rules) - 1; i >= 0; i-- {
		r := &sv.rules[i]
		if sv.usedUp(r) || !r.Matches(rp.Request.URL, rp.Request.Method, rp.ResourceType) {
			continue
		}
		if (r.Modify != nil) != atResponse {
			return nil // the newest rule routes it at its other stage
		}
		sv.hits.Count[r.ID]++
		sv.hits.add(Routed{Request: rp.NetworkID, Rule: r.ID})
		if sv.save != nil {
			sv.save(sv.hits.clone())
		}
		picked := *r
		return &picked
	}
	return nil
}

func (sv *Server) usedUp(r *Rule) bool { return r.Times > 0 && sv.hits.Count[r.ID] >= r.Times }

// modify answers with the paused response changed as m says.
func (sv *Server) modify(ctx context.Context, rp *proto.FetchRequestPaused, m *Modify) error {
	content := m.Body
	if content == nil {
		got, err := proto.FetchGetResponseBody{RequestID: rp.RequestID}.Do(ctx, sv.s)
		if err != nil {
			return err
		}
		raw := got.Body
		if !got.Base64Encoded {
			raw = base64.StdEncoding.EncodeToString([]byte(got.Body))
		}
		return proto.FetchFulfillRequest{RequestID: rp.RequestID, ResponseCode: orInt(m.Status, rp.ResponseStatusCode),
			ResponseHeaders: changed(rp.ResponseHeaders, m.Headers), Body: raw}.Do(ctx, sv.s)
	}
	return proto.FetchFulfillRequest{RequestID: rp.RequestID, ResponseCode: orInt(m.Status, rp.ResponseStatusCode),
		ResponseHeaders: changed(rp.ResponseHeaders, m.Headers), Body: body(content)}.Do(ctx, sv.s)
}

// changed is the response's headers with set applied ("" removes one).
// The body handed back is decoded and whole, so its encoding and length
// go: Chrome works them out again.
func changed(headers []proto.HeaderEntry, set map[string]string) []proto.HeaderEntry {
	var out []proto.HeaderEntry
	for _, h := range headers {
		name := http.CanonicalHeaderKey(h.Name)
		if setHas(set, h.Name) || name == "Content-Encoding" || name == "Content-Length" {
			continue
		}
		out = append(out, h)
	}
	for name, v := range set {
		if v != "" {
			out = append(out, proto.HeaderEntry{Name: name, Value: v})
		}
	}
	return out
}

func setHas(set map[string]string, name string) bool {
	for k := range set {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}

// fulfilled are the headers of a response of the rule's own: its
// content type found from the body unless given, and, for a request
// from another origin, the CORS headers that let the page read it.
func fulfilled(r *Rule, reqHeaders map[string]string) []proto.HeaderEntry {
	out := []proto.HeaderEntry{}
	if !setHas(r.Headers, "Content-Type") && r.Body != nil {
		out = append(out, proto.HeaderEntry{Name: "Content-Type", Value: contentType(*r.Body)})
	}
	if origin := header(reqHeaders, "Origin"); origin != "" && !setHas(r.Headers, "Access-Control-Allow-Origin") {
		out = append(out, proto.HeaderEntry{Name: "Access-Control-Allow-Origin", Value: origin},
			proto.HeaderEntry{Name: "Access-Control-Allow-Credentials", Value: "true"})
	}
	for name, v := range r.Headers {
		out = append(out, proto.HeaderEntry{Name: name, Value: v})
	}
	slices.SortStableFunc(out, func(a, b proto.HeaderEntry) int { return strings.Compare(a.Name, b.Name) })
	return out
}

func header(h map[string]string, name string) string {
	for k, v := range h {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}

// contentType is what a body given as text most likely is.
func contentType(body string) string {
	t := strings.TrimSpace(body)
	switch {
	case json.Valid([]byte(t)) && t != "":
		return "application/json"
	case strings.HasPrefix(t, "<"):
		return "text/html; charset=utf-8"
	}
	return "text/plain; charset=utf-8"
}

func body(s *string) string {
	if s == nil {
		return ""
	}
	return base64.StdEncoding.EncodeToString([]byte(*s))
}

func orInt(v, or int) int {
	if v != 0 {
		return v
	}
	return or
}
