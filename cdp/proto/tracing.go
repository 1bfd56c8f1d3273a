package proto

import "context"

// TraceConfig is what a trace records (Tracing.TraceConfig).
type TraceConfig struct {
	// RecordMode is recordUntilFull (Chrome's default: recording stops
	// when the buffer is full), recordContinuously (a ring that drops the
	// oldest) or recordAsMuchAsPossible.
	RecordMode string `json:"recordMode,omitempty"`
	// TraceBufferSizeInKb bounds the buffer; 0 is Chrome's 200 MB.
	TraceBufferSizeInKb int      `json:"traceBufferSizeInKb,omitempty"`
	IncludedCategories  []string `json:"includedCategories,omitempty"`
	ExcludedCategories  []string `json:"excludedCategories,omitempty"`
}

// TracingStart begins a trace of the session's target: sent to a tab's
// session, it records that tab's processes and the browser's part in
// them. Chrome runs one trace at a time per session; a second is refused
// ("Tracing has already been started").
type TracingStart struct {
	TraceConfig TraceConfig `json:"traceConfig"`
	// TransferMode is ReportEvents (Tracing.dataCollected events) or
	// ReturnAsStream (Tracing.tracingComplete names a stream to read with
	// IO.read).
	TransferMode string `json:"transferMode,omitempty"`
	// StreamFormat is json (the default: Chrome's JSON trace, which
	// DevTools and Perfetto open) or proto.
	StreamFormat string `json:"streamFormat,omitempty"`
	// BufferUsageReportingInterval, in ms, has Chrome send
	// Tracing.bufferUsage that often.
	BufferUsageReportingInterval float64 `json:"bufferUsageReportingInterval,omitempty"`
}

func (p TracingStart) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Tracing.start", p)
}

// TracingEnd stops the trace. Chrome answers at once and sends
// Tracing.tracingComplete once the trace's data is gathered, which takes
// a while for a long trace.
type TracingEnd struct{}

func (p TracingEnd) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Tracing.end", p)
}

// The Tracing domain's events.
const (
	EventTracingTracingComplete = "Tracing.tracingComplete"
	EventTracingBufferUsage     = "Tracing.bufferUsage"
)

// TracingTracingComplete is Tracing.tracingComplete's params.
type TracingTracingComplete struct {
	// DataLossOccurred: some of the trace was lost, e.g. the buffer
	// filled.
	DataLossOccurred bool `json:"dataLossOccurred"`
	// Stream is the trace's stream (ReturnAsStream), read with IO.read.
	Stream string `json:"stream"`
}

// TracingBufferUsage is Tracing.bufferUsage's params.
type TracingBufferUsage struct {
	// PercentFull is the buffer's use, 0 to 1.
	PercentFull float64 `json:"percentFull"`
}
