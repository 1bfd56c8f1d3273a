package runner_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/chrome"
)

// A real browserless open-source server for the tests: the npm package
// @browserless.io/browserless, installed once into the user's cache
// (about 600 MB, 25 s) and kept there across runs, started by each test
// that needs one on a free port with the test Chromium as its browser.

// browserlessVersion is the package the tests run.
const browserlessVersion = "2.42.0"

// blServer is a browserless server a test started.
type blServer struct {
	port  int
	token string
	log   string
}

// ws is the server's websocket address, without a token.
func (s *blServer) ws() string { return fmt.Sprintf("ws://127.0.0.1:%d", s.port) }

// api asks the server's HTTP API for path and decodes its JSON.
func (s *blServer) api(t testing.TB, path string, out any) {
	t.Helper()
	if err := s.get(path, out); err != nil {
		t.Fatal(err)
	}
}

func (s *blServer) get(path string, out any) error {
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d%s%stoken=%s", s.port, path, sep, s.token))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s: HTTP %d: %s", path, resp.StatusCode, body)
	}
	if out != nil {
		if err := json.Unmarshal(body, out); err != nil {
			return fmt.Errorf("%s: %v: %s", path, err, body)
		}
	}
	return nil
}

// browsers are the ids of the browsers the server runs. Its /sessions
// asks each browser for its tabs, and fails while one is closing: it is
// asked again a moment later.
func (s *blServer) browsers(t testing.TB) []string {
	t.Helper()
	var list []struct{ ID, Type string }
	var err error
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if err = s.get("/sessions", &list); err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range list {
		if e.Type == "browser" {
			ids = append(ids, e.ID)
		}
	}
	return ids
}

// startBrowserless starts a server with env over its defaults (TOKEN,
// PORT and the browser are the test's), and stops it when the test
// ends. It skips the test, saying why, when npm cannot install it.
func startBrowserless(t testing.TB, env map[string]string) *blServer {
	t.Helper()
	dir := installBrowserless(t)
	chromePath, err := chrome.Find(os.Getenv)
	if err != nil {
		t.Skipf("no Chromium for browserless: %v", err)
	}
	tmp := t.TempDir()
	browsers, err := playwrightBrowsers(dir, tmp, chromePath)
	if err != nil {
		t.Fatal(err)
	}
	// Its chromium and management routes only: each other route wants
	// its own browser installed.
	routes := filepath.Join(tmp, "routes")
	for _, r := range []string{"", "chromium", "management"} {
		if r == "" {
			err = os.Mkdir(routes, 0o700)
		} else {
			err = os.Symlink(filepath.Join(dir, "node_modules/@browserless.io/browserless/build/routes", r), filepath.Join(routes, r))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	s := &blServer{port: freePort(t), token: "bl-test-token-7f3a", log: filepath.Join(tmp, "browserless.log")}
	vars := map[string]string{
		"HOST": "127.0.0.1", "PORT": strconv.Itoa(s.port), "TOKEN": s.token,
		"ROUTES": routes, "PLAYWRIGHT_BROWSERS_PATH": browsers,
		"DATA_DIR": filepath.Join(tmp, "data"), "DOWNLOAD_DIR": filepath.Join(tmp, "downloads"),
		"METRICS_JSON_PATH": filepath.Join(tmp, "metrics.json"), "DEBUG": "browserless*,-**:trace,-**:verbose",
	}
	for k, v := range env {
		vars[k] = v
	}
	for _, d := range []string{vars["DATA_DIR"], vars["DOWNLOAD_DIR"]} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	logf, err := os.Create(s.log)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", "node_modules/@browserless.io/browserless/build/index.js")
	cmd.Dir = dir // it reads its playwright-core's browsers.json from there
	cmd.Env = os.Environ()
	for k, v := range vars {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	dieWithTest(cmd)
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot run node for browserless: %v", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); logf.Close(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt) // it closes its browsers
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			data, _ := os.ReadFile(s.log)
			t.Logf("browserless's log, its end:\n%s", tail(string(data), 4000))
		}
	})
	s.await(t, exited)
	return s
}

// await waits until the server answers, 30 s at most.
func (s *blServer) await(t testing.TB, exited <-chan struct{}) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/pressure?token=%s", s.port, s.token))
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case <-exited:
			data, _ := os.ReadFile(s.log)
			t.Fatalf("browserless exited at start:\n%s", tail(string(data), 3000))
		case <-time.After(100 * time.Millisecond):
		}
	}
	t.Fatal("browserless did not answer within 30 s")
}

// installBrowserless is the directory the package is installed in,
// installing it there first when it is not: into a directory of its own,
// renamed into place whole, so runs at once never see half of one.
func installBrowserless(t testing.TB) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "cdpskill-test", "browserless-"+browserlessVersion)
	entry := filepath.Join(dir, "node_modules/@browserless.io/browserless/build/index.js")
	if _, err := os.Stat(entry); err == nil {
		return dir
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skipf("browserless tests skipped: npm is not installed, so @browserless.io/browserless@%s cannot be installed", browserlessVersion)
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		t.Fatal(err)
	}
	part, err := os.MkdirTemp(filepath.Dir(dir), "installing-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(part)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	t.Logf("installing @browserless.io/browserless@%s into %s (once; about 25 s)", browserlessVersion, dir)
	cmd := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "--loglevel=error", "--prefix", part, "@browserless.io/browserless@"+browserlessVersion)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("browserless tests skipped: npm could not install @browserless.io/browserless@%s: %v\n%s", browserlessVersion, err, tail(string(out), 2000))
	}
	if err := os.Rename(part, dir); err != nil {
		if _, serr := os.Stat(entry); serr != nil { // not another run's, done first
			t.Fatal(err)
		}
	}
	return dir
}

// playwrightBrowsers makes, in tmp, the browsers directory browserless's
// playwright-core looks for its Chromium in (PLAYWRIGHT_BROWSERS_PATH),
// with the test Chromium there.
func playwrightBrowsers(dir, tmp, chromePath string) (string, error) {
	data, err := os.ReadFile(filepath.Join(dir, "node_modules/playwright-core/browsers.json"))
	if err != nil {
		return "", err
	}
	var bj struct {
		Browsers []struct{ Name, Revision string }
	}
	if err := json.Unmarshal(data, &bj); err != nil {
		return "", err
	}
	root := filepath.Join(tmp, "playwright")
	for _, b := range bj.Browsers {
		if b.Name != "chromium" {
			continue
		}
		for _, sub := range []string{"chrome-linux64", "chrome-linux"} { // x64, arm64
			d := filepath.Join(root, "chromium-"+b.Revision, sub)
			if err := os.MkdirAll(d, 0o700); err != nil {
				return "", err
			}
			if err := os.Symlink(chromePath, filepath.Join(d, "chrome")); err != nil {
				return "", err
			}
		}
		return root, nil
	}
	return "", errors.New("playwright-core's browsers.json names no chromium")
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
