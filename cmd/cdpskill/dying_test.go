package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
)

// runWhile starts a call that waits forever on the tab, does something to
// the tab mid-call, and returns the call's result.
func runWhile(t *testing.T, c *cli, tab string, act func(targetID string)) map[string]any {
	t.Helper()
	id := c.registry(t)[tab]["targetId"].(string)
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	cmd := c.cmd(ctx, fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"window.started = true"},{"wait":{"text":"never appears"}}]}`, tab))
	var out strings.Builder
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c.waitTrue(t, tab, "window.started === true")
	act(id)
	cmd.Wait()
	if ctx.Err() != nil {
		t.Fatal("the call waited out its timeout on a dead tab")
	}
	return decode(t, []byte(out.String()))
}

func firstError(res map[string]any) map[string]any {
	errs, _ := res["errors"].([]any)
	if len(errs) == 0 {
		return nil
	}
	return errs[0].(map[string]any)
}

func TestPageCrashMidCall(t *testing.T) {
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html")
	res := runWhile(t, c, tab, func(id string) {
		s, err := cdp.Attach(t.Context(), browser.Conn, id)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
		defer cancel()
		s.Call(ctx, "Page.crash", nil, nil) // never answers: the renderer is gone
	})
	if e := firstError(res); e == nil || e["name"] != "PageCrashedError" {
		t.Fatalf("got %v", res)
	}
	// The next call on the crashed tab reloads it and says so.
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"document.title"}]}`, tab))
	if code != 0 || stepOut(t, res, 0)["value"] != "Hello fixture" || !strings.Contains(fmt.Sprint(res["warnings"]), "reloaded") {
		t.Fatalf("the call after the crash: exit %d: %v", code, res)
	}
}

func TestTabClosedByOtherMidCall(t *testing.T) {
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html")
	res := runWhile(t, c, tab, func(id string) {
		browser.Conn.Call(t.Context(), "", "Target.closeTarget", map[string]any{"targetId": id}, nil)
	})
	if e := firstError(res); e == nil || e["type"] != "CONNECTION" || !strings.Contains(e["error"].(string), tab) {
		t.Fatalf("got %v", res)
	}
}
