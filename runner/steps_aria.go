package runner

import (
	"context"
	"encoding/json"

	"github.com/cdpskill/cdpskill/aria"
)

// ariaSteps show the page as the agent sees it.
var ariaSteps = []step{
	define("snapshot", `true | {root, detail: full|interactive|summary, viewportOnly, maxDepth, maxElements, maxNameLength, includeText}`,
		"ARIA snapshot of the page as YAML, with refs (s1e4) for interactive elements", needsTab, decodeSnapshot, runSnapshot),
}

// --- snapshot

func decodeSnapshot(raw json.RawMessage) (aria.Options, error) {
	p, err := decodeInto(raw, trueOnly[aria.Options])
	if err == nil {
		if verr := p.Validate(); verr != nil {
			err = paramErrorf("%v", verr)
		}
	}
	return p, err
}

func runSnapshot(ctx context.Context, c *Call, p aria.Options) (any, error) {
	return aria.Snapshot(ctx, c.page, p)
}
