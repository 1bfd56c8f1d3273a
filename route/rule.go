// Package route answers a tab's requests the way the agent asked: with a
// response of its own, a network failure, after a delay, or with the
// real response changed. Rules live in a file per tab; whoever holds the
// tab (the browser's keeper, else the call) serves them on a CDP session
// of its own with the Fetch domain, and counts what each one answered.
package route

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/invalid"
)

// Rule is one route: which requests (URL, optional Method and Type) and
// what they get. One of: a response of its own (Status, Body, Headers),
// Abort, Modify (the real response changed), or only Delay (the request
// goes on, late). Delay also goes with any other.
type Rule struct {
	ID     int    `json:"id"`
	URL    string `json:"url"`
	Method string `json:"method,omitempty"`
	// Type is a resource type in lower case (fetch, xhr, document…).
	Type    string            `json:"type,omitempty"`
	Status  int               `json:"status,omitempty"`
	Body    *string           `json:"body,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Abort   string            `json:"abort,omitempty"`
	// Delay holds the request that many ms before it is answered.
	Delay  int     `json:"delay,omitempty"`
	Modify *Modify `json:"modify,omitempty"`
	// Times, when set, is how many requests the rule answers; then it is
	// used up.
	Times int `json:"times,omitempty"`

	re *regexp.Regexp
}

// Modify is what changes in the real response: a header set to "" is
// removed.
type Modify struct {
	Status  int               `json:"status,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    *string           `json:"body,omitempty"`
}

// MaxDelay bounds a rule's delay: longer, and a page's own timeouts are
// what is tested, which a shorter one does as well.
const MaxDelay = 120_000

// aborts are the failures a rule can answer with, by the names agents
// know from Playwright's route.abort, as Chrome's Fetch names them.
var aborts = map[string]string{
	"failed": "Failed", "aborted": "Aborted", "timedout": "TimedOut", "accessdenied": "AccessDenied",
	"connectionclosed": "ConnectionClosed", "connectionreset": "ConnectionReset",
	"connectionrefused": "ConnectionRefused", "connectionaborted": "ConnectionAborted",
	"connectionfailed": "ConnectionFailed", "namenotresolved": "NameNotResolved",
	"internetdisconnected": "InternetDisconnected", "addressunreachable": "AddressUnreachable",
	"blockedbyclient": "BlockedByClient", "blockedbyresponse": "BlockedByResponse",
}

// types are Chrome's resource types by their lower-case names.
var types = map[string]string{
	"document": "Document", "stylesheet": "Stylesheet", "image": "Image", "media": "Media",
	"font": "Font", "script": "Script", "texttrack": "TextTrack", "xhr": "XHR", "fetch": "Fetch",
	"prefetch": "Prefetch", "eventsource": "EventSource", "websocket": "WebSocket",
	"manifest": "Manifest", "signedexchange": "SignedExchange", "ping": "Ping",
	"cspviolationreport": "CSPViolationReport", "preflight": "Preflight", "other": "Other",
}

// Check validates r and readies its matcher; it normalizes the method
// and type. Every problem is an *invalid.Option.
func (r *Rule) Check() error {
	r.Method = strings.ToUpper(strings.TrimSpace(r.Method))
	r.Type = strings.ToLower(strings.TrimSpace(r.Type))
	answers := 0
	for _, set := range []bool{r.Status != 0 || r.Body != nil || len(r.Headers) > 0, r.Abort != "", r.Modify != nil} {
		if set {
			answers++
		}
	}
	switch {
	case strings.TrimSpace(r.URL) == "":
		return &invalid.Option{Field: "url", Reason: `give the URLs to route: a glob ("*/api/items*", * is any text) or a "/regex/"`}
	case answers > 1:
		return &invalid.Option{Field: "answer", Reason: `give one of a response (status, body, headers), "abort" or "modify"; "delay" goes with any`}
	case answers == 0 && r.Delay == 0:
		return &invalid.Option{Field: "answer", Reason: `say what the requests get: status/body/headers, "abort", "modify" or "delay"`}
	case r.Status != 0 && (r.Status < 100 || r.Status > 599):
		return &invalid.Option{Field: "status", Value: fmt.Sprint(r.Status), Reason: "an HTTP status is 100 to 599"}
	case r.Modify != nil && r.Modify.Status != 0 && (r.Modify.Status < 100 || r.Modify.Status > 599):
		return &invalid.Option{Field: "modify.status", Value: fmt.Sprint(r.Modify.Status), Reason: "an HTTP status is 100 to 599"}
	case r.Modify != nil && r.Modify.Status == 0 && r.Modify.Body == nil && len(r.Modify.Headers) == 0:
		return &invalid.Option{Field: "modify", Reason: `give what changes: "status", "headers" or "body"`}
	case r.Delay < 0 || r.Delay > MaxDelay:
		return &invalid.Option{Field: "delay", Value: fmt.Sprint(r.Delay), Reason: fmt.Sprintf("ms, 0 to %d", MaxDelay)}
	case r.Times < 0:
		return &invalid.Option{Field: "times", Value: fmt.Sprint(r.Times), Reason: "how many requests the route answers, 1 or more"}
	}
	if r.Abort != "" {
		if _, ok := aborts[strings.ToLower(r.Abort)]; !ok {
			return &invalid.Option{Field: "abort", Value: r.Abort, Reason: "one of " + strings.Join(sortedKeys(aborts), ", ")}
		}
		r.Abort = strings.ToLower(r.Abort)
	}
	if _, ok := types[r.Type]; r.Type != "" && !ok {
		return &invalid.Option{Field: "type", Value: r.Type, Reason: "one of " + strings.Join(sortedKeys(types), ", ")}
	}
	return r.compile()
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// compile readies the URL matcher: a "/regex/" as written (found
// anywhere in the URL, as the network step's filter), else a glob that
// matches the whole URL, * standing for any text; a glob that starts
// with / is a path on any origin.
func (r *Rule) compile() error {
	if r.re != nil {
		return nil
	}
	if expr, ok := regexSource(r.URL); ok {
		re, err := invalid.Compile("url", expr)
		r.re = re
		return err
	}
	var b strings.Builder
	b.WriteString("^")
	if strings.HasPrefix(r.URL, "/") {
		b.WriteString(".*")
	}
	for i, part := range strings.Split(r.URL, "*") {
		if i > 0 {
			b.WriteString(".*")
		}
		b.WriteString(regexp.QuoteMeta(part))
	}
	b.WriteString("$")
	r.re = regexp.MustCompile(b.String())
	return nil
}

func regexSource(url string) (string, bool) {
	if len(url) >= 2 && strings.HasPrefix(url, "/") && strings.HasSuffix(url, "/") {
		return url[1 : len(url)-1], true
	}
	return "", false
}

// Matches reports that r routes a request of method and Chrome's
// resourceType to url.
func (r *Rule) Matches(url, method, resourceType string) bool {
	if r.compile() != nil {
		return false
	}
	return (r.Method == "" || r.Method == method) &&
		(r.Type == "" || types[r.Type] == resourceType) &&
		r.re.MatchString(url)
}

// Same reports that r and o route the same requests: a new rule replaces
// the one it is the same as.
func (r *Rule) Same(o *Rule) bool {
	return r.URL == o.URL && r.Method == o.Method && r.Type == o.Type
}

// pattern is the Fetch pattern that pauses what r may route: the glob
// itself where Chrome's wildcards read it alike, else every URL.
func (r *Rule) pattern() proto.RequestPattern {
	p := proto.RequestPattern{URLPattern: "*", ResourceType: types[r.Type], RequestStage: "Request"}
	if r.Modify != nil {
		p.RequestStage = "Response"
	}
	if _, re := regexSource(r.URL); !re && !strings.ContainsAny(r.URL, `?\`) {
		p.URLPattern = r.URL
		if strings.HasPrefix(r.URL, "/") {
			p.URLPattern = "*" + r.URL
		}
	}
	return p
}

// Label is the rule as the agent reads it in a result: its method and
// type, if any, and its URL.
func (r *Rule) Label() string {
	return strings.TrimSpace(strings.Join([]string{r.Method, r.Type, r.URL}, " "))
}
