package page

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/xcontext"
)

// PollRequest is a poll step (SPEC 12.2).
type PollRequest struct {
	// Source is a predicate: a function that is called, or a bare
	// expression, exactly as for PageFunction. A promise is awaited.
	Source string
	// Interval is the pause between evaluations; 0 means 100ms.
	Interval time.Duration
	// Timeout bounds the polling; 0 means 30s.
	Timeout time.Duration
	// File is the path Source was read from, as for PageFunction.
	File string
}

// ScriptURL is the sourceURL req.Source is evaluated under.
func (req PollRequest) ScriptURL() string { return scriptURL(req.File, "poll") }

// PollResult is the outcome of a poll. Running out of time is a result,
// not an error: Resolved is false and LastValue is the last falsy value.
type PollResult struct {
	Resolved  bool   `json:"resolved"`
	Value     *Value `json:"value,omitempty"`
	LastValue *Value `json:"lastValue,omitempty"`
	// LastError is the exception the last evaluation threw, if it threw:
	// a predicate that keeps failing is still polled (it may be reading
	// what has not loaded yet), but the agent should see why.
	LastError string `json:"lastError,omitempty"`
	Elapsed   int64  `json:"elapsed"` // milliseconds
}

// Poll evaluates req.Source until it is truthy or the timeout passes,
// surviving navigations between evaluations. Only a SyntaxError (it will
// never pass), a cancelled ctx or a broken connection end it with an error.
func Poll(ctx context.Context, p *Page, req PollRequest) (*PollResult, error) {
	src, err := newAgentScript("poll", req.Source, req.File)
	if err != nil {
		return nil, err
	}
	interval := pollDefault(req.Interval, 100*time.Millisecond)
	start := time.Now()
	pctx, cancel := context.WithTimeout(ctx, pollDefault(req.Timeout, 30*time.Second))
	defer cancel()

	res := &PollResult{}
	var last *proto.RemoteObject
	for {
		params := src.params(false)
		params.AwaitPromise = true
		ro, err := evaluateBounded(pctx, p, params)
		var je *JSError
		switch {
		case err == nil && jsTruthy(ro):
			v, err := describeResult(ctx, p, ro)
			if err != nil {
				return nil, src.failed(err, start)
			}
			return &PollResult{Resolved: true, Value: v, Elapsed: msSince(start)}, nil
		case err == nil:
			last, res.LastError = ro, ""
		case errors.Is(err, context.DeadlineExceeded), cdp.IsContextDestroyed(err):
			// Out of time (checked below), or a navigation is replacing
			// the context: the next evaluation runs in the new one.
		case errors.As(err, &je) && !strings.HasPrefix(je.Message, "SyntaxError"):
			res.LastError = src.explain(je).Message
		default:
			return nil, src.failed(err, start)
		}
		if xcontext.Sleep(pctx, interval) != nil {
			break
		}
	}
	// The step's own deadline may end the poll before req.Timeout does;
	// either way it is the timeout outcome. Only cancellation is an error.
	if errors.Is(ctx.Err(), context.Canceled) {
		return nil, src.failed(ctx.Err(), start)
	}
	if last != nil {
		res.LastValue = valueByValue(last)
	}
	res.Elapsed = msSince(start)
	return res, nil
}

// jsTruthy is JavaScript truthiness of an evaluation result.
func jsTruthy(ro *proto.RemoteObject) bool {
	switch ro.Type {
	case "undefined":
		return false
	case "boolean":
		return string(ro.Value) == "true"
	case "string":
		return string(ro.Value) != `""`
	case "number":
		if u := ro.UnserializableValue; u != "" {
			return u != "NaN" && u != "-0"
		}
		f, err := strconv.ParseFloat(string(ro.Value), 64)
		return err != nil || f != 0
	case "bigint":
		return ro.UnserializableValue != "0n"
	case "object":
		return ro.Subtype != "null"
	}
	return true // symbol, function
}

func pollDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

func msSince(start time.Time) int64 { return time.Since(start).Milliseconds() }
