package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/internal/testbrowser"
	"github.com/cdpskill/cdpskill/runner"
)

var (
	// browser is the shared Chromium, started by the first test that
	// needs it (chromium): the tests of input, help and install need none.
	browser testbrowser.Shared
	binary  string // the built cdpskill, for tests that need real processes
	fixture *httptest.Server
	// slowHits hears of each request for a slow document.
	slowHits = make(chan struct{}, 16)
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
	fixture = httptest.NewServer(fixtureHandler())
	testbrowser.MainShared(m, &browser) // exits
}

// chromium is the shared browser, started on first use.
func chromium(t testing.TB) *testbrowser.Browser {
	t.Helper()
	return browser.Get(t)
}

// fixtureHandler serves testdata, a slow API and a page that never
// finishes loading.
func fixtureHandler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir("testdata")))
	// A slow API: answers ["Apples","Pears"] after ms milliseconds; a
	// request with "doc" in its query is announced on slowHits.
	mux.HandleFunc("/api/slow", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("doc") {
			select {
			case slowHits <- struct{}{}:
			default:
			}
		}
		ms, _ := strconv.Atoi(r.URL.Query().Get("ms"))
		select {
		case <-time.After(time.Duration(ms) * time.Millisecond):
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`["Apples","Pears"]`))
	})
	// An API that creates an item: a POSTed JSON body comes back with an
	// id, 201, after 300 ms.
	mux.HandleFunc("/api/items", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		var item map[string]any
		if err := json.NewDecoder(r.Body).Decode(&item); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		time.Sleep(300 * time.Millisecond)
		item["id"] = 7
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(item)
	})
	// A report too long to show inline.
	mux.HandleFunc("/api/report", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		rows := make([]map[string]any, 400)
		for i := range rows {
			rows[i] = map[string]any{"row": i, "total": i * 3}
		}
		json.NewEncoder(w).Encode(rows)
	})
	// The docs' dashboard offers its report as an attachment.
	mux.HandleFunc("/docs/files/report.csv", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/csv")
		w.Header().Set("Content-Disposition", `attachment; filename="report.csv"`)
		io.WriteString(w, "project,open\nWebsite,3\nMobile app,5\n")
	})
	mux.HandleFunc("/never", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html><body>loading forever"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	return mux
}

// cli runs the built binary with its own TMPDIR (so its own tab registry)
// and returns the parsed result and exit code.
type cli struct {
	t   testing.TB
	tmp string
	// cdpURL, when set, is the CDP_URL the binary runs with.
	cdpURL string
	// dir, when set, is the working directory the binary runs in.
	dir string
}

func newCLI(t testing.TB) *cli { return &cli{t: t, tmp: t.TempDir()} }

func (c *cli) env() []string {
	env := append(os.Environ(), "TMPDIR="+c.tmp, "HOME="+c.tmp)
	if c.cdpURL != "" {
		env = append(env, "CDP_URL="+c.cdpURL)
	}
	return env
}

func (c *cli) cmd(ctx context.Context, input string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, binary, input)
	cmd.Env = c.env()
	cmd.Dir = c.dir
	return cmd
}

func (c *cli) run(input string) (map[string]any, int) {
	c.t.Helper()
	res, code, _ := c.runRaw(input)
	return res, code
}

// runRaw is run keeping the output as printed, in its own field order.
func (c *cli) runRaw(input string) (map[string]any, int, string) {
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
	return decode(c.t, out), code, strings.TrimSpace(string(out))
}

// openTab opens a tab on the shared test browser and returns its alias.
func (c *cli) openTab(url string) string {
	c.t.Helper()
	res, code := c.run(fmt.Sprintf(`{"steps":[{"openTab":{"url":%q,"host":%q,"port":%d}}]}`,
		url, chromium(c.t).Endpoint.Host, chromium(c.t).Endpoint.Port))
	if code != 0 {
		c.t.Fatalf("openTab: %v", res)
	}
	tab, _ := res["tab"].(string)
	c.t.Cleanup(func() { c.run(fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, tab)) })
	return tab
}

func decode(t testing.TB, out []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, out)
	}
	return m
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
