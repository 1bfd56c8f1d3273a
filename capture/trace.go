package capture

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/private"
)

// TraceCategories are those DevTools' Performance panel records, with its
// default options (JavaScript samples, screenshots).
var TraceCategories = []string{
	"-*", "blink.console", "blink.user_timing", "devtools.timeline",
	"disabled-by-default-devtools.timeline", "disabled-by-default-devtools.timeline.frame",
	"disabled-by-default-devtools.timeline.stack", "disabled-by-default-v8.compile",
	"disabled-by-default-v8.cpu_profiler", "disabled-by-default-v8.cpu_profiler.hires",
	"disabled-by-default-lighthouse", "loading", "latencyInfo", "v8.execute", "v8",
	"disabled-by-default-devtools.screenshot",
}

// TraceBufferKB bounds a trace: Chrome stops recording when its buffer is
// full (recordUntilFull), about a minute or two of a busy page with its
// screenshots.
const TraceBufferKB = 100 << 10

// ErrTraceBusy is Chrome's refusal of a second trace: it records one at a
// time per browser, whichever session or tab started it.
var ErrTraceBusy = errors.New("Chrome is recording a trace already (a recording, DevTools, or another tool may be), and it records one at a time")

// Trace is a performance trace Chrome records for a session's target,
// returned as a stream when it ends. Chrome ends it with the session that
// started it.
type Trace struct {
	s *cdp.Session
	l *cdp.Listener
}

// StartTrace starts a trace of s's target with the Performance panel's
// categories; ErrTraceBusy when Chrome records one already.
func StartTrace(ctx context.Context, s *cdp.Session) (*Trace, error) {
	l := s.Listen(proto.EventTracingTracingComplete, proto.EventTracingBufferUsage)
	err := proto.TracingStart{TransferMode: "ReturnAsStream", StreamFormat: "json", BufferUsageReportingInterval: 1000,
		TraceConfig: proto.TraceConfig{RecordMode: "recordUntilFull", TraceBufferSizeInKb: TraceBufferKB, IncludedCategories: TraceCategories},
	}.Do(ctx, s)
	if err != nil {
		l.Close()
		if strings.Contains(err.Error(), "already been started") {
			return nil, ErrTraceBusy
		}
		return nil, fmt.Errorf("starting the trace: %w", err)
	}
	return &Trace{s: s, l: l}, nil
}

// Abandon ends a trace no one will read.
func (t *Trace) Abandon(ctx context.Context) {
	_ = proto.TracingEnd{}.Do(ctx, t.s)
	t.l.Close()
}

// TraceSaved is what a saved trace holds.
type TraceSaved struct {
	// Full: Chrome's buffer filled, so the trace misses what came after.
	Full bool
}

// traceEndWait bounds Tracing.end's answer, which Chrome gives at once.
const traceEndWait = 2 * time.Second

// Save ends the trace and streams it from Chrome into path, as Chrome's
// JSON trace ({"traceEvents":[…]}), which DevTools and Perfetto open,
// within ctx. Its errors say what failed, for the agent.
func (t *Trace) Save(ctx context.Context, temp private.Temp, path string) (TraceSaved, error) {
	defer t.l.Close()
	ectx, cancel := context.WithTimeout(ctx, traceEndWait)
	err := proto.TracingEnd{}.Do(ectx, t.s)
	cancel()
	if err != nil {
		return TraceSaved{}, fmt.Errorf("the trace could not be ended: %w", err)
	}
	done, full, err := t.complete(ctx)
	if err != nil {
		return TraceSaved{}, err
	}
	err = temp.WriteFrom(path, func(w io.Writer) error { return readStream(ctx, t.s, done.Stream, w) })
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	_ = proto.IOClose{Handle: done.Stream}.Do(cctx, t.s)
	cancel()
	if err != nil {
		return TraceSaved{}, fmt.Errorf("the trace could not be written: %w", err)
	}
	return TraceSaved{Full: done.DataLossOccurred || full >= 0.99}, nil
}

// complete waits for Chrome to gather the trace, noting how full its
// buffer got.
func (t *Trace) complete(ctx context.Context) (proto.TracingTracingComplete, float64, error) {
	full := 0.0
	for {
		ev, err := t.l.Next(ctx)
		if err != nil {
			return proto.TracingTracingComplete{}, full, errors.New(`Chrome did not hand the trace over in the step's time (give the step a longer "timeout")`)
		}
		if ev.Method == proto.EventTracingBufferUsage {
			var u proto.TracingBufferUsage
			if json.Unmarshal(ev.Params, &u) == nil {
				full = max(full, u.PercentFull)
			}
			continue
		}
		var done proto.TracingTracingComplete
		if err := json.Unmarshal(ev.Params, &done); err != nil || done.Stream == "" {
			return done, full, errors.New("Chrome handed over no trace")
		}
		return done, full, nil
	}
}

// readStream copies a trace's stream to w as Chrome's JSON trace
// ({"traceEvents":[…]}): a Chrome that hands over a bare array of events
// has it wrapped.
func readStream(ctx context.Context, s *cdp.Session, handle string, w io.Writer) error {
	first, wrapped := true, false
	for {
		// A megabyte at a time: the keeper's heap is small.
		r, err := proto.IORead{Handle: handle, Size: 1 << 20}.Do(ctx, s)
		if err != nil {
			return fmt.Errorf("reading the trace from Chrome: %w", err)
		}
		data := r.Data
		if r.Base64Encoded {
			b, err := base64.StdEncoding.DecodeString(r.Data)
			if err != nil {
				return fmt.Errorf("reading the trace from Chrome: %w", err)
			}
			data = string(b)
		}
		if t := strings.TrimLeft(data, " \t\r\n"); first && t != "" {
			first = false
			if t[0] == '[' {
				wrapped = true
				if _, err := io.WriteString(w, `{"traceEvents":`); err != nil {
					return err
				}
			}
		}
		if _, err := io.WriteString(w, data); err != nil {
			return err
		}
		if r.EOF {
			break
		}
	}
	if wrapped {
		_, err := io.WriteString(w, "}")
		return err
	}
	return nil
}
