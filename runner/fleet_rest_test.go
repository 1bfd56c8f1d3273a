package runner_test

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The REST fleets, each against its stand-in (fleet_standin_test.go),
// not the service: an agent opens a tab there, later calls reach the same
// browser by its alias, a wrong token is named, closeTab of the last tab
// releases the session (the stand-in sees it), an alias whose session was
// released says so, and no token is in any file or output.

func TestBrowserbase(t *testing.T) {
	t.Parallel()
	testREST(t, "browserbase", "BROWSERBASE_API_KEY", "bb-test-key-5c1e", map[string]string{"BROWSERBASE_PROJECT_ID": "proj-1"})
}

// browserless's cloud, by its Session API (the open-source server, which
// has none, is TestBrowserless's).
func TestBrowserlessCloud(t *testing.T) {
	t.Parallel()
	testREST(t, "browserless", "BROWSERLESS_TOKEN", "bl-cloud-key-71af", nil)
}

func TestSteel(t *testing.T) {
	t.Parallel()
	testREST(t, "steel", "STEEL_API_KEY", "ste-test-key-9d2b", nil)
}

// A Grid without auth takes no token; its stand-in deletes a session no
// WebDriver command came for within 3 s, and the keeper's pings keep it
// (every second: a loaded machine may hold one back a second or two).
func TestSelenium(t *testing.T) {
	t.Parallel()
	testREST(t, "selenium", "", "", nil)
}

// A Grid behind basic auth (--username, --password) asks it of every
// request and of the se:cdp websocket: the credentials come from
// SELENIUM_GRID_AUTH, or from the endpoint for its first call.
func TestSeleniumBasicAuth(t *testing.T) {
	t.Parallel()
	testREST(t, "selenium", "SELENIUM_GRID_AUTH", "grid-user:grid-pass-9f2", nil)
}

func testREST(t *testing.T, provider, tokenEnv, token string, extra map[string]string) {
	var idle time.Duration
	if provider == "selenium" {
		idle = 3 * time.Second
	}
	s := startStandIn(t, provider, token, idle)
	endpoint := s.srv.URL
	if idle > 0 {
		endpoint += "?sessionTimeout=" + idle.String()
	}
	c := newCLI(t).withFleetKeepers()
	env := map[string]string{"CDP_URL": ""}
	if tokenEnv != "" {
		env[tokenEnv] = token
	}
	for k, v := range extra {
		env[k] = v
	}
	var outs []string
	run := func(env map[string]string, input string) (map[string]any, int, string) {
		res, code, out := c.runEnv(env, input)
		outs = append(outs, out)
		return res, code, out
	}

	// Open: a session made there, the registry keeping its id and the
	// API's address, and no token.
	res, code, out := run(env, fmt.Sprintf(`{"steps":[{"openTab":{"url":%q,"provider":%q,"endpoint":%q}}]}`, fixture.URL+"/form.html", provider, endpoint))
	if code != 0 {
		t.Fatalf("openTab: %s", out)
	}
	tab := res["tab"].(string)
	entry := c.registry(t)[tab]
	id := provider + "-sess-1"
	if entry["provider"] != provider || entry["providerSession"] != id || !strings.HasPrefix(fmt.Sprint(entry["providerApi"]), s.srv.URL) {
		t.Fatalf("registry entry %v", entry)
	}
	if provider == "browserbase" && (!s.saw("project proj-1") || strings.Contains(fmt.Sprint(entry), "signed-")) {
		t.Errorf("the project, or the signing key kept: %v", entry)
	}

	// listTabs, naming no browser, lists the fleet's browser (its own blank
	// tab too, in the default session).
	res, code, out = run(env, `{"steps":[{"listTabs":true}]}`)
	if code != 0 || !strings.Contains(out, `"tab":"`+tab+`"`) {
		t.Errorf("listTabs: %s", out)
	}

	// A session with a tab on the local browser (CDP_URL's) and one on the
	// fleet: listTabs lists both.
	if provider == "steel" {
		b := chromium(t)
		envM := map[string]string{"CDPSKILL_SESSION": "m", "CDP_URL": fmt.Sprintf("http://%s:%d", b.Endpoint.Host, b.Endpoint.Port)}
		for k, v := range env {
			if k != "CDP_URL" {
				envM[k] = v
			}
		}
		run(envM, `{"steps":[{"openTab":true}]}`)
		run(envM, fmt.Sprintf(`{"steps":[{"openTab":{"provider":%q,"endpoint":%q}}]}`, provider, endpoint))
		res, code, out = run(envM, `{"steps":[{"listTabs":true}]}`)
		if code != 0 || stepOut(t, res, 0)["count"] != 2.0 || !strings.Contains(out, `"tab":"t1"`) || !strings.Contains(out, `"tab":"t2"`) {
			t.Errorf("listTabs of a session on two browsers: %s", out)
		}
		run(envM, `{"steps":[{"closeTab":"t1"},{"closeTab":"t2"}]}`)
	}

	// Later calls reach the same page, by its alias; a Grid's session
	// outlives its timeout with no call, the keeper pinging it.
	for n := 1; n <= 2; n++ {
		if n == 2 && idle > 0 {
			time.Sleep(2 * idle)
			s.awaitCall(t, "ping "+id)
		}
		res, code, out = run(env, fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"() => document.title + ':' + (window.__n = (window.__n || 0) + 1)"}]}`, tab))
		if got, want := stepOut(t, res, 0)["value"], fmt.Sprintf("Form fixture:%d", n); code != 0 || got != want {
			t.Fatalf("read %d: %v, want %s: %s", n, got, want, out)
		}
	}
	if s.saw("expired " + id) {
		t.Errorf("the session expired while its keeper kept it")
	}

	// The keeper's connection cut, the session alive (a proxy's limit): not
	// taken for its end; the next call reaches the same page.
	s.cut(id)
	c.awaitKeeperFile(t, "keeper.log", "the session is still there")
	res, code, out = run(env, fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"() => window.__n"}]}`, tab))
	if got := stepOut(t, res, 0)["value"]; code != 0 || got != 2.0 {
		t.Fatalf("after the keeper's connection was cut: %v: %s", got, out)
	}
	t.Logf("after the cut: %s", out)

	// A wrong token: refused, the variable named; its openTab too.
	if tokenEnv != "" {
		bad := map[string]string{tokenEnv: "wrong-key"}
		_, code, out = run(bad, fmt.Sprintf(`{"tab":%q,"steps":[{"getUrl":true}]}`, tab))
		if _, msg := errorOf(decode(t, []byte(out))); code != 1 || !strings.Contains(msg, "refused the token (HTTP 401") || !strings.Contains(msg, "set "+tokenEnv) {
			t.Errorf("401: %s", out)
		}
		res, code, out = run(map[string]string{tokenEnv: "wrong-key", "CDPSKILL_SESSION": "w", "CDP_URL": ""},
			fmt.Sprintf(`{"steps":[{"openTab":{"provider":%q,"endpoint":%q}}]}`, provider, endpoint))
		create := map[string]string{"browserless": "/session", "selenium": "/session"}[provider]
		if create == "" {
			create = "/v1/sessions"
		}
		if msg := fmt.Sprint(firstError(res)["error"]); code != 1 || !strings.Contains(msg, "refused the token (its POST "+create+" answered HTTP 401") || !strings.Contains(msg, "set "+tokenEnv) {
			t.Errorf("openTab's 401: %s", out)
		}
	}

	// Close: the last tab releases the session.
	res, code, out = run(env, fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, tab))
	if code != 0 || stepOut(t, res, 0)["released"] != true {
		t.Errorf("closeTab of the last tab: %s", out)
	}
	s.awaitCall(t, "released "+id)

	// A session its keeper released when no call came: its alias says so.
	envD := map[string]string{"CDPSKILL_SESSION": "d", "CDPSKILL_IDLE": "1s"}
	for k, v := range env {
		envD[k] = v
	}
	if provider == "selenium" && token != "" {
		// The Grid's credentials in the endpoint only: used (its keeper
		// pings and releases with them), never shown, and the agent told
		// that later calls take them from the environment.
		openEnv := map[string]string{tokenEnv: ""}
		for k, v := range envD {
			if k != tokenEnv {
				openEnv[k] = v
			}
		}
		res, code, out = run(openEnv, fmt.Sprintf(`{"steps":[{"openTab":{"provider":%q,"endpoint":%q}}]}`, provider, strings.Replace(endpoint, "://", "://"+token+"@", 1)))
		if code != 0 || !strings.Contains(out, "the token came with the endpoint only: later calls on this tab read it from "+tokenEnv) {
			t.Fatalf("credentials in the endpoint: %s", out)
		}
	} else {
		res, code, out = run(envD, fmt.Sprintf(`{"steps":[{"openTab":{"provider":%q,"endpoint":%q}}]}`, provider, endpoint))
	}
	if code != 0 {
		t.Fatalf("openTab: %s", out)
	}
	tD := res["tab"].(string)
	idD := fmt.Sprint(c.sessionRegistry(t, "d")[tD]["providerSession"])
	s.awaitCall(t, "released "+idD) // the keeper's note comes before it
	res, code, out = run(envD, fmt.Sprintf(`{"tab":%q,"steps":[{"getUrl":true}]}`, tD))
	if _, msg := errorOf(res); code != 1 || !strings.Contains(msg, "is gone (HTTP 404") || !strings.Contains(msg, "cdpskill released it at") || !strings.Contains(msg, "after 1s with no call") {
		t.Errorf("after release: %s", out)
	}
	t.Logf("after release: %s", out)

	// A session the service ended: at the end of the life it was made
	// with (asked for on the endpoint), or, a Grid's, by its own timeout.
	// Its alias says which.
	envE := map[string]string{"CDPSKILL_SESSION": "e"}
	for k, v := range env {
		envE[k] = v
	}
	life := map[string]string{"browserbase": "timeout=1", "steel": "timeout=1000", "browserless": "ttl=1000"}[provider]
	endpointE := endpoint
	if life != "" {
		endpointE += "?" + life
	}
	res, code, out = run(envE, fmt.Sprintf(`{"steps":[{"openTab":{"provider":%q,"endpoint":%q}}]}`, provider, endpointE))
	if code != 0 {
		t.Fatalf("openTab: %s", out)
	}
	tE := res["tab"].(string)
	idE := fmt.Sprint(c.sessionRegistry(t, "e")[tE]["providerSession"])
	want := "it expired (the life it was made with ended at"
	s.expire()
	if life == "" {
		s.end(idE, "expired")
		want = "(its own timeout, or it was released or killed there)"
	}
	s.awaitCall(t, "expired "+idE)
	c.awaitReleaseNote(t, provider+" ended its session")
	res, code, out = run(envE, fmt.Sprintf(`{"tab":%q,"steps":[{"getUrl":true}]}`, tE))
	if _, msg := errorOf(res); code != 1 || !strings.Contains(msg, "is gone (HTTP 404") || !strings.Contains(msg, provider+" ended its session at") || !strings.Contains(msg, want) {
		t.Errorf("after the service ended it: %s", out)
	}
	t.Logf("after the service ended it: %s", out)

	if token != "" {
		secrets := []string{token}
		if _, pass, ok := strings.Cut(token, ":"); ok { // a Grid's user:password, and its basic auth
			secrets = append(secrets, pass, base64.StdEncoding.EncodeToString([]byte(token)))
		}
		for _, secret := range secrets {
			noTokenIn(t, c.tmp, secret)
			for _, o := range outs {
				if strings.Contains(o, secret) {
					t.Errorf("an output shows the token: %s", o)
				}
			}
		}
	}
}

// awaitReleaseNote waits until a keeper noted a held browser's end with
// a note that says want, 10 s at most.
func (c *cli) awaitReleaseNote(t *testing.T, want string) {
	t.Helper()
	c.awaitKeeperFile(t, "released.json", want)
}

// awaitKeeperFile waits until a keeper's file name says want, 10 s at
// most.
func (c *cli) awaitKeeperFile(t *testing.T, name, want string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		files, _ := filepath.Glob(filepath.Join(c.tmp, "cdp-skill", "keepers", "*", name))
		for _, f := range files {
			if data, err := os.ReadFile(f); err == nil && strings.Contains(string(data), want) {
				return
			}
		}
	}
	t.Fatalf("no keeper's %s says %q", name, want)
}
