package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/testbrowser"
	"github.com/cdpskill/cdpskill/runner"
)

// The tests here need a real process: exit codes, stdin, signals, kills,
// processes sharing a tab or a registry, leaks, install. The behaviour of
// calls is tested in package runner, in-process (runner/main_test.go).

var (
	// browser is the shared Chromium, started by the first test that
	// needs it (chromium): the tests of input, help and install need none.
	browser testbrowser.Shared
	binary  string // the built cdpskill
	// fixture serves runner's test pages.
	fixture *httptest.Server
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "cdpskill-bin-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "cdpskill")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build: %v\n%s", err, out)
		os.Exit(1)
	}
	fixture = httptest.NewServer(http.FileServer(http.Dir("../../runner/testdata")))
	testbrowser.MainShared(m, &browser) // exits
}

// chromium is the shared browser, started on first use.
func chromium(t testing.TB) *testbrowser.Browser {
	t.Helper()
	return browser.Get(t)
}

// cli runs the built binary with its own TMPDIR and HOME (so its own tab
// registry) and returns the parsed result and exit code.
type cli struct {
	t   testing.TB
	tmp string
}

func newCLI(t testing.TB) *cli { return &cli{t: t, tmp: t.TempDir()} }

func (c *cli) env() []string {
	return append(os.Environ(), "TMPDIR="+c.tmp, "HOME="+c.tmp, "CDP_URL=")
}

func (c *cli) cmd(ctx context.Context, input string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, binary, input)
	cmd.Env = c.env()
	return cmd
}

func (c *cli) run(input string) (map[string]any, int) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := c.cmd(ctx, input).Output()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		c.t.Fatalf("run: %v", err)
	}
	return decode(c.t, out), code
}

// timedRun runs input and returns the result, exit code and how long the
// process took.
func (c *cli) timedRun(input string) (map[string]any, int, time.Duration) {
	c.t.Helper()
	start := time.Now()
	res, code := c.run(input)
	return res, code, time.Since(start)
}

// openTab opens a tab on the shared test browser and returns its alias.
func (c *cli) openTab(url string) string {
	c.t.Helper()
	b := chromium(c.t)
	res, code := c.run(fmt.Sprintf(`{"steps":[{"openTab":{"url":%q,"host":%q,"port":%d}}]}`,
		url, b.Endpoint.Host, b.Endpoint.Port))
	if code != 0 {
		c.t.Fatalf("openTab: %v", res)
	}
	tab, _ := res["tab"].(string)
	c.t.Cleanup(func() { c.run(fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, tab)) })
	return tab
}

// call runs steps on tab, which must succeed, and returns their outputs.
func (c *cli) call(t *testing.T, tab, steps string) []map[string]any {
	t.Helper()
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[%s]}`, tab, steps))
	if code != 0 {
		t.Fatalf("%s: exit %d: %v", steps, code, res)
	}
	var outs []map[string]any
	for _, s := range stepOutputs(t, res) {
		o, _ := s["output"].(map[string]any)
		outs = append(outs, o)
	}
	return outs
}

func (c *cli) registry(t *testing.T) map[string]map[string]any {
	t.Helper()
	return c.registryAt(t, filepath.Join(c.tmp, "cdp-skill-tabs.json"))
}

// registryAt is the tabs of the registry at path: the default session's,
// or a session's.
func (c *cli) registryAt(t *testing.T, path string) map[string]map[string]any {
	t.Helper()
	return readRegistry(t, path).Tabs
}

type registryFile struct {
	Tabs     map[string]map[string]any `json:"tabs"`
	Contexts []struct {
		ID string `json:"id"`
	} `json:"contexts"`
}

func readRegistry(t *testing.T, path string) registryFile {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var reg registryFile
	if err := json.Unmarshal(data, &reg); err != nil {
		t.Fatal(err)
	}
	return reg
}

// disposeSession disposes of the browser contexts the session registry at
// path records, as the shared browser outlives the test.
func (c *cli) disposeSession(t *testing.T, path string) {
	t.Helper()
	for _, ctx := range readRegistry(t, path).Contexts {
		_ = proto.TargetDisposeBrowserContext{BrowserContextID: ctx.ID}.Do(t.Context(), chromium(t).Conn.Browser())
	}
}

// waitTrue polls expr in the tab over the test's own session until it is
// true, so a test can tell that a concurrent call got this far.
func (c *cli) waitTrue(t *testing.T, tab, expr string) {
	t.Helper()
	testbrowser.WaitTrue(t, chromium(t).Conn, c.registry(t)[tab]["targetId"].(string), expr)
}

func decode(t testing.TB, out []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, out)
	}
	return m
}

func stepOutputs(t *testing.T, res map[string]any) []map[string]any {
	t.Helper()
	raw, _ := res["steps"].([]any)
	var out []map[string]any
	for _, s := range raw {
		out = append(out, s.(map[string]any))
	}
	return out
}

func stepOut(t *testing.T, res map[string]any, i int) map[string]any {
	t.Helper()
	o, _ := stepOutputs(t, res)[i]["output"].(map[string]any)
	return o
}

func firstError(res map[string]any) map[string]any {
	errs, _ := res["errors"].([]any)
	if len(errs) == 0 {
		return nil
	}
	return errs[0].(map[string]any)
}

func runInProcess(t *testing.T, args []string, stdin string) (map[string]any, int, string) {
	var stdout, stderr bytes.Buffer
	tmp := t.TempDir()
	code := run(t.Context(), proc{args: args, stdin: strings.NewReader(stdin), stdout: &stdout, stderr: &stderr, dir: tmp,
		getenv: func(k string) string {
			if k == "TMPDIR" {
				return tmp
			}
			return ""
		}})
	if strings.Count(stdout.String(), "\n") != 1 {
		t.Fatalf("stdout must be exactly one JSON line, got %q", stdout.String())
	}
	return decode(t, stdout.Bytes()), code, stderr.String()
}

func errorOf(res map[string]any) (typ, msg string) {
	e, _ := res["error"].(map[string]any)
	typ, _ = e["type"].(string)
	msg, _ = e["message"].(string)
	return
}

func TestInputErrors(t *testing.T) {
	cases := []struct {
		args  []string
		stdin string
		typ   string
	}{
		{nil, "", "PARSE"},
		{[]string{"not json"}, "", "PARSE"},
		{[]string{"--debug", "[1]"}, "", "PARSE"},
		{nil, `{"steps":[{"bogus":1}]}`, "VALIDATION"},
		{[]string{`{"steps":[]}`}, `{"steps":[{"sleep":1}]}`, "VALIDATION"}, // argv wins over stdin
	}
	for _, tc := range cases {
		res, code, _ := runInProcess(t, tc.args, tc.stdin)
		if typ, _ := errorOf(res); typ != tc.typ || code != 1 || res["status"] != "error" {
			t.Errorf("%v / %q: got %v exit %d, want %s exit 1", tc.args, tc.stdin, res, code, tc.typ)
		}
	}
}

func TestStdinInput(t *testing.T) {
	res, code, _ := runInProcess(t, nil, `{"steps":[{"sleep":0}]}`)
	if code != 0 || res["status"] != "ok" {
		t.Fatalf("got %v exit %d", res, code)
	}
}

func TestHelpAndVersion(t *testing.T) {
	var out bytes.Buffer
	if code := run(t.Context(), proc{args: []string{"--help"}, stdin: strings.NewReader(""), stdout: &out, stderr: &out, getenv: os.Getenv}); code != 0 {
		t.Fatal(code)
	}
	// --help is the registries': every step and every field an agent may
	// write is on it, with its form.
	want := []string{"--debug", "cdpskill install", "uninstall"}
	for _, s := range runner.Steps() {
		want = append(want, "\n  "+s.Name+" ", s.Usage)
	}
	for _, f := range runner.Fields() {
		want = append(want, "\n  "+f.Name+" ", f.Usage, f.Summary)
	}
	for _, s := range want {
		if !strings.Contains(out.String(), s) {
			t.Errorf("--help lacks %q", s)
		}
	}
	out.Reset()
	run(t.Context(), proc{args: []string{"--version"}, stdin: strings.NewReader(""), stdout: &out, stderr: &out, getenv: os.Getenv})
	if !strings.HasPrefix(out.String(), "cdpskill ") {
		t.Errorf("--version: %q", out.String())
	}
}

// A pipe that never writes and never closes must not hang the process.
func TestSilentStdinDoesNotBlock(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary)
	cmd.Stdin = r
	out, _ := cmd.Output()
	if ctx.Err() != nil {
		t.Fatal("cdpskill blocked on a silent stdin")
	}
	if typ, _ := errorOf(decode(t, out)); typ != "PARSE" {
		t.Fatalf("got %s", out)
	}
}
