package runner

import (
	"context"
	"encoding/json"

	"github.com/cdpskill/cdpskill/audit"
)

// auditSteps check the page's accessibility.
var auditSteps = []step{
	define("audit", `true | {root, rules: ["label", …], level: wcag2a|wcag2aa|wcag21aa|wcag22aa|best-practice}`,
		"", needsTab, decodeAudit, runAudit).
		out(`{violations: [{rule, impact, help, count, elements: [{ref, line, frame?}]}], passes, incomplete, frames?, skipped?}`).
		also(`{"audit":true}`, "axe", "runAxe", "a11yAudit", "accessibilityAudit", "checkA11y", "auditA11y"),
}

func decodeAudit(raw json.RawMessage) (audit.Options, error) {
	o, err := decodeInto(raw, trueOnly[audit.Options])
	if err == nil {
		if verr := o.Validate(); verr != nil {
			err = paramErrorf("%v", verr)
		}
	}
	return o, err
}

func runAudit(ctx context.Context, e *env, o audit.Options) (output, error) {
	o.SnapshotFloor, o.ElementFloor = e.tab.RefFloors()
	res, err := audit.Run(ctx, e.page(), o)
	if err != nil {
		return output{}, err
	}
	e.tab.SaveRefCounters(res.LastSnapshot, res.LastElement)
	return output{value: res}, nil
}
