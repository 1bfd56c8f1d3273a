package capture

import (
	"context"

	"golang.org/x/sync/errgroup"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
)

// maxReplayPreviews bounds the round trips StartConsole spends on
// replayed objects, newest first; older ones render collapsed ({…}).
const maxReplayPreviews = 50

// previewGroup holds the handles fetched for previews, released together.
const previewGroup = "cdpskill-console-preview"

// fillPreviews asks Chrome for the previews it leaves out of replayed
// messages. Each preview shows the object as it is now, not as it was
// when logged. This is best effort: an object Chrome no longer has keeps
// its collapsed rendering, which is the correct output without a preview.
func fillPreviews(ctx context.Context, s *cdp.Session, entries []entry) {
	var todo []*proto.RemoteObject
	for i := len(entries) - 1; i >= 0 && len(todo) < maxReplayPreviews; i-- {
		e := &entries[i]
		if x := e.thrown.ExceptionDetails.Exception; x != nil && needsPreview(x) {
			todo = append(todo, x) // throw {code: 1}
		}
		for j := range e.call.Args {
			if needsPreview(&e.call.Args[j]) && len(todo) < maxReplayPreviews {
				todo = append(todo, &e.call.Args[j])
			}
		}
	}
	if len(todo) == 0 {
		return
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(8)
	for _, o := range todo {
		g.Go(func() error {
			if p := fetchPreview(gctx, s, o.ObjectID); p != nil {
				o.Preview = p
			}
			return nil
		})
	}
	_ = g.Wait() // the goroutines report nothing; see fetchPreview
	_ = proto.RuntimeReleaseObjectGroup{ObjectGroup: previewGroup}.Do(ctx, s)
}

func needsPreview(o *proto.RemoteObject) bool {
	if o.Type != "object" || o.Preview != nil || o.ObjectID == "" {
		return false
	}
	switch o.Subtype {
	case "null", "node", "regexp", "date", "error":
		return false // rendered from their description
	}
	return true
}

// fetchPreview returns the object's preview, or nil when Chrome cannot
// give one (object released, context gone, deadline).
func fetchPreview(ctx context.Context, s *cdp.Session, objectID string) *proto.ObjectPreview {
	res, err := proto.RuntimeCallFunctionOn{
		FunctionDeclaration: "function () { return this; }",
		ObjectID:            objectID,
		GeneratePreview:     true,
		ObjectGroup:         previewGroup,
	}.Do(ctx, s)
	if err != nil {
		return nil
	}
	return res.Result.Preview
}
