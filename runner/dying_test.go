package runner_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp/proto"
)

// runWhile starts a call that waits forever on the tab, does something to
// the tab mid-call, and returns the call's result, exit code and time.
func runWhile(t *testing.T, c *cli, tab string, act func(targetID string)) (map[string]any, int, time.Duration) {
	t.Helper()
	id := c.registry(t)[tab]["targetId"].(string)
	wait := c.startCall(t, fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"window.started = true"},{"wait":{"text":"never appears"}}]}`, tab))
	c.waitTrue(t, tab, "window.started === true")
	act(id)
	return wait()
}

func firstError(res map[string]any) map[string]any {
	errs, _ := res["errors"].([]any)
	if len(errs) == 0 {
		return nil
	}
	return errs[0].(map[string]any)
}

func TestPageCrashMidCall(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html")
	res, code, d := runWhile(t, c, tab, func(id string) {
		s, err := proto.Attach(t.Context(), chromium(t).Conn, id)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
		defer cancel()
		proto.PageCrash{}.Do(ctx, s) // never answers: the renderer is gone
	})
	failedWith(t, "a tab that crashed mid-call", res, code, d, "EXECUTION", "PageCrashedError", "crashed")
	// The next call on the crashed tab reloads it and says so.
	res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"document.title"}]}`, tab))
	if code != 0 || stepOut(t, res, 0)["value"] != "Hello fixture" || !strings.Contains(fmt.Sprint(res["warnings"]), "reloaded") {
		t.Fatalf("the call after the crash: exit %d: %v", code, res)
	}
}

func TestTabClosedByOtherMidCall(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html")
	res, code, d := runWhile(t, c, tab, func(id string) {
		proto.TargetCloseTarget{TargetID: id}.Do(t.Context(), chromium(t).Conn.Browser())
	})
	failedWith(t, "a tab closed by another mid-call", res, code, d, "CONNECTION", "", tab)
}
