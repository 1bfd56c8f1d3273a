package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/internal/xcontext"
	"github.com/cdpskill/cdpskill/tab"
)

// waitForResponse, beside a step that acts on a tab, waits after the
// action for the first response it asked for to a request made after
// the action began, and puts it in the step's output.

// bodyInlineLimit is the largest response body printed inline; a longer
// one goes to a file, with a preview.
const bodyInlineLimit = 4000

// decodeWaitForResponse reads "url substring", "any" (the first fetch or
// XHR), a method alone ("POST": the first fetch or XHR with it, as an
// HTTP method is written, in capitals), or {url, method, status}, whose
// url may then be left out.
func decodeWaitForResponse(raw json.RawMessage) (*capture.ResponseMatch, error) {
	var m capture.ResponseMatch
	if s, ok := asString(raw); ok {
		switch {
		case s == "any":
		case slices.Contains(httpMethods, s):
			m.Method = s
		default:
			m.URL = s
		}
	} else if err := decodeStrict(raw, &m); err != nil {
		return nil, fmt.Errorf(`must be "url substring", "any", a method ("POST") or {url, method, status}: %v`, err)
	} else if m.URL == "" && m.Method == "" && m.Status == 0 {
		return nil, fmt.Errorf(`says nothing to wait for: give "url" (a part of the URL), "method" or "status", or "any"`)
	}
	switch {
	case strings.TrimSpace(string(raw)) == `""`:
		return nil, fmt.Errorf(`needs a part of the URL to wait for, "any" or a method ("POST")`)
	case m.Status != 0 && (m.Status < 100 || m.Status > 599):
		return nil, fmt.Errorf(`"status" must be an HTTP status (100-599), got %d`, m.Status)
	}
	return &m, nil
}

// httpMethods are the methods waitForResponse takes alone.
var httpMethods = []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}

// stepResponse is the response as a step's output shows it: a JSON body
// parsed, a text body as text, a binary one as its size, a long one in a
// file with a preview.
type stepResponse struct {
	URL      string `json:"url"`
	Method   string `json:"method"`
	Status   int    `json:"status"`
	MimeType string `json:"mimeType,omitempty"`
	Body     any    `json:"body,omitempty"`
	Bytes    int    `json:"bytes,omitempty"` // of a body not shown whole
	BodyFile string `json:"bodyFile,omitempty"`
	Preview  string `json:"preview,omitempty"`
	Warning  string `json:"warning,omitempty"`
}

// ResponseTimeoutError: no matching response came within the step's time.
type ResponseTimeoutError struct {
	Match  capture.ResponseMatch
	Waited time.Duration
	Seen   []capture.Request // the requests made meanwhile
}

func (e *ResponseTimeoutError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "no response with %s came within %d ms of the action", e.Match, e.Waited.Milliseconds())
	if len(e.Seen) == 0 {
		b.WriteString("; the page made no requests meanwhile")
		return b.String()
	}
	b.WriteString("; requests made meanwhile: ")
	for i, r := range e.Seen[:min(len(e.Seen), 8)] {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %s", r.Method, r.URL)
		switch {
		case r.Status != 0:
			fmt.Fprintf(&b, " %d", r.Status)
		case r.Error != "":
			b.WriteString(" " + r.Error)
		default:
			b.WriteString(" (pending)")
		}
	}
	if len(e.Seen) > 8 {
		fmt.Fprintf(&b, " … (%d in all)", len(e.Seen))
	}
	return b.String()
}

func (e *ResponseTimeoutError) ErrorName() string { return "TimeoutError" }

// awaitResponse waits for the response and reads its body.
func (c *Call) awaitResponse(ctx context.Context, nc *tab.Network, mark int, m capture.ResponseMatch, start time.Time) (*stepResponse, error) {
	r, err := nc.WaitResponse(ctx, mark, m)
	if err != nil {
		if ctx.Err() == nil {
			return nil, err
		}
		return nil, &ResponseTimeoutError{Match: m, Waited: time.Since(start), Seen: nc.Since(mark)}
	}
	out := &stepResponse{URL: r.URL, Method: r.Method, Status: r.Status, MimeType: r.MimeType}
	bctx, cancel := xcontext.Detached(ctx, 5*time.Second)
	defer cancel()
	body, err := nc.Body(bctx, r)
	if err != nil {
		out.Warning = err.Error()
		return out, nil
	}
	c.env().showBody(out, body)
	return out, nil
}

// showBody puts body into out as its type and size allow.
func (e *env) showBody(out *stepResponse, body []byte) {
	kind := bodyKind(out.MimeType, body)
	if kind == "binary" {
		out.Bytes = len(body)
		return
	}
	if len(body) <= bodyInlineLimit {
		if kind == "json" {
			out.Body = json.RawMessage(body)
		} else {
			out.Body = string(body)
		}
		return
	}
	ext := map[string]string{"json": "json", "text": "txt"}[kind]
	out.Bytes = len(body)
	out.BodyFile = e.writeArtifact(e.files.NextPath(orStr(e.alias(), "call"), "response", ext), body)
	preview := []rune(string(body))
	if len(preview) > 300 {
		preview = append(preview[:300], '…')
	}
	out.Preview = string(preview)
}

// bodyKind tells a JSON body (by its type, or its look when the server
// said text) from other text and from binary data.
func bodyKind(mime string, body []byte) string {
	mime = strings.ToLower(mime)
	switch {
	case (strings.Contains(mime, "json") || strings.HasPrefix(mime, "text/plain") || mime == "") && json.Valid(body):
		return "json"
	case strings.HasPrefix(mime, "text/"), strings.Contains(mime, "javascript"), strings.Contains(mime, "xml"),
		strings.Contains(mime, "json"), strings.Contains(mime, "x-www-form-urlencoded"):
		return "text"
	case utf8.Valid(body) && !strings.ContainsRune(string(body), 0):
		return "text"
	}
	return "binary"
}
