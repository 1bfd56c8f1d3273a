package proto

import "context"

// InspectorEnable turns on the Inspector events. A target that crashed
// before it is sent announces the crash (Inspector.targetCrashed) before
// it replies, so subscribe first.
type InspectorEnable struct{}

func (p InspectorEnable) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "Inspector.enable", p)
}

// The Inspector domain's events.
const (
	// EventInspectorTargetCrashed says the target's renderer died.
	EventInspectorTargetCrashed = "Inspector.targetCrashed"
	// EventInspectorDetached tells a tab's own websocket its session
	// ended (the tab closed); the connection closes next.
	EventInspectorDetached = "Inspector.detached"
)
