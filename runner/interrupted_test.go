package runner_test

import (
	"context"
	"testing"

	"github.com/cdpskill/cdpskill/runner"
)

// A call interrupted before a step ran says so on that step, and is not
// ok, however few of its steps ran: here, none (its context ended before
// the first).
func TestInterruptedBetweenSteps(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := runner.Run(ctx, []byte(`{"steps":[{"listTabs":true,"optional":true},{"listTabs":true}]}`), c.options(nil))
	if res.Status != "error" || len(res.Steps) != 1 || res.Steps[0].Status != "error" || res.Steps[0].Error != "the call was interrupted" {
		t.Errorf("result: %+v", res)
	}
}
