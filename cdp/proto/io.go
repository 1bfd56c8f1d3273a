package proto

import "context"

// IORead reads the next part of a stream (a trace's): Data is text, or
// base64 when Base64Encoded says so.
type IORead struct {
	Handle string `json:"handle"`
	// Size is at most how many bytes to read; 0 is Chrome's choice.
	Size int `json:"size,omitempty"`
}

type IOReadResult struct {
	Base64Encoded bool   `json:"base64Encoded"`
	Data          string `json:"data"`
	EOF           bool   `json:"eof"`
}

func (p IORead) Do(ctx context.Context, c Caller) (IOReadResult, error) {
	return call[IOReadResult](ctx, c, "IO.read", p)
}

// IOClose lets Chrome drop the stream.
type IOClose struct {
	Handle string `json:"handle"`
}

func (p IOClose) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "IO.close", p)
}
