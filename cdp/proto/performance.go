package proto

import "context"

// PerformanceGetMetrics asks for the target's run-time metrics. cdpskill
// reads no metric: it is a liveness probe, which Chrome answers on the
// renderer's IO thread, past a navigation that holds the page back (unlike
// Page.enable or Runtime.evaluate), so only a renderer whose main thread is
// taken leaves it unanswered. An error is an answer too.
type PerformanceGetMetrics struct{}

func (p PerformanceGetMetrics) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Performance.getMetrics", p)
}
