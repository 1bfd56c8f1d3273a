// Package testbrowser starts one real headless Chromium per test binary and
// hands each test a fresh tab of its own. A package whose tests do not all
// need it starts it on first use (Shared), so its pure tests run without
// Chromium.
package testbrowser

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/chrome"
)

// Browser is a Chromium this test binary started and will stop.
type Browser struct {
	Endpoint chrome.Endpoint
	Conn     *cdp.Conn
	cmd      *exec.Cmd
	dir      string
}

// Start launches headless Chromium on a free port with a throwaway profile.
func Start() (*Browser, error) {
	path, err := chrome.Find(os.Getenv)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "cdpskill-test-chrome-")
	if err != nil {
		return nil, err
	}
	args := []string{
		"--remote-debugging-port=0",
		"--user-data-dir=" + dir,
		"--headless=new",
		"--no-first-run", "--no-default-browser-check",
		"--disable-background-networking", "--disable-component-update",
		"--disable-sync", "--disable-quic", "--disable-gpu",
		"--window-size=1280,800",
		"about:blank",
	}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	cmd := exec.Command(path, args...)
	dieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	b := &Browser{cmd: cmd, dir: dir}
	port, err := waitPort(dir, 20*time.Second)
	if err != nil {
		b.Stop()
		return nil, err
	}
	b.Endpoint = chrome.Endpoint{Host: "127.0.0.1", Port: port}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	v, err := chrome.GetVersion(ctx, b.Endpoint)
	if err != nil {
		b.Stop()
		return nil, err
	}
	if b.Conn, err = cdp.Dial(ctx, v.WebSocketDebuggerURL); err != nil {
		b.Stop()
		return nil, err
	}
	return b, nil
}

// waitPort reads the port Chromium chose from DevToolsActivePort.
func waitPort(dir string, limit time.Duration) (int, error) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		data, err := os.ReadFile(filepath.Join(dir, "DevToolsActivePort"))
		if err == nil {
			line, _, _ := strings.Cut(string(data), "\n")
			if p, err := strconv.Atoi(strings.TrimSpace(line)); err == nil && p > 0 {
				return p, nil
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return 0, errors.New("testbrowser: Chromium did not write DevToolsActivePort in time")
}

// Stop kills the browser and removes its profile.
func (b *Browser) Stop() {
	if b.Conn != nil {
		b.Conn.Close()
	}
	if b.cmd != nil && b.cmd.Process != nil {
		b.cmd.Process.Kill()
		b.cmd.Wait()
	}
	os.RemoveAll(b.dir)
}

// Main runs the tests of a package against one shared browser, stored in *b.
// Fuzz worker processes run only fuzz targets, so they start no browser.
func Main(m *testing.M, b **Browser) {
	for _, a := range os.Args {
		if strings.HasPrefix(a, "-test.fuzzworker") {
			os.Exit(m.Run())
		}
	}
	br, err := Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testbrowser:", err)
		os.Exit(1)
	}
	*b = br
	code := m.Run()
	br.Stop()
	os.Exit(code)
}

// Shared is a test binary's browser, started by the first test that asks
// for it (Get) and stopped by MainShared when the tests end.
type Shared struct {
	once sync.Once
	b    *Browser
	err  error
}

// Get returns the browser, starting it on first use. A browser that
// cannot start fails the test, and every later one that asks.
func (s *Shared) Get(t testing.TB) *Browser {
	t.Helper()
	s.once.Do(func() { s.b, s.err = Start() })
	if s.err != nil {
		t.Fatalf("testbrowser: %v", s.err)
	}
	return s.b
}

// Stop stops the browser if a test started it; none starts after.
func (s *Shared) Stop() {
	s.once.Do(func() { s.err = errors.New("the tests have ended") })
	if s.b != nil {
		s.b.Stop()
	}
}

// MainShared runs the tests of a package whose tests ask s for the
// browser, and stops it when they end.
func MainShared(m *testing.M, s *Shared) {
	code := m.Run()
	s.Stop()
	os.Exit(code)
}

// NewTab opens a tab in its own window, attaches a session and closes the
// tab when the test ends.
func (b *Browser) NewTab(t testing.TB) *cdp.Session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	id, err := b.CreateTarget(ctx, "about:blank")
	if err != nil {
		t.Fatalf("create target: %v", err)
	}
	s, err := proto.Attach(ctx, b.Conn, id)
	if err != nil {
		t.Fatalf("attach: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		proto.TargetCloseTarget{TargetID: id}.Do(ctx, b.Conn.Browser())
	})
	return s
}

// CreateTarget opens a tab at url in a new window and returns its target id.
func (b *Browser) CreateTarget(ctx context.Context, url string) (string, error) {
	res, err := proto.TargetCreateTarget{URL: url, NewWindow: true}.Do(ctx, b.Conn.Browser())
	return res.TargetID, err
}

// Serve serves dir (usually "testdata") for the length of the test.
func Serve(t testing.TB, dir string) *httptest.Server {
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)
	return srv
}

// Navigate loads url in s and waits for the load event.
func Navigate(t testing.TB, s *cdp.Session, url string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := (proto.PageEnable{}).Do(ctx, s); err != nil {
		t.Fatal(err)
	}
	l := s.Listen(proto.EventPageLoadEventFired)
	defer l.Close()
	res, err := proto.PageNavigate{URL: url}.Do(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if res.ErrorText != "" {
		t.Fatalf("navigate %s: %s", url, res.ErrorText)
	}
	if _, err := l.Next(ctx); err != nil {
		t.Fatalf("waiting for load of %s: %v", url, err)
	}
}

// PID is the browser process's id, for tests that watch its processes and
// open files.
func (b *Browser) PID() int { return b.cmd.Process.Pid }

// WaitTrue polls expr in target over conn until it is true, for at most
// 20 s: a test's way to wait for a page to get somewhere (a variable a
// call's first step sets) instead of sleeping.
func WaitTrue(t testing.TB, conn *cdp.Conn, targetID, expr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	s, err := proto.Attach(ctx, conn, targetID)
	if err != nil {
		t.Fatal(err)
	}
	defer proto.Detach(context.WithoutCancel(ctx), s)
	for ctx.Err() == nil {
		res, err := proto.RuntimeEvaluate{Expression: expr, ReturnByValue: true}.Do(ctx, s)
		if err == nil && string(res.Result.Value) == "true" {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s never became true", expr)
}
