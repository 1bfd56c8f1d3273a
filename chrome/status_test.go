package chrome

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/chrome/cft"
)

func TestParseCommandLine(t *testing.T) {
	dir := t.TempDir()
	macChrome := touch(t, filepath.Join(dir, "Google Chrome.app", "Contents", "MacOS", "Google Chrome"), true)
	exists := func(p string) bool { return isFile(p) }
	for _, tc := range []struct {
		line    string
		exe     string
		browser bool
		cdp     bool
	}{
		{"/usr/lib/chromium/chromium --headless=new about:blank", "/usr/lib/chromium/chromium", true, false},
		{"/usr/lib/chromium/chromium --type=renderer --user-data-dir=/tmp/x", "/usr/lib/chromium/chromium", false, false},
		{"/opt/google/chrome/chrome --remote-debugging-port=9222", "/opt/google/chrome/chrome", true, true},
		{macChrome + " --flag-switches-begin", macChrome, true, false},
		{macChrome, macChrome, true, false},
		{macChrome + " https://example.com", macChrome, true, false},
		{`"C:\Program Files\Google\Chrome\Application\chrome.exe" --no-startup-window`, `C:\Program Files\Google\Chrome\Application\chrome.exe`, true, false},
		{`"C:\Program Files\Google\Chrome\Application\chrome.exe" --type=gpu-process`, `C:\Program Files\Google\Chrome\Application\chrome.exe`, false, false},
		{"chromium-browser", "chromium-browser", true, false},
		{"vim /tmp/chromium", "vim", false, false},          // a path argument is not the executable
		{"tail -f /var/log/chromium", "tail", false, false}, // nor is anything after a flag
		{"/usr/bin/chrome_crashpad_handler --monitor-self", "/usr/bin/chrome_crashpad_handler", false, false},
	} {
		p, ok := parseCommandLine(tc.line, exists)
		if !ok || p.exe != tc.exe {
			t.Errorf("%q: exe %q, want %q", tc.line, p.exe, tc.exe)
			continue
		}
		if got := isChromeBrowser(p); got != tc.browser {
			t.Errorf("%q: isChromeBrowser = %v, want %v", tc.line, got, tc.browser)
		}
		if got := hasArgPrefix(p.args, "--remote-debugging-port"); got != tc.cdp {
			t.Errorf("%q: has debugging port = %v, want %v", tc.line, got, tc.cdp)
		}
	}
	if _, ok := parseCommandLine("   ", exists); ok {
		t.Error("a blank line parsed as a process")
	}
}

// fakeDevTools serves the discovery endpoints of a Chrome with the given
// pages on 127.0.0.1:port, from the moment it is started.
type fakeDevTools struct {
	mu      sync.Mutex
	pages   []TargetInfo
	created int
}

func (f *fakeDevTools) start(t *testing.T, port int) error {
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return err
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(f.serve))
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	return nil
}

func (f *fakeDevTools) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case r.URL.Path == "/json/version":
		json.NewEncoder(w).Encode(Version{Browser: "Chrome/999.0.0.0", WebSocketDebuggerURL: "ws://" + r.Host + "/devtools/browser/x"})
	case r.URL.Path == "/json/list":
		json.NewEncoder(w).Encode(append([]TargetInfo{{ID: "SW", Type: "service_worker"}}, f.pages...))
	case r.URL.Path == "/json/new" && r.Method == http.MethodPut:
		f.created++
		p := TargetInfo{ID: fmt.Sprintf("NEW%d", f.created), Type: "page", URL: "about:blank"}
		f.pages = append(f.pages, p)
		json.NewEncoder(w).Encode(p)
	default:
		http.NotFound(w, r)
	}
}

// stagedMachine is a statusDeps whose process list is fixed and whose
// launch brings up a fakeDevTools on the requested port.
type stagedMachine struct {
	t         *testing.T
	exe       string // what Find finds; "" is nothing
	procs     []string
	launchErr error
	launched  []LaunchOptions
	chrome    fakeDevTools
}

func (m *stagedMachine) deps() statusDeps {
	return statusDeps{
		processes: func(context.Context) ([]procInfo, error) {
			var ps []procInfo
			for _, line := range m.procs {
				p, _ := parseCommandLine(line, isFile)
				ps = append(ps, p)
			}
			return ps, nil
		},
		launch: func(ctx context.Context, _ Env, opts LaunchOptions) (*Version, int, error) {
			m.launched = append(m.launched, opts)
			if m.launchErr != nil {
				return nil, 0, m.launchErr
			}
			if err := m.chrome.start(m.t, opts.Endpoint.Port); err != nil {
				return nil, 0, err
			}
			v, err := GetVersion(ctx, opts.Endpoint)
			return v, 4242, err
		},
		find: func(Env) (string, error) {
			if m.exe == "" {
				return "", ErrNotFound
			}
			return m.exe, nil
		},
	}
}

// stagedExe is the Chrome a staged machine has.
const stagedExe = "/opt/staged/chrome"

const (
	userChrome     = "/opt/google/chrome/chrome --restore-last-session"
	userRenderer   = "/opt/google/chrome/chrome --type=renderer --lang=en"
	otherCDPChrome = "/usr/lib/chromium/chromium --remote-debugging-port=9555 --user-data-dir=/tmp/p"
)

func TestCheckStatusStaged(t *testing.T) {
	yes := true
	noDisplay := fakeEnv(nil)
	tests := []struct {
		name       string
		procs      []string
		opts       StatusOptions
		launchErr  error
		noChrome   bool // Find finds none
		pages      []TargetInfo
		wantLaunch bool
		want       Status // Port is filled in
		noteHas    string
		errorHas   string
	}{
		{
			name:  "not running: launch",
			procs: []string{otherCDPChrome}, opts: StatusOptions{AutoLaunch: true, Headless: &yes},
			pages:      []TargetInfo{{ID: "P1", Type: "page", URL: "about:blank"}},
			wantLaunch: true,
			want:       Status{Running: true, Launched: true, Version: "Chrome/999.0.0.0", Executable: stagedExe, Tabs: []StatusTab{{TargetID: "P1", URL: "about:blank"}}},
			noteHas:    "was not running; launched a headless instance",
		},
		{
			name:  "running without a debugging port: launch alongside",
			procs: []string{userChrome, userRenderer}, opts: StatusOptions{AutoLaunch: true, Headless: &yes},
			pages:      []TargetInfo{{ID: "P1", Type: "page", URL: "about:blank"}},
			wantLaunch: true,
			want:       Status{Running: true, Launched: true, Version: "Chrome/999.0.0.0", Executable: stagedExe, Tabs: []StatusTab{{TargetID: "P1", URL: "about:blank"}}},
			noteHas:    "without remote debugging; launched a separate CDP-enabled instance",
		},
		{
			name:  "running without a debugging port, autoLaunch off",
			procs: []string{userChrome}, opts: StatusOptions{},
			errorHas: "running without remote debugging",
			want:     Status{Executable: stagedExe},
		},
		{
			name: "not running, autoLaunch off",
			opts: StatusOptions{}, errorHas: "autoLaunch is off",
			want: Status{Executable: stagedExe},
		},
		{
			name: "not running, autoLaunch off, nothing to launch",
			opts: StatusOptions{}, noChrome: true, errorHas: "autoLaunch is off",
			noteHas: "cdpskill install --browser",
		},
		{
			name: "nothing to launch", opts: StatusOptions{AutoLaunch: true}, noChrome: true,
			launchErr: ErrNotFound, wantLaunch: true, errorHas: "cdpskill install --browser",
		},
		{
			name: "launch fails", opts: StatusOptions{AutoLaunch: true},
			launchErr: &cdp.ConnectError{Endpoint: "x", Err: errors.New("did not answer within 10s")}, wantLaunch: true,
			errorHas: "did not answer within 10s",
			want:     Status{Executable: stagedExe},
		},
		{
			name: "launched Chrome without tabs gets one", opts: StatusOptions{AutoLaunch: true},
			wantLaunch: true,
			want:       Status{Running: true, Launched: true, Version: "Chrome/999.0.0.0", Executable: stagedExe, CreatedTab: true, Tabs: []StatusTab{{TargetID: "NEW1", URL: "about:blank"}}},
			noteHas:    noteCreatedTab,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := &stagedMachine{t: t, procs: tc.procs, launchErr: tc.launchErr, exe: stagedExe}
			if tc.noChrome {
				m.exe = ""
			}
			m.chrome.pages = tc.pages
			tc.opts.Endpoint = Endpoint{Host: "127.0.0.1", Port: freePort(t)}
			st := m.deps().status(callCtx(t), noDisplay, tc.opts)

			if got := len(m.launched) > 0; got != tc.wantLaunch {
				t.Fatalf("launched = %v, want %v", got, tc.wantLaunch)
			}
			wantHeadless := DefaultHeadless(noDisplay)
			if tc.opts.Headless != nil {
				wantHeadless = *tc.opts.Headless
			}
			if tc.wantLaunch && (m.launched[0].Endpoint != tc.opts.Endpoint || m.launched[0].Headless != wantHeadless) {
				t.Errorf("launch options %+v, want endpoint %v, headless %v", m.launched[0], tc.opts.Endpoint, wantHeadless)
			}
			if !strings.Contains(st.Note, tc.noteHas) || !strings.Contains(st.Error, tc.errorHas) ||
				(tc.errorHas == "") != (st.Error == "") {
				t.Errorf("note %q, error %q; want note with %q, error with %q", st.Note, st.Error, tc.noteHas, tc.errorHas)
			}
			tc.want.Port = tc.opts.Endpoint.Port
			st.Note, st.Error = "", ""
			if !reflect.DeepEqual(*st, tc.want) {
				t.Errorf("got  %+v\nwant %+v", *st, tc.want)
			}
		})
	}
}

// A Chrome running on the port is named by its process; the one
// `cdpskill install --browser` cached is said to be so, launched or
// running.
func TestCheckStatusNamesTheChrome(t *testing.T) {
	if cft.Platform(runtime.GOOS, runtime.GOARCH) == "" {
		t.Skip("no Chrome for Testing build for this platform")
	}
	home := t.TempDir()
	getenv := fakeEnv(map[string]string{"HOME": home, "LocalAppData": home})
	cached := cachedBuild(t, home, runtime.GOOS, runtime.GOARCH, "131.0.6778.204")
	port := freePort(t)
	m := &stagedMachine{t: t, exe: cached}
	m.chrome.pages = []TargetInfo{{ID: "P1", Type: "page", URL: "about:blank"}}
	opts := StatusOptions{Endpoint: Endpoint{Host: "127.0.0.1", Port: port}, AutoLaunch: true}
	st := m.deps().status(callCtx(t), getenv, opts)
	if !st.Launched || st.Executable != cached || st.ChromeForTesting != "131.0.6778.204" {
		t.Fatalf("launched: %+v", *st)
	}
	data, _ := json.Marshal(st)
	if !strings.Contains(string(data), `"chromeForTesting":"131.0.6778.204"`) {
		t.Errorf("JSON: %s", data)
	}

	// Running now: the process serving the port names it, not Find.
	m.exe = "/usr/bin/chromium"
	m.procs = []string{otherCDPChrome, cached + " --remote-debugging-port=" + strconv.Itoa(port) + " --user-data-dir=/tmp/p"}
	st = m.deps().status(callCtx(t), getenv, opts)
	if st.Launched || st.Executable != cached || st.ChromeForTesting != "131.0.6778.204" {
		t.Fatalf("running: %+v", *st)
	}
	m.procs = []string{otherCDPChrome}
	st = m.deps().status(callCtx(t), getenv, opts)
	if st.Executable != "" || st.ChromeForTesting != "" {
		t.Fatalf("running, its process not listed: %+v", *st)
	}
}

func TestCheckStatusWontLaunchWhereItCannotHelp(t *testing.T) {
	notChrome := httptest.NewServer(http.NotFoundHandler())
	defer notChrome.Close()
	busyPort := notChrome.Listener.Addr().(*net.TCPAddr).Port
	for name, tc := range map[string]struct {
		ep       Endpoint
		errorHas string
	}{
		"port taken by something else": {Endpoint{Host: "127.0.0.1", Port: busyPort}, "not a Chrome debugging endpoint"},
		"remote host":                  {Endpoint{Host: "127.0.0.2", Port: freePort(t)}, "only launched on this machine"},
	} {
		m := &stagedMachine{t: t}
		st := m.deps().status(callCtx(t), fakeEnv(nil), StatusOptions{Endpoint: tc.ep, AutoLaunch: true})
		if len(m.launched) > 0 || st.Running || !strings.Contains(st.Error, tc.errorHas) {
			t.Errorf("%s: launched %d times, status %+v; want no launch and an error with %q", name, len(m.launched), *st, tc.errorHas)
		}
	}
}

func TestStatusJSON(t *testing.T) {
	for _, tc := range []struct {
		st   Status
		want string
	}{
		{Status{Port: 9222, Error: "cannot reach Chrome"}, `{"running":false,"launched":false,"port":9222,"createdTab":false,"error":"cannot reach Chrome"}`},
		{
			Status{Running: true, Version: "Chrome/1", Port: 9222, Tabs: []StatusTab{{TargetID: "T", URL: "about:blank", Title: ""}}, CreatedTab: true, Note: noteCreatedTab},
			`{"running":true,"launched":false,"version":"Chrome/1","port":9222,"tabs":[{"targetId":"T","url":"about:blank","title":""}],"createdTab":true,"note":"Chrome had no tabs open. Created new tab."}`,
		},
	} {
		got, err := json.Marshal(tc.st)
		if err != nil || string(got) != tc.want {
			t.Errorf("got  %s, %v\nwant %s", got, err, tc.want)
		}
	}
}

// browserPID finds the Chrome browser process serving port through the
// process lister, which proves the lister sees a real Chrome for what it is.
func browserPID(t *testing.T, ctx context.Context, port int) int {
	t.Helper()
	procs, err := listProcesses(ctx)
	if err != nil {
		t.Fatal(err)
	}
	flag := fmt.Sprintf("--remote-debugging-port=%d", port)
	for _, p := range procs {
		if isChromeBrowser(p) && slices.Contains(p.args, flag) {
			return p.pid
		}
	}
	t.Fatalf("no Chrome browser process with %s among %d processes", flag, len(procs))
	return 0
}

// TestCheckStatusRealChromium walks one Chromium on a free port through
// the scenarios: not running, launched, listing its tab, and closing every
// tab so chromeStatus must open one.
func TestCheckStatusRealChromium(t *testing.T) {
	useTempDir(t)
	ep := Endpoint{Host: "127.0.0.1", Port: freePort(t)}
	ctx := callCtx(t)
	headless := true

	st := CheckStatus(ctx, os.Getenv, StatusOptions{Endpoint: ep})
	if st.Running || st.Launched || st.Error == "" || st.Port != ep.Port || st.Tabs != nil {
		t.Fatalf("dead port, autoLaunch off: %+v", *st)
	}

	st = CheckStatus(ctx, os.Getenv, StatusOptions{Endpoint: ep, Headless: &headless, AutoLaunch: true})
	if !st.Running || !st.Launched || st.Error != "" {
		t.Fatalf("autoLaunch: %+v", *st)
	}
	t.Cleanup(func() { stopChrome(t, browserPID(t, context.Background(), ep.Port)) })
	if !strings.Contains(st.Version, "Chrome") || len(st.Tabs) != 1 || st.Tabs[0].URL != "about:blank" || st.CreatedTab {
		t.Fatalf("freshly launched Chrome: %+v", *st)
	}
	if !strings.Contains(st.Note, "launched") {
		t.Errorf("launch not explained in the note: %q", st.Note)
	}

	launched := st.Executable
	st = CheckStatus(ctx, os.Getenv, StatusOptions{Endpoint: ep, AutoLaunch: true})
	if !st.Running || st.Launched || st.CreatedTab || st.Note != "" || st.Error != "" || len(st.Tabs) != 1 {
		t.Fatalf("running with a tab: %+v", *st)
	}
	// Debian's /usr/bin/chromium is a script that runs /usr/lib/chromium/chromium:
	// the process is named for what runs.
	if want, _ := Find(os.Getenv); launched != want || !chromeExeNames[exeName(st.Executable)] {
		t.Errorf("executable: launched %q, want %q; running %q (from its process)", launched, want, st.Executable)
	}

	closeAllPages(t, ctx, ep)
	st = CheckStatus(ctx, os.Getenv, StatusOptions{Endpoint: ep, AutoLaunch: true})
	if !st.Running || st.Launched || !st.CreatedTab || st.Note != noteCreatedTab || len(st.Tabs) != 1 {
		t.Fatalf("running without tabs: %+v", *st)
	}
	pages, err := ListPages(ctx, ep)
	if err != nil || len(pages) != 1 || pages[0].ID != st.Tabs[0].TargetID {
		t.Fatalf("pages after chromeStatus: %+v, %v; want the created tab %s", pages, err, st.Tabs[0].TargetID)
	}
}

// closeAllPages closes every page and waits until Chrome lists none.
func closeAllPages(t *testing.T, ctx context.Context, ep Endpoint) {
	t.Helper()
	pages, err := ListPages(ctx, ep)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		if err := getJSON(ctx, ep, http.MethodGet, "/json/close/"+url.PathEscape(p.ID), nil); err != nil {
			t.Fatal(err)
		}
	}
	for {
		pages, err := ListPages(ctx, ep)
		if err != nil {
			t.Fatal(err)
		}
		if len(pages) == 0 {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("pages still open: %+v", pages)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// TestCheckStatusBesideChromeWithoutCDP runs a real Chromium with no
// debugging port, as a user's own browser would be, and checks that
// chromeStatus leaves it alone and launches a separate instance.
func TestCheckStatusBesideChromeWithoutCDP(t *testing.T) {
	tmp := useTempDir(t)
	path, err := Find(os.Getenv)
	if err != nil {
		t.Skip(err)
	}
	args := []string{"--headless=new", "--user-data-dir=" + filepath.Join(tmp, "users-own"), "--no-first-run", "about:blank"}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	own := exec.Command(path, args...)
	if err := own.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		own.Process.Kill()
		own.Wait()
	})
	ctx := callCtx(t)
	waitForProcess(t, ctx, own.Process.Pid)

	ep := Endpoint{Host: "127.0.0.1", Port: freePort(t)}
	headless := true
	st := CheckStatus(ctx, os.Getenv, StatusOptions{Endpoint: ep, Headless: &headless, AutoLaunch: true})
	if !st.Running || !st.Launched || st.Error != "" || len(st.Tabs) != 1 {
		t.Fatalf("status: %+v", *st)
	}
	t.Cleanup(func() { stopChrome(t, browserPID(t, context.Background(), ep.Port)) })
	if !strings.Contains(st.Note, "alongside") {
		t.Errorf("note does not say Chrome was launched alongside: %q", st.Note)
	}
	if err := own.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("the Chrome without a debugging port was disturbed: %v", err)
	}
}

// waitForProcess waits until pid is listed as a Chrome browser process,
// so the status check cannot run before it exists.
func waitForProcess(t *testing.T, ctx context.Context, pid int) {
	t.Helper()
	for {
		procs, err := listProcesses(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if slices.ContainsFunc(procs, func(p procInfo) bool { return p.pid == pid && isChromeBrowser(p) }) {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("process %d never looked like Chrome", pid)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
