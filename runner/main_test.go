package runner_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/internal/private"
	"github.com/cdpskill/cdpskill/internal/testbrowser"
	"github.com/cdpskill/cdpskill/keeper"
	"github.com/cdpskill/cdpskill/runner"
)

// The behaviour tests: each call runs in this process, as cmd/cdpskill's
// run makes it (runner.Run, then runner.Encode), with a temp directory,
// home and registry of its test's own, so tests run side by side and the
// race detector and coverage see the runner. What only a process shows
// (exit codes, stdin, signals, kills, processes sharing a tab) is tested
// in cmd/cdpskill, on the built binary.

var (
	// browser is the shared Chromium, started by the first test that
	// needs it (chromium): the tests that only validate run without it.
	browser testbrowser.Shared
	fixture *httptest.Server
	// slowHits hears of each request for a slow document.
	slowHits = make(chan struct{}, 16)
)

// beKeeper makes this test binary a browser's keeper, as a call of a
// test with keepers starts it (cli.withKeeper).
const beKeeper = "CDPSKILL_TEST_KEEPER"

func TestMain(m *testing.M) {
	if os.Getenv(beKeeper) == "1" {
		os.Exit(keeper.Main(os.Stdin, os.Stderr))
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
	// A page's word that it loaded (its document's time origin goes to
	// the test that has the page's key), and its wait for the test's word
	// to go on (pageLines).
	mux.HandleFunc("/api/loaded", func(w http.ResponseWriter, r *http.Request) {
		if l, ok := pageLines.Load(r.URL.Query().Get("key")); ok {
			select {
			case l.(*pageLine).loads <- r.URL.Query().Get("doc"):
			default:
			}
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("/api/hold", func(w http.ResponseWriter, r *http.Request) {
		if l, ok := pageLines.Load(r.URL.Query().Get("key")); ok {
			select {
			case <-l.(*pageLine).release:
			case <-r.Context().Done():
				return
			}
		}
		w.WriteHeader(http.StatusNoContent)
	})
	// vitals.html's script and picture, and the docs' landing page's:
	// cacheable for an hour, served after a delay (the difference of a
	// cold load from a warm one); the script blocks the page's main
	// thread a while.
	mux.HandleFunc("/vitals/app.js", slowScript(0, 0))
	mux.HandleFunc("/vitals/hero.png", slowPicture(0))
	mux.HandleFunc("/docs/assets/analytics.js", slowScript(400, 300))
	mux.HandleFunc("/docs/assets/hero.png", slowPicture(600))
	mux.HandleFunc("/docs/landing.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache") // as an app's pages are: its assets come from the cache
		http.ServeFile(w, r, "testdata/docs/landing.html")
	})
	mux.HandleFunc("/never", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html><body>loading forever"))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	return mux
}

// slowScript serves, after ms milliseconds (or its query's ms), a
// cacheable script that blocks the page's main thread block ms (or its
// query's block).
func slowScript(ms, block int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !delay(r, ms) {
			return
		}
		w.Header().Set("Content-Type", "text/javascript")
		w.Header().Set("Cache-Control", "public, max-age=3600")
		fmt.Fprintf(w, "(function block() { const start = performance.now(); while (performance.now() - start < %d) {} })();\n",
			queryInt(r, "block", block))
	}
}

// slowPicture serves heroPNG, cacheable, after ms milliseconds (or its
// query's ms).
func slowPicture(ms int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !delay(r, ms) {
			return
		}
		w.Header().Set("Content-Type", "image/png")
		w.Header().Set("Cache-Control", "public, max-age=3600")
		w.Write(heroPNG())
	}
}

// delay waits the ms milliseconds r's query asks for, else ms; false
// when r was given up on meanwhile.
func delay(r *http.Request, ms int) bool {
	select {
	case <-time.After(time.Duration(queryInt(r, "ms", ms)) * time.Millisecond):
		return true
	case <-r.Context().Done():
		return false
	}
}

// queryInt is r's query parameter name as a number, else def.
func queryInt(r *http.Request, name string, def int) int {
	if n, err := strconv.Atoi(r.URL.Query().Get(name)); err == nil {
		return n
	}
	return def
}

// heroPNG is vitals.html's picture: 400×200 pixels of noise, which
// Chrome takes for content (a plain colour is not a largest paint).
var heroPNG = sync.OnceValue(func() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 400, 200))
	rng := rand.New(rand.NewPCG(26, 1))
	for i := range img.Pix {
		img.Pix[i] = byte(rng.UintN(256))
		if i%4 == 3 {
			img.Pix[i] = 255
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
})

// pageLines are the tests' lines to their pages, by the key the pages
// were loaded with (?key=K): pages say on it that they loaded, and are
// told when to go on.
var pageLines sync.Map

type pageLine struct {
	loads   chan string   // each document that loaded: its time origin
	release chan struct{} // answers the page's /api/hold
}

// newPageLine returns the key for the test's pages, and its line to
// them.
func newPageLine(t *testing.T) (string, *pageLine) {
	key := strings.NewReplacer("/", "-", " ", "-").Replace(t.Name())
	l := &pageLine{loads: make(chan string, 16), release: make(chan struct{}, 1)}
	pageLines.Store(key, l)
	t.Cleanup(func() { pageLines.Delete(key) })
	return key, l
}

// loadedAfter waits for a document newer than doc (a time origin) to say
// it loaded; older ones that said so late are passed over.
func (l *pageLine) loadedAfter(t *testing.T, doc string) {
	t.Helper()
	was, err := strconv.ParseFloat(doc, 64)
	if err != nil {
		t.Fatalf("not a time origin: %q", doc)
	}
	timeout := time.After(30 * time.Second)
	for {
		select {
		case d := <-l.loads:
			if now, _ := strconv.ParseFloat(d, 64); now > was {
				return
			}
		case <-timeout:
			t.Fatalf("no document newer than %s loaded", doc)
		}
	}
}

// cli is an agent's shell: its calls run in this process with their own
// TMPDIR and HOME (so their own tab registry, files and site profiles),
// as the binary would run them there.
type cli struct {
	t   testing.TB
	tmp string
	// cdpURL, when set, is the CDP_URL the calls see.
	cdpURL string
	// dir, when set, is the working directory relative paths are taken
	// from; else the test's (the package directory).
	dir string
	// keeper, when set, is how the calls start a browser's keeper.
	keeper *keeper.Exe
	// history, when set, bounds each tab's history in place of the
	// default 50 calls and 100 MB.
	history capture.HistoryBound
}

// withKeeper gives c's calls keepers (this test binary, as one), as the
// binary's calls have, and stops the test browser's when the test ends.
func (c *cli) withKeeper() *cli {
	c.keeper = &keeper.Exe{Path: os.Args[0], Env: []string{beKeeper + "=1"}}
	c.t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := keeper.Stop(ctx, private.Temp(c.tmp), chromium(c.t).Endpoint); err != nil {
			c.t.Errorf("stopping the keeper: %v", err)
		}
	})
	return c
}

func newCLI(t testing.TB) *cli { return &cli{t: t, tmp: t.TempDir()} }

// getenv is the calls' environment: the process's, with TMPDIR and HOME
// the shell's, CDP_URL its own, and env over them ("" unsets).
func (c *cli) getenv(env map[string]string) func(string) string {
	return func(k string) string {
		if v, ok := env[k]; ok {
			return v
		}
		switch k {
		case "TMPDIR", "HOME":
			return c.tmp
		case "CDP_URL":
			return c.cdpURL
		}
		return os.Getenv(k)
	}
}

// options are the runner.Options cmd/cdpskill's run builds, but for
// Exiting: a call that shares its process closes its connections.
func (c *cli) options(env map[string]string) runner.Options {
	return runner.Options{Getenv: c.getenv(env), TempDir: c.tmp, Dir: c.dir, Keeper: c.keeper, History: c.history}
}

func (c *cli) run(input string) (map[string]any, int) {
	c.t.Helper()
	res, code, _ := c.runRaw(input)
	return res, code
}

// runRaw is run keeping the output as printed, in its own field order.
func (c *cli) runRaw(input string) (map[string]any, int, string) {
	c.t.Helper()
	return c.runEnv(nil, input)
}

// runEnv is runRaw with env over the shell's environment.
func (c *cli) runEnv(env map[string]string, input string) (map[string]any, int, string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, out := c.exec(ctx, c.options(env), input)
	return decode(c.t, out), res.ExitCode(), strings.TrimSpace(string(out))
}

// exec runs input as cmd/cdpskill's run does and returns the result and
// the line it prints.
func (c *cli) exec(ctx context.Context, opts runner.Options, input string) (*runner.Result, []byte) {
	c.t.Helper()
	res := runner.Run(ctx, []byte(input), opts)
	out, err := runner.Encode(res)
	if err != nil {
		c.t.Fatalf("encode: %v", err)
	}
	// Every error is said once, as built at its source.
	for _, s := range res.Steps {
		if msg := stutter(s.Action, s.Error); msg != "" {
			c.t.Errorf("%s\n%s", msg, input)
		}
	}
	if res.Error != nil {
		if msg := stutter("", res.Error.Message); msg != "" {
			c.t.Errorf("%s\n%s", msg, input)
		}
	}
	return res, out
}

// runDebug runs input as run does with --debug: the call's CDP calls
// traced, and its log written into dir/log.
func (c *cli) runDebug(dir, input string) map[string]any {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	opts := c.options(nil)
	opts.Trace = true
	start := time.Now()
	res, out := c.exec(ctx, opts, input)
	runner.WriteDebugLog(filepath.Join(dir, "log"), []byte(input), res, time.Since(start))
	return decode(c.t, out)
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

func decode(t testing.TB, out []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, out)
	}
	saysNothingInVain(t, out)
	return m
}

// saysNothingInVain fails a result with a step output, context or
// response that says nothing ({}, [] or null): an executor with nothing
// to say returns no value, so no bytes are spent on it.
func saysNothingInVain(t testing.TB, out []byte) {
	t.Helper()
	var res struct {
		Steps []map[string]json.RawMessage `json:"steps"`
	}
	if json.Unmarshal(out, &res) != nil {
		return
	}
	for i, s := range res.Steps {
		for _, k := range []string{"output", "context", "response"} {
			if v, ok := s[k]; ok {
				switch string(v) {
				case "{}", "[]", "null":
					t.Errorf("step %d's %s is %s: an empty %s is left out\n%s", i+1, k, v, k, out)
				}
			}
		}
	}
}

func errorOf(res map[string]any) (typ, msg string) {
	e, _ := res["error"].(map[string]any)
	typ, _ = e["type"].(string)
	msg, _ = e["message"].(string)
	return
}

// checkValidation runs each step on tab t1, which need not exist: want is
// a part of the VALIDATION error the step must get, "" for a step that
// validates (and then fails only on the tab).
func checkValidation(t *testing.T, c *cli, cases map[string]string) {
	t.Helper()
	for step, want := range cases {
		res, code := c.run(fmt.Sprintf(`{"tab":"t1","steps":[%s]}`, step))
		typ, msg := errorOf(res)
		if want == "" {
			if typ == "VALIDATION" {
				t.Errorf("%s: %s", step, msg)
			}
			continue
		}
		if code != 1 || typ != "VALIDATION" || !strings.Contains(msg, want) {
			t.Errorf("%s: %s %q lacks %q", step, typ, msg, want)
		}
	}
}
