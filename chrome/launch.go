package chrome

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/chrome/cft"
	"github.com/cdpskill/cdpskill/internal/private"
)

// Env reads the environment; tests hand in their own.
type Env func(string) string

// ErrNotFound means no Chrome or Chromium executable could be found, nor
// a Chrome for Testing cdpskill cached. It names the command that fetches
// one, where Chrome for Testing has a build.
var ErrNotFound = errors.New(notFound(runtime.GOOS, runtime.GOARCH))

func notFound(goos, goarch string) string {
	if cft.Platform(goos, goarch) == "" {
		return "no Chrome or Chromium found: install Chromium (Debian/Ubuntu: apt-get install chromium), or set CHROME_PATH to its executable (Chrome for Testing, which cdpskill install --browser fetches elsewhere, has no " +
			goos + "-" + goarch + " build)"
	}
	return "no Chrome or Chromium found: run `cdpskill install --browser` (fetches Chrome for Testing into cdpskill's cache, once), install Chromium (Debian/Ubuntu: apt-get install chromium) or Google Chrome, or set CHROME_PATH to its executable"
}

// Launch timing, from SPEC 4 "Auto-Launch".
const (
	launchWait = 10 * time.Second
	launchPoll = 100 * time.Millisecond
)

// linuxChromeNames are looked up on PATH and in linuxChromeDirs, in order.
var (
	linuxChromeNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}
	linuxChromeDirs  = []string{"/usr/bin", "/snap/bin"}
)

// Find returns the browser executable: CHROME_PATH when it exists, else
// the first of the platform's usual names and places, else the newest
// Chrome for Testing `cdpskill install --browser` cached. The machine's
// own comes first: it is the one its user keeps up to date.
func Find(getenv Env) (string, error) {
	return find(runtime.GOOS, runtime.GOARCH, getenv, linuxChromeDirs)
}

// find is Find with the platform and the Linux install directories as
// parameters, so every branch runs in tests on any host.
func find(goos, goarch string, getenv Env, linuxDirs []string) (string, error) {
	if p := getenv("CHROME_PATH"); p != "" {
		if isFile(p) {
			return p, nil
		}
		return "", fmt.Errorf("CHROME_PATH=%s does not exist or is not a file; %w", p, ErrNotFound)
	}
	for _, c := range candidates(goos, getenv, linuxDirs) {
		if isExecutable(c) {
			return c, nil
		}
	}
	if b := cft.Find(goos, goarch, getenv); b != nil {
		return b.Executable, nil
	}
	return "", ErrNotFound
}

// candidates lists absolute paths to try, best first. PATH comes from
// getenv rather than the process so lookups are testable.
func candidates(goos string, getenv Env, linuxDirs []string) []string {
	switch goos {
	case "darwin":
		return []string{
			"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
			"/Applications/Chromium.app/Contents/MacOS/Chromium",
			"/Applications/Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary",
		}
	case "windows":
		var out []string
		for _, root := range []string{getenv("LOCALAPPDATA"), getenv("PROGRAMFILES"), getenv("PROGRAMFILES(X86)")} {
			if root == "" {
				continue
			}
			out = append(out,
				filepath.Join(root, "Google", "Chrome", "Application", "chrome.exe"),
				filepath.Join(root, "Chromium", "Application", "chrome.exe"))
		}
		return out
	default:
		var out []string
		for _, n := range linuxChromeNames {
			for _, dir := range filepath.SplitList(getenv("PATH")) {
				if dir != "" {
					out = append(out, filepath.Join(dir, n))
				}
			}
		}
		for _, n := range linuxChromeNames {
			for _, dir := range linuxDirs {
				out = append(out, filepath.Join(dir, n))
			}
		}
		return out
	}
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// LaunchOptions say which Chrome to start and how.
type LaunchOptions struct {
	Endpoint Endpoint
	Headless bool
	// ExtraArgs are appended after the standard flags.
	ExtraArgs []string
	// Temp is the temp directory the profile goes in (UserDataDir);
	// empty is the process's.
	Temp private.Temp
}

// DefaultHeadless is true where a window could not be shown: Linux
// without a display server.
func DefaultHeadless(getenv Env) bool { return defaultHeadless(runtime.GOOS, getenv) }

func defaultHeadless(goos string, getenv Env) bool {
	if goos != "linux" {
		return false
	}
	return getenv("DISPLAY") == "" && getenv("WAYLAND_DISPLAY") == ""
}

// UserDataDir is the profile directory in temp for an auto-launched
// Chrome: one per port and mode, so several instances never share a
// profile.
func UserDataDir(temp private.Temp, port int, headless bool) string {
	name := "chrome-cdp-profile-" + strconv.Itoa(port)
	if headless {
		name += "-headless"
	}
	return filepath.Join(temp.Path(), name)
}

// LaunchArgs are the flags an auto-launched Chrome gets.
func LaunchArgs(opts LaunchOptions) []string {
	ep := opts.Endpoint.WithDefaults()
	args := []string{
		"--remote-debugging-port=" + strconv.Itoa(ep.Port),
		"--user-data-dir=" + UserDataDir(opts.Temp, ep.Port, opts.Headless),
		"--no-first-run",
		"--no-default-browser-check",
		// Without these Chromium keeps dialling Google's services and, on a
		// closed network, stalls for seconds at a time.
		"--disable-background-networking",
		"--disable-component-update",
		"--disable-sync",
		"--disable-quic",
		"--window-size=1280,800",
	}
	if opts.Headless {
		args = append(args, "--headless=new")
	}
	if os.Geteuid() == 0 {
		args = append(args, "--no-sandbox") // Chrome refuses to run as root with its sandbox
	}
	args = append(args, opts.ExtraArgs...)
	return append(args, "about:blank")
}

// launchLogName is where a launched Chrome's stdout and stderr go, inside
// its profile: a file, not a pipe, because Chrome outlives this process,
// and its tail explains a Chrome that exits at once ("Missing X server").
const launchLogName = "cdpskill-chrome.log"

// Launch starts a detached Chrome that outlives this process and waits up
// to 10 s, polling every 100 ms, for its debugging endpoint to answer. It
// returns the endpoint's version and the pid of the process it started. A
// Chrome that does not come up in time is killed: it is ours, and left
// running it would hold the port and the profile.
func Launch(ctx context.Context, getenv Env, opts LaunchOptions) (*Version, int, error) {
	path, err := Find(getenv)
	if err != nil {
		return nil, 0, err
	}
	ep := opts.Endpoint.WithDefaults()
	opts.Endpoint = ep
	profile := UserDataDir(opts.Temp, ep.Port, opts.Headless)
	logPath := filepath.Join(profile, launchLogName)
	cmd := exec.Command(path, LaunchArgs(opts)...)
	if err := startDetached(opts.Temp, cmd, logPath); err != nil {
		return nil, 0, &cdp.ConnectError{Endpoint: ep.String(), Err: fmt.Errorf("start %s: %w", path, err)}
	}
	pid := cmd.Process.Pid
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }() // reaps Chrome if it dies while we live

	v, err := awaitEndpoint(ctx, ep, exited)
	if err != nil {
		if !errors.Is(err, errChromeExited) {
			_ = cmd.Process.Kill() // by handle, so a reused pid is never hit
		}
		return nil, 0, &cdp.ConnectError{Endpoint: ep.String(), Err: fmt.Errorf("%s: %w%s", path, err, logTail(logPath))}
	}
	return v, pid, nil
}

// startDetached starts cmd in its own session with output to logPath,
// inside the profile. The profile holds the browser's cookies and logins,
// and its name is known in advance, so a directory someone else made
// there first, or a link, is refused before Chrome is pointed at it.
func startDetached(temp private.Temp, cmd *exec.Cmd, logPath string) error {
	if err := temp.Dir(filepath.Dir(logPath)); err != nil {
		return err
	}
	log, err := temp.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC)
	if err != nil {
		return err
	}
	defer log.Close() // the child has its own copy
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, log, log
	Detach(cmd)
	return cmd.Start()
}

var errChromeExited = errors.New("Chrome exited before its debugging port answered")

// awaitEndpoint polls /json/version until it answers, the launch window
// closes, or the process fails. A process that exits cleanly has usually
// handed its arguments to a Chrome already running on the same profile,
// which may still come up, so only a failing exit stops the wait early.
// The launch window running out is not a timeout of the caller's ctx, so
// that error does not wrap context.DeadlineExceeded.
func awaitEndpoint(ctx context.Context, ep Endpoint, exited <-chan error) (*Version, error) {
	wctx, cancel := context.WithTimeout(ctx, launchWait)
	defer cancel()
	tick := time.NewTicker(launchPoll)
	defer tick.Stop()
	for {
		pctx, pcancel := context.WithTimeout(wctx, time.Second)
		v, err := GetVersion(pctx, ep)
		pcancel()
		if err == nil {
			return v, nil
		}
		select {
		case err := <-exited:
			if err != nil {
				return nil, fmt.Errorf("%w (%v)", errChromeExited, err)
			}
			exited = nil
		case <-wctx.Done():
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("debugging port did not answer within %s", launchWait)
		case <-tick.C:
		}
	}
}

// logTail is the end of a launch log, formatted to append to an error.
func logTail(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	s := strings.TrimSpace(string(data))
	if s == "" {
		return ""
	}
	const max = 600
	if len(s) > max {
		s = "…" + s[len(s)-max:]
	}
	return "; Chrome said: " + s
}

// Browser is a connection to a running Chrome.
type Browser struct {
	*cdp.Conn
	Endpoint Endpoint
	Version  *Version
	Launched bool
	// Tab is set when Conn is that tab's own websocket (DialTab), not the
	// browser's: it carries browser-wide commands too, but it ends with
	// the tab.
	Tab string
}

// DialTab opens the websocket of the tab targetID on the local Chrome at
// ep and returns it as the browser connection of a call that drives only
// that tab. A browser websocket costs Chrome far more: each one that
// opens or closes makes every renderer and the GPU process do work, about
// 100 ms of CPU per call with a few dozen busy tabs, where a tab's own
// costs that tab alone. Commands travel without a session id (TabSession).
func DialTab(ctx context.Context, ep Endpoint, targetID string) (*Browser, error) {
	ep = ep.WithDefaults()
	if ep.Remote() {
		return nil, errors.New("a remote endpoint is reached through its browser websocket only")
	}
	conn, err := cdp.DialAs(ctx, "ws://"+ep.String()+"/devtools/page/"+targetID, ep.String())
	if err != nil {
		return nil, err
	}
	return &Browser{Conn: conn, Endpoint: ep, Tab: targetID}, nil
}

// Connect reaches the Chrome at ep, launching one first when nothing
// answers there and autoLaunch is set. A remote endpoint (ep.URL) is only
// ever dialled: autoLaunch does not apply to it.
func Connect(ctx context.Context, getenv Env, opts LaunchOptions, autoLaunch bool) (*Browser, error) {
	ep := opts.Endpoint.WithDefaults()
	if ep.Remote() {
		return connectRemote(ctx, ep)
	}
	opts.Endpoint = ep
	launched := false
	v, err := GetVersion(ctx, ep)
	if err != nil {
		if !autoLaunch || !canLaunchFor(ctx, ep, err) {
			return nil, err
		}
		if v, _, err = Launch(ctx, getenv, opts); err != nil {
			return nil, err
		}
		launched = true
	}
	conn, err := cdp.DialAs(ctx, v.WebSocketDebuggerURL, ep.String())
	if err != nil {
		return nil, err
	}
	return &Browser{Conn: conn, Endpoint: ep, Version: v, Launched: launched}, nil
}

// canLaunchFor reports whether a Chrome we start could fix probeErr: only
// when nothing listens on a local port. Something that answers HTTP there
// but is not Chrome's debugger would keep the new Chrome off the port.
func canLaunchFor(ctx context.Context, ep Endpoint, probeErr error) bool {
	var ce *cdp.ConnectError
	return ctx.Err() == nil && isLocal(ep.Host) && errors.As(probeErr, &ce)
}

func isLocal(host string) bool {
	switch host {
	case "localhost", "127.0.0.1", "::1", "[::1]":
		return true
	}
	return false
}
