package capture

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/cdpskill/cdpskill/cdp/proto"
)

// ResponseMatch names the response a step waits for: a URL substring,
// and a method and a status when given.
type ResponseMatch struct {
	// URL is a part of the URL; empty matches any fetch or XHR (not a
	// document, image or script the page loads meanwhile).
	URL    string `json:"url"`
	Method string `json:"method,omitempty"`
	Status int    `json:"status,omitempty"`
}

func (m ResponseMatch) String() string {
	s := fmt.Sprintf("url containing %q", m.URL)
	if m.URL == "" {
		s = "a fetch or XHR"
	}
	if m.Method != "" {
		s = strings.ToUpper(m.Method) + " " + s
	}
	if m.Status != 0 {
		s += fmt.Sprintf(" and status %d", m.Status)
	}
	return s
}

// matches: a request that got a response (not one that failed or is
// still waiting for its headers) as m asks.
func (m ResponseMatch) matches(r *Request) bool {
	if m.URL == "" && r.Type != "Fetch" && r.Type != "XHR" {
		return false
	}
	return r.Status != 0 && strings.Contains(r.URL, m.URL) &&
		(m.Method == "" || strings.EqualFold(r.Method, m.Method)) &&
		(m.Status == 0 || r.Status == m.Status)
}

// WaitResponse waits for the first request begun after mark whose
// response matches m and whose body has arrived, or for ctx to end.
func (n *Network) WaitResponse(ctx context.Context, mark int, m ResponseMatch) (Request, error) {
	for {
		n.mu.Lock()
		n.pump()
		var found *Request
		for _, r := range n.reqs {
			if r.seq > mark && m.matches(r) {
				found = r
				break
			}
		}
		var out Request
		if found != nil && !found.Pending {
			out = *found
		}
		n.mu.Unlock()
		if out.ID != "" {
			return out, nil
		}
		if err := n.l.Wait(ctx); err != nil {
			return Request{}, err
		}
	}
}

// Since lists the requests begun after mark.
func (n *Network) Since(mark int) []Request {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.pump()
	var out []Request
	for _, r := range n.reqs {
		if r.seq > mark {
			out = append(out, *r)
		}
	}
	return out
}

// Body returns a finished request's response body, as Chrome keeps it.
func (n *Network) Body(ctx context.Context, r Request) ([]byte, error) {
	res, err := proto.NetworkGetResponseBody{RequestID: r.ID}.Do(ctx, n.s)
	if err != nil {
		return nil, fmt.Errorf("the body of %s is gone: %w", r.URL, err)
	}
	if !res.Base64Encoded {
		return []byte(res.Body), nil
	}
	return base64.StdEncoding.DecodeString(res.Body)
}
