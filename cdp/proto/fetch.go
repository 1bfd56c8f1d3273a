package proto

import "context"

// RequestPattern is which requests the Fetch domain pauses
// (Fetch.RequestPattern).
type RequestPattern struct {
	URLPattern   string `json:"urlPattern,omitempty"`
	ResourceType string `json:"resourceType,omitempty"`
	// RequestStage is "Request" (before it is sent) or "Response".
	RequestStage string `json:"requestStage,omitempty"`
}

// FetchEnable pauses the session's requests that match Patterns, each
// announced by Fetch.requestPaused until it is answered.
type FetchEnable struct {
	Patterns []RequestPattern `json:"patterns,omitempty"`
}

func (p FetchEnable) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Fetch.enable", p)
}

// FetchDisable lets the session's requests go unpaused again.
type FetchDisable struct{}

func (p FetchDisable) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Fetch.disable", p)
}

// FetchFulfillRequest answers a paused request without the network, or
// with a response of its own in place of the one paused.
type FetchFulfillRequest struct {
	RequestID       string        `json:"requestId"`
	ResponseCode    int           `json:"responseCode"`
	ResponseHeaders []HeaderEntry `json:"responseHeaders,omitempty"`
	ResponsePhrase  string        `json:"responsePhrase,omitempty"`
	// Body is base64.
	Body string `json:"body,omitempty"`
}

// HeaderEntry is one header (Fetch.HeaderEntry).
type HeaderEntry struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// FetchFailRequest answers a paused request with a network error, an
// ErrorReason ("Failed", "TimedOut"…).
type FetchFailRequest struct {
	RequestID   string `json:"requestId"`
	ErrorReason string `json:"errorReason"`
}

func (p FetchFailRequest) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Fetch.failRequest", p)
}

// FetchContinueRequest lets a paused request go on as it is.
type FetchContinueRequest struct {
	RequestID string `json:"requestId"`
}

func (p FetchContinueRequest) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Fetch.continueRequest", p)
}

// FetchGetResponseBody reads the body of a request paused at its
// response.
type FetchGetResponseBody struct {
	RequestID string `json:"requestId"`
}

type FetchGetResponseBodyResult struct {
	Body          string `json:"body"`
	Base64Encoded bool   `json:"base64Encoded"`
}

func (p FetchGetResponseBody) Do(ctx context.Context, c Caller) (FetchGetResponseBodyResult, error) {
	return call[FetchGetResponseBodyResult](ctx, c, "Fetch.getResponseBody", p)
}

func (p FetchFulfillRequest) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Fetch.fulfillRequest", p)
}

// FetchRequestPaused is the event of a paused request, the parts
// cdpskill reads.
type FetchRequestPaused struct {
	RequestID string `json:"requestId"`
	Request   struct {
		URL     string            `json:"url"`
		Method  string            `json:"method"`
		Headers map[string]string `json:"headers"`
	} `json:"request"`
	ResourceType string `json:"resourceType"`
	// NetworkID is the request's id in the Network domain's events.
	NetworkID string `json:"networkId"`
	// At the response stage: the response paused, or why there is none.
	ResponseStatusCode  int           `json:"responseStatusCode"`
	ResponseStatusText  string        `json:"responseStatusText"`
	ResponseHeaders     []HeaderEntry `json:"responseHeaders"`
	ResponseErrorReason string        `json:"responseErrorReason"`
}

// EventFetchRequestPaused announces a paused request.
const EventFetchRequestPaused = "Fetch.requestPaused"
