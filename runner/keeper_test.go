package runner_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/chrome"
	"github.com/cdpskill/cdpskill/internal/private"
	"github.com/cdpskill/cdpskill/tabs"
)

// idleEnv is the environment of calls whose keeper closes what was idle
// for a second.
var idleEnv = map[string]string{"CDPSKILL_IDLE": "1s"}

// A session no call used for the idle time is closed, with its tabs, by
// the browser's keeper, and the next call of the session says so and
// why; the session's next openTab starts it afresh. A session in use
// meanwhile stays open: its calls must come within the idle time of each
// other, which is 3 s here, not 1 s, as a call on a loaded machine can
// take a second.
func TestIdleSessionClosed(t *testing.T) {
	t.Parallel()
	c := newCLI(t).withKeeper()
	b := chromium(t)
	env := map[string]string{"CDPSKILL_IDLE": "3s"}
	open := func(session string) string {
		t.Helper()
		res, code, _ := c.runEnv(env, fmt.Sprintf(`{"session":%q,"steps":[{"openTab":{"url":%q,"host":%q,"port":%d}}]}`,
			session, fixture.URL+"/form.html", b.Endpoint.Host, b.Endpoint.Port))
		if code != 0 {
			t.Fatalf("openTab in %s: %v", session, res)
		}
		return res["tab"].(string)
	}
	idle, busy := open("idle"), open("busy")
	t.Cleanup(func() { c.runEnv(env, fmt.Sprintf(`{"session":"busy","steps":[{"closeTab":%q}]}`, busy)) })
	reg := tabs.OpenSession(private.Temp(c.tmp), "idle")
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		if res, code, _ := c.runEnv(env, fmt.Sprintf(`{"session":"busy","tab":%q,"steps":[{"pageFunction":"1"}]}`, busy)); code != 0 {
			t.Fatalf("the busy session: %v", res)
		}
		if ctx, _, _ := reg.Context(b.Endpoint); ctx.Closed != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the idle session was not closed")
		}
	}
	res, code, _ := c.runEnv(env, fmt.Sprintf(`{"session":"idle","tab":%q,"steps":[{"pageFunction":"1"}]}`, idle))
	msg := fmt.Sprint(field(res, "error", "message"))
	if code == 0 || field(res, "error", "type") != "CONNECTION" ||
		!strings.Contains(msg, `session "idle" is gone: cdpskill closed it at `) || !strings.Contains(msg, "after 3s with no call") {
		t.Errorf("a call of the idle session: %v", res)
	}
	again := open("idle")
	c.runEnv(env, fmt.Sprintf(`{"session":"idle","steps":[{"closeTab":%q}]}`, again))
}

// A Chrome cdpskill launched that no call reached for the idle time is
// asked to exit by its keeper. The next call on one of its tabs says why
// it is gone, and the next openTab launches another and says why one
// was needed.
func TestIdleChromeExits(t *testing.T) {
	t.Parallel()
	c := newCLI(t).withKeeper()
	c.tmp = launchDir(t)
	ep := chrome.Endpoint{Host: "127.0.0.1", Port: freePort(t)}
	open := fmt.Sprintf(`{"steps":[{"openTab":{"url":%q,"port":%d}}]}`, fixture.URL+"/form.html", ep.Port)
	res, code, _ := c.runEnv(idleEnv, open)
	if code != 0 || res["warnings"] != nil {
		t.Fatalf("openTab launching Chrome: %v", res)
	}
	tab := res["tab"].(string)
	waitGone(t, ep)
	res, code, _ = c.runEnv(idleEnv, fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"1"}]}`, tab))
	if msg := fmt.Sprint(field(res, "error", "message")); code == 0 || !strings.Contains(msg, "tab "+tab+" is gone: cdpskill closed Chrome at ") {
		t.Errorf("a call on a tab of the Chrome that exited: %v", res)
	}
	res, code, _ = c.runEnv(idleEnv, open)
	if w := jsonText(res["warnings"]); code != 0 || !strings.Contains(w, "was not running (cdpskill closed Chrome at ") || !strings.Contains(w, "after 1s with no call), so a new one was launched") {
		t.Errorf("openTab after: %v", res)
	}
	waitGone(t, ep) // its keeper closes it too
}

// waitGone waits, 20 s at most, until no Chrome answers at ep: its port
// refuses. A Chrome slow to answer on a loaded machine is not gone.
func waitGone(t *testing.T, ep chrome.Endpoint) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
		_, err := chrome.GetVersion(ctx, ep)
		slow := ctx.Err() != nil
		cancel()
		if err != nil && !slow {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("Chrome at %s still answers", ep)
		}
	}
}

// freePort is a local port nothing listens on, just now.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// launchDir is a TMPDIR for calls that launch Chrome, whose profile goes
// there: its removal is retried a moment, as a Chrome helper may still be
// closing a file in it.
func launchDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "cdpskill-launch-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for deadline := time.Now().Add(5 * time.Second); os.RemoveAll(dir) != nil; time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Errorf("cannot remove %s", dir)
				return
			}
		}
	})
	return dir
}
