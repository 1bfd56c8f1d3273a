package runner_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/testbrowser"
)

// session is an agent's shell whose calls name a session.
type session struct {
	*cli
	name string
}

// session returns c's session name; when the test ends its tabs are
// closed and its browser context disposed of, as the shared browser
// outlives the test.
func (c *cli) session(t *testing.T, name string) *session {
	s := &session{cli: c, name: name}
	t.Cleanup(func() {
		res, _ := s.run(`{"steps":[{"listTabs":true}]}`)
		if out, ok := stepOutputs(t, res)[0]["output"].(map[string]any); ok {
			for _, tb := range out["tabs"].([]any) {
				s.run(fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, tb.(map[string]any)["targetId"]))
			}
		}
		if id := s.contextID(t); id != "" {
			_ = proto.TargetDisposeBrowserContext{BrowserContextID: id}.Do(t.Context(), chromium(t).Conn.Browser())
		}
	})
	return s
}

// run runs a call in the session: input is a call's JSON without it.
func (s *session) run(input string) (map[string]any, int) {
	s.t.Helper()
	return s.cli.run(`{"session":` + fmt.Sprintf("%q", s.name) + `,` + strings.TrimPrefix(input, "{"))
}

// openTab opens a tab of the session on the shared browser and returns
// its alias.
func (s *session) openTab(t *testing.T, url string) string {
	t.Helper()
	b := chromium(t)
	res, code := s.run(fmt.Sprintf(`{"steps":[{"openTab":{"url":%q,"host":%q,"port":%d}}]}`, url, b.Endpoint.Host, b.Endpoint.Port))
	if code != 0 {
		t.Fatalf("session %s openTab: %v", s.name, res)
	}
	return res["tab"].(string)
}

// call runs steps on the session's tab and returns their outputs.
func (s *session) call(t *testing.T, tab, steps string) []map[string]any {
	t.Helper()
	res, code := s.run(fmt.Sprintf(`{"tab":%q,"steps":[%s]}`, tab, steps))
	if code != 0 {
		t.Fatalf("session %s: %s: exit %d: %v", s.name, steps, code, res)
	}
	var outs []map[string]any
	for _, st := range stepOutputs(t, res) {
		o, _ := st["output"].(map[string]any)
		outs = append(outs, o)
	}
	return outs
}

// registryFile is the session's registry file.
func (s *session) registryFile() string {
	return filepath.Join(s.tmp, "cdp-skill", "sessions", s.name, "tabs.json")
}

// contextID is the session's browser context as its registry records it,
// "" when none.
func (s *session) contextID(t *testing.T) string {
	data, err := os.ReadFile(s.registryFile())
	if err != nil {
		return ""
	}
	var reg struct {
		Contexts []struct{ ID string } `json:"contexts"`
	}
	if err := json.Unmarshal(data, &reg); err != nil || len(reg.Contexts) == 0 {
		return ""
	}
	return reg.Contexts[0].ID
}

// listTabs is the session's tabs on the shared browser, by alias.
func (s *session) listTabs(t *testing.T) map[string]string {
	t.Helper()
	b := chromium(t)
	res, code := s.run(fmt.Sprintf(`{"steps":[{"listTabs":{"host":%q,"port":%d}}]}`, b.Endpoint.Host, b.Endpoint.Port))
	if code != 0 {
		t.Fatalf("session %s listTabs: %v", s.name, res)
	}
	tabs := map[string]string{}
	for _, tb := range stepOutputs(t, res)[0]["output"].(map[string]any)["tabs"].([]any) {
		m := tb.(map[string]any)
		a, _ := m["tab"].(string)
		tabs[m["targetId"].(string)] = a
	}
	return tabs
}

// Two sessions in one browser, on one origin, keep their cookies, storage
// and aliases apart: t1 is each session's own tab, a session lists only
// its own, and neither an alias mistyped nor another session's target id
// reaches the other's tab.
func TestSessionsKeepApart(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	own := strings.Replace(testbrowser.Serve(t, "testdata").URL, "127.0.0.1", "localhost", 1)
	page := own + "/hello.html"
	a, b := c.session(t, "a"), c.session(t, "b")
	res, code := a.run(fmt.Sprintf(`{"steps":[{"openTab":{"url":%q,"host":%q,"port":%d}}]}`, page, chromium(t).Endpoint.Host, chromium(t).Endpoint.Port))
	if code != 0 || res["tab"] != "t1" {
		t.Fatalf("session a's first tab: %v", res)
	}
	if shot, _ := res["screenshot"].(string); filepath.Dir(shot) != filepath.Join(c.tmp, "cdp-skill", "sessions", "a", "t1.history") {
		t.Errorf("session a's screenshot is %s, not in its own directory", shot)
	}
	if tb := b.openTab(t, page); tb != "t1" {
		t.Fatalf("session b's first tab is %s, want t1 of its own", tb)
	}
	for _, s := range []*session{a, b} {
		s.call(t, "t1", fmt.Sprintf(`{"cookies":{"set":[{"name":"who","value":%q}]}},{"storage":{"local":{"set":{"who":%q}}}}`, s.name, s.name))
	}
	for _, s := range []*session{a, b} {
		outs := s.call(t, "t1", `{"reload":true},{"pageFunction":"document.cookie"},{"cookies":{"get":true,"all":true}},{"storage":{"local":{"get":"who"}}}`)
		if got := outs[1]["value"]; got != "who="+s.name {
			t.Errorf("session %s's page has the cookies %q", s.name, got)
		}
		if all := outs[2]["cookies"].([]any); len(all) != 1 || all[0].(map[string]any)["value"] != s.name {
			t.Errorf("session %s's cookies are %v", s.name, all)
		}
		if got := outs[3]["local"].(map[string]any)["items"].(map[string]any)["who"]; got != s.name {
			t.Errorf("session %s's localStorage says %v", s.name, got)
		}
	}
	// The default session sees neither's cookies nor storage.
	def := c.openTab(page)
	outs := c.call(t, def, `{"pageFunction":"[document.cookie.includes('who='), localStorage.getItem('who')]"},{"cookies":{"get":true,"all":true}}`)
	if v := fmt.Sprint(outs[0]["value"]); v != "[false <nil>]" {
		t.Errorf("the default session's page sees %s", v)
	}
	if strings.Contains(jsonText(outs[1]["cookies"]), `"who"`) {
		t.Errorf("the default session's cookies hold a session's: %v", outs[1])
	}

	// Aliases and listings are each session's own.
	tabsA, tabsB := a.listTabs(t), b.listTabs(t)
	if len(tabsA) != 1 || len(tabsB) != 1 {
		t.Fatalf("listTabs: a %v, b %v", tabsA, tabsB)
	}
	var idA, idB string
	for id := range tabsA {
		idA = id
	}
	for id := range tabsB {
		idB = id
	}
	if idA == idB || tabsA[idA] != "t1" || tabsB[idB] != "t1" {
		t.Fatalf("t1 of a is %s, t1 of b %s", idA, idB)
	}
	if t2 := b.openTab(t, page+"?second"); t2 != "t2" {
		t.Fatalf("session b's second tab is %s", t2)
	}
	res, code = a.run(`{"tab":"t2","steps":[{"getUrl":true}]}`)
	if typ, msg := errorOf(res); code != 1 || typ != "CONNECTION" || !strings.Contains(msg, `unknown tab "t2" in session "a"`) {
		t.Errorf("session a's call on t2, which only b has: %v", res)
	}
	// A target id of b's tab is refused in session a: as the call's tab,
	// to connect to, or to close. (A bare target id is the default
	// browser's: CDP_URL's.)
	c.cdpURL = fmt.Sprintf("http://%s:%d", chromium(t).Endpoint.Host, chromium(t).Endpoint.Port)
	for _, call := range []string{
		fmt.Sprintf(`{"tab":%q,"steps":[{"getUrl":true}]}`, idB),
		fmt.Sprintf(`{"steps":[{"connectTab":{"targetId":%q,"host":%q,"port":%d}}]}`, idB, chromium(t).Endpoint.Host, chromium(t).Endpoint.Port),
		fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, idB),
	} {
		res, code := a.run(call)
		if code != 1 || !strings.Contains(jsonText(res), `is not one of session \"a\"'s tabs`) {
			t.Errorf("session a reached b's tab: %s: %v", call, res)
		}
	}
	if got := b.listTabs(t); got[idB] != "t1" {
		t.Errorf("b's t1 is gone after a's attempts: %v", got)
	}
	// A pattern matches the session's own tabs only.
	res, code = a.run(fmt.Sprintf(`{"steps":[{"connectTab":{"url":"second","host":%q,"port":%d}}]}`, chromium(t).Endpoint.Host, chromium(t).Endpoint.Port))
	if code != 1 {
		t.Errorf("session a's connectTab matched b's tab: %v", res)
	}
	res, code = a.run(fmt.Sprintf(`{"steps":[{"connectTab":{"url":"hello","host":%q,"port":%d}}]}`, chromium(t).Endpoint.Host, chromium(t).Endpoint.Port))
	if code != 0 || res["tab"] != "t1" || res["otherMatches"] != nil {
		t.Errorf("session a's connectTab by url: %v", res)
	}
	// chromeStatus too shows a session its own tabs only.
	res, code = a.run(fmt.Sprintf(`{"steps":[{"chromeStatus":{"host":%q,"port":%d,"autoLaunch":false}}]}`, chromium(t).Endpoint.Host, chromium(t).Endpoint.Port))
	if s := jsonText(res); code != 0 || !strings.Contains(s, idA) || strings.Contains(s, idB) {
		t.Errorf("session a's chromeStatus: %s", s)
	}
	// The default session lists every tab, as before sessions.
	res, _ = c.run(fmt.Sprintf(`{"steps":[{"listTabs":{"host":%q,"port":%d}}]}`, chromium(t).Endpoint.Host, chromium(t).Endpoint.Port))
	if s := jsonText(res); !strings.Contains(s, idA) || !strings.Contains(s, idB) {
		t.Errorf("the default session's listTabs lacks the sessions' tabs: %s", s)
	}
}

// A session's name comes from the call, else from CDPSKILL_SESSION; a name
// that is no file name is refused before anything runs.
func TestSessionFromEnvironment(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	envy, other := c.session(t, "envy"), c.session(t, "other")
	ep := fmt.Sprintf(`"host":%q,"port":%d`, chromium(t).Endpoint.Host, chromium(t).Endpoint.Port)
	env := map[string]string{"CDPSKILL_SESSION": "envy"}
	res, code, _ := c.runEnv(env, fmt.Sprintf(`{"steps":[{"openTab":{"url":%q,%s}}]}`, fixture.URL+"/hello.html", ep))
	if code != 0 {
		t.Fatalf("openTab in CDPSKILL_SESSION's session: %v", res)
	}
	if got := envy.listTabs(t); len(got) != 1 {
		t.Errorf("session envy lists %v, want the tab CDPSKILL_SESSION's call opened", got)
	}
	if got := other.listTabs(t); len(got) != 0 {
		t.Errorf("session other lists %v", got)
	}
	res, code, _ = c.runEnv(env, `{"tab":"t1","steps":[{"getTitle":true}]}`)
	if code != 0 {
		t.Errorf("t1 of CDPSKILL_SESSION's session: %v", res)
	}
	// The call's "session" goes before the environment's.
	res, code, _ = c.runEnv(env, `{"session":"other","tab":"t1","steps":[{"getTitle":true}]}`)
	if _, msg := errorOf(res); code != 1 || !strings.Contains(msg, `in session "other"`) {
		t.Errorf("t1 with \"session\":\"other\" over CDPSKILL_SESSION=envy: %v", res)
	}
	for _, tc := range []struct {
		env   map[string]string
		input string
		says  string
	}{
		{map[string]string{"CDPSKILL_SESSION": "../up"}, `{"steps":[{"listTabs":true}]}`, `CDPSKILL_SESSION in the environment: "../up" is not a session name`},
		{nil, `{"session":"a b","steps":[{"listTabs":true}]}`, `"session" "a b" is not a session name: use 1 to 64 letters`},
		{nil, `{"session":7,"steps":[{"listTabs":true}]}`, `"session" must be a session name`},
	} {
		res, code, _ := c.runEnv(tc.env, tc.input)
		if typ, msg := errorOf(res); code != 1 || typ != "VALIDATION" || !strings.Contains(msg, tc.says) {
			t.Errorf("%s with %v: %v, want VALIDATION saying %s", tc.input, tc.env, res, tc.says)
		}
	}
}

// A session whose browser context is gone is told so by the next call
// that names it, which forgets it; it is never made again on the quiet:
// the session's next openTab starts it afresh.
func TestSessionGone(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	s := c.session(t, "gone")
	dispose := func() {
		t.Helper()
		if err := (proto.TargetDisposeBrowserContext{BrowserContextID: s.contextID(t)}).Do(t.Context(), chromium(t).Conn.Browser()); err != nil {
			t.Fatal(err)
		}
	}
	goneSaid := regexp.MustCompile(`session "gone" is gone: its browser context is no longer in Chrome at .*openTab starts the session afresh`)
	s.openTab(t, fixture.URL+"/hello.html")
	s.call(t, "t1", `{"pageFunction":"localStorage.setItem('k', 'v')"}`)
	first := s.contextID(t)
	dispose()
	res, code := s.run(`{"tab":"t1","steps":[{"getTitle":true}]}`)
	if typ, msg := errorOf(res); code != 1 || typ != "CONNECTION" || !goneSaid.MatchString(msg) {
		t.Fatalf("the call after the context went: %v", res)
	}
	if s.contextID(t) != "" {
		t.Errorf("the gone context is still recorded")
	}
	res, code = s.run(`{"tab":"t1","steps":[{"getTitle":true}]}`)
	if _, msg := errorOf(res); code != 1 || !strings.Contains(msg, `unknown tab "t1" in session "gone"`) {
		t.Errorf("the call after the report: %v", res)
	}
	tab := s.openTab(t, fixture.URL+"/hello.html")
	if s.contextID(t) == first || s.contextID(t) == "" {
		t.Errorf("openTab after the report did not make a new context")
	}
	if v := s.call(t, tab, `{"pageFunction":"localStorage.getItem('k')"}`)[0]["value"]; v != nil {
		t.Errorf("the new context has the old one's storage: %v", v)
	}
	// An openTab or a listTabs can be the call that finds it gone.
	for _, step := range []string{
		fmt.Sprintf(`{"openTab":{"url":"about:blank","host":%q,"port":%d}}`, chromium(t).Endpoint.Host, chromium(t).Endpoint.Port),
		fmt.Sprintf(`{"listTabs":{"host":%q,"port":%d}}`, chromium(t).Endpoint.Host, chromium(t).Endpoint.Port),
	} {
		dispose()
		res, code := s.run(`{"steps":[` + step + `]}`)
		if code != 1 || !goneSaid.MatchString(fmt.Sprint(res)) {
			t.Errorf("%s after the context went: %v", step, res)
		}
		s.openTab(t, "about:blank")
	}
}

// A session whose Chrome no longer runs is gone too, with its context.
func TestSessionGoneWithChrome(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	s := c.session(t, "down")
	s.openTab(t, "about:blank")
	id := s.contextID(t)
	// The registry as it would be had the session's Chrome listened on a
	// port where nothing listens now.
	data, err := os.ReadFile(s.registryFile())
	if err != nil {
		t.Fatal(err)
	}
	port := fmt.Sprintf(`"port": %d`, chromium(t).Endpoint.Port)
	moved := strings.ReplaceAll(strings.ReplaceAll(string(data), port, `"port": 1`), `"browserWs"`, `"_ws"`)
	if err := os.WriteFile(s.registryFile(), []byte(moved), 0o600); err != nil {
		t.Fatal(err)
	}
	res, code := s.run(`{"tab":"t1","steps":[{"getTitle":true}]}`)
	if _, msg := errorOf(res); code != 1 || !strings.Contains(msg, fmt.Sprintf(`session "down" is gone: Chrome at %s:1 is no longer running`, chromium(t).Endpoint.Host)) {
		t.Errorf("the call after its Chrome went: %v", res)
	}
	if s.contextID(t) != "" {
		t.Errorf("the gone context is still recorded")
	}
	_ = proto.TargetDisposeBrowserContext{BrowserContextID: id}.Do(t.Context(), chromium(t).Conn.Browser())
}

// A session's downloads are saved in its own directory: download settings
// are each browser context's, and Chrome cancels a context's downloads
// when none are set. Unlike the default session's download tests, it runs
// beside the others: the calls that end around it reset the default
// context's settings, not its own.
func TestSessionDownloads(t *testing.T) {
	t.Parallel()
	srv := newDownloadServer(t)
	c := newCLI(t)
	s := c.session(t, "dl")
	tab := s.openTab(t, srv.URL+"/downloads.html")
	res, code := s.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#attachment"}]}`, tab))
	if code != 0 {
		t.Fatalf("%v", res)
	}
	dls := downloadsOf(t, res, 0)
	want := filepath.Join(c.tmp, "cdp-skill", "sessions", "dl", "downloads", "report.csv")
	if len(dls) != 1 || dls[0]["state"] != "completed" || dls[0]["path"] != want {
		t.Fatalf("session dl's download: %v, want it completed in %s", res["steps"], want)
	}
	if got, err := os.ReadFile(want); err != nil || string(got) != "first" {
		t.Errorf("%s holds %q, %v", want, got, err)
	}
	// A batch that stays on its tab sets them over the tab's own websocket.
	res, code = s.run(fmt.Sprintf(`{"tab":%q,"steps":[{"goto":%q}]}`, tab, srv.URL+"/dl/data.json?body=%7B%7D"))
	want = filepath.Join(c.tmp, "cdp-skill", "sessions", "dl", "downloads", "data.json")
	if dls := downloadsOf(t, res, 0); code != 0 || len(dls) != 1 || dls[0]["path"] != want {
		t.Fatalf("session dl's download by goto: %v, want it in %s", res, want)
	}
}
