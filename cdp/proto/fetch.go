package proto

import "context"

// RequestPattern is which requests the Fetch domain pauses
// (Fetch.RequestPattern).
type RequestPattern struct {
	URLPattern string `json:"urlPattern,omitempty"`
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

// FetchFulfillRequest answers a paused request without the network.
type FetchFulfillRequest struct {
	RequestID    string `json:"requestId"`
	ResponseCode int    `json:"responseCode"`
	// Body is base64.
	Body string `json:"body,omitempty"`
}

func (p FetchFulfillRequest) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Fetch.fulfillRequest", p)
}

// FetchRequestPaused is the event of a paused request, the parts
// cdpskill reads.
type FetchRequestPaused struct {
	RequestID string `json:"requestId"`
}

// EventFetchRequestPaused announces a paused request.
const EventFetchRequestPaused = "Fetch.requestPaused"
