package chrome

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/chrome/cft"
)

// fakeEnv is an Env backed by a map.
func fakeEnv(vars map[string]string) Env {
	return func(k string) string { return vars[k] }
}

// touch creates an executable (mode 0755) or plain (0644) file, with its
// directories.
func touch(t *testing.T, path string, executable bool) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	mode := os.FileMode(0o644)
	if executable {
		mode = 0o755
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), mode); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestFind(t *testing.T) {
	dir := t.TempDir()
	pathA := filepath.Join(dir, "a")
	pathB := filepath.Join(dir, "b")
	fixed := filepath.Join(dir, "usr-bin")
	empty := filepath.Join(dir, "empty")
	explicit := touch(t, filepath.Join(dir, "my chrome", "chrome"), true)
	googleOnA := touch(t, filepath.Join(pathA, "google-chrome"), true)
	chromiumOnB := touch(t, filepath.Join(pathB, "chromium"), true)
	touch(t, filepath.Join(pathA, "chromium-browser"), false) // not executable: skipped
	fixedBrowser := touch(t, filepath.Join(fixed, "chromium-browser"), true)
	local := filepath.Join(dir, "local")
	progX86 := filepath.Join(dir, "x86")
	winChrome := touch(t, filepath.Join(local, "Google", "Chrome", "Application", "chrome.exe"), true)
	winChromium := touch(t, filepath.Join(progX86, "Chromium", "Application", "chrome.exe"), true)
	list := string(filepath.ListSeparator)

	tests := []struct {
		name string
		goos string
		env  map[string]string
		dirs []string
		want string // "" means ErrNotFound
	}{
		{"CHROME_PATH wins", "linux", map[string]string{"CHROME_PATH": explicit, "PATH": pathA}, []string{fixed}, explicit},
		{"missing CHROME_PATH is an error, not a fallback", "linux", map[string]string{"CHROME_PATH": filepath.Join(dir, "nope"), "PATH": pathA}, nil, ""},
		{"name order beats PATH order", "linux", map[string]string{"PATH": pathA + list + pathB}, []string{fixed}, chromiumOnB},
		{"PATH hit", "linux", map[string]string{"PATH": pathA}, []string{fixed}, googleOnA},
		{"fixed directories after PATH", "linux", map[string]string{"PATH": empty}, []string{empty, fixed}, fixedBrowser},
		{"nothing on linux", "linux", map[string]string{"PATH": empty}, []string{empty}, ""},
		{"windows LOCALAPPDATA", "windows", map[string]string{"LOCALAPPDATA": local, "PROGRAMFILES(X86)": progX86}, nil, winChrome},
		{"windows PROGRAMFILES(X86) Chromium", "windows", map[string]string{"PROGRAMFILES": empty, "PROGRAMFILES(X86)": progX86}, nil, winChromium},
		{"nothing on windows", "windows", map[string]string{"LOCALAPPDATA": empty}, nil, ""},
	}
	if runtime.GOOS != "darwin" {
		tests = append(tests, struct {
			name string
			goos string
			env  map[string]string
			dirs []string
			want string
		}{"nothing in /Applications", "darwin", nil, nil, ""})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := find(tc.goos, "amd64", fakeEnv(tc.env), tc.dirs)
			if tc.want != "" {
				if err != nil || got != tc.want {
					t.Fatalf("got %q, %v; want %q", got, err, tc.want)
				}
				return
			}
			if !errors.Is(err, ErrNotFound) {
				t.Fatalf("got %q, %v; want ErrNotFound", got, err)
			}
			if !strings.Contains(err.Error(), "CHROME_PATH") || !strings.Contains(err.Error(), "install") {
				t.Errorf("error does not say what to install or set: %v", err)
			}
			if cft.Platform(runtime.GOOS, runtime.GOARCH) != "" && !strings.Contains(err.Error(), "cdpskill install --browser") {
				t.Errorf("error does not name cdpskill install --browser: %v", err)
			}
			if p := tc.env["CHROME_PATH"]; p != "" && !strings.Contains(err.Error(), p) {
				t.Errorf("error does not name CHROME_PATH's value %s: %v", p, err)
			}
		})
	}
}

// cachedBuild makes, in the cache directory home's environment names, a
// build as `cdpskill install --browser` leaves one: its Chrome and its
// marker (package cft's tests install one for real).
func cachedBuild(t *testing.T, home, goos, goarch, version string) string {
	t.Helper()
	platform := cft.Platform(goos, goarch)
	cache, err := cft.CacheDir(goos, fakeEnv(map[string]string{"HOME": home, "LocalAppData": home}))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(cache, version+"-"+platform)
	rel := "chrome-" + platform + "/chrome"
	switch {
	case strings.HasPrefix(platform, "mac"):
		rel = "chrome-" + platform + "/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing"
	case strings.HasPrefix(platform, "win"):
		rel = "chrome-" + platform + "/chrome.exe"
	}
	exe := touch(t, filepath.Join(dir, filepath.FromSlash(rel)), true)
	marker, _ := json.Marshal(map[string]string{"version": version, "channel": "stable", "platform": platform, "executable": rel})
	if err := os.WriteFile(filepath.Join(dir, "cdpskill-cft.json"), marker, 0o600); err != nil {
		t.Fatal(err)
	}
	return exe
}

// With no Chrome of the machine's, the Chrome for Testing cdpskill cached
// is found; the machine's own comes first.
func TestFindCachedChromeForTesting(t *testing.T) {
	home := t.TempDir()
	empty := t.TempDir()
	system := touch(t, filepath.Join(t.TempDir(), "chromium"), true)
	for _, goos := range []string{"linux", "darwin", "windows"} {
		if goos == "darwin" && runtime.GOOS == "darwin" {
			continue // /Applications may hold a Chrome
		}
		exe := cachedBuild(t, home, goos, "amd64", "131.0.6778.204")
		env := fakeEnv(map[string]string{"HOME": home, "LocalAppData": home, "PATH": empty})
		if got, err := find(goos, "amd64", env, []string{empty}); err != nil || got != exe {
			t.Errorf("%s: got %q, %v; want the cached %s", goos, got, err, exe)
		}
	}
	env := fakeEnv(map[string]string{"HOME": home, "PATH": filepath.Dir(system)})
	if got, _ := find("linux", "amd64", env, nil); got != system {
		t.Errorf("with a system Chromium: got %q, want %s", got, system)
	}
	env = fakeEnv(map[string]string{"HOME": home, "PATH": empty})
	if _, err := find("linux", "arm64", env, []string{empty}); !errors.Is(err, ErrNotFound) {
		t.Errorf("linux-arm64 has no build to cache: %v", err)
	}
	if msg := notFound("linux", "arm64"); !strings.Contains(msg, "no linux-arm64 build") || !strings.Contains(msg, "apt-get install chromium") {
		t.Errorf("linux-arm64: %s", msg)
	}
	if msg := notFound("linux", "amd64"); !strings.Contains(msg, "`cdpskill install --browser`") {
		t.Errorf("linux-amd64: %s", msg)
	}
}

func TestDefaultHeadless(t *testing.T) {
	for _, tc := range []struct {
		goos string
		env  map[string]string
		want bool
	}{
		{"linux", nil, true},
		{"linux", map[string]string{"DISPLAY": ":0"}, false},
		{"linux", map[string]string{"WAYLAND_DISPLAY": "wayland-0"}, false},
		{"darwin", nil, false},
		{"windows", nil, false},
	} {
		if got := defaultHeadless(tc.goos, fakeEnv(tc.env)); got != tc.want {
			t.Errorf("%s %v: got %v, want %v", tc.goos, tc.env, got, tc.want)
		}
	}
}

func TestLaunchArgs(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	headless := LaunchArgs(LaunchOptions{Endpoint: Endpoint{Port: 9333}, Headless: true, ExtraArgs: []string{"--lang=de"}})
	for _, want := range []string{
		"--remote-debugging-port=9333",
		"--user-data-dir=" + UserDataDir("", 9333, true),
		"--no-first-run", "--no-default-browser-check",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic",
		"--headless=new", "--lang=de",
	} {
		if !slices.Contains(headless, want) {
			t.Errorf("headless args lack %s: %v", want, headless)
		}
	}
	if slices.Contains(headless, "--no-sandbox") != (os.Geteuid() == 0) {
		t.Errorf("--no-sandbox must be there exactly when running as root: %v", headless)
	}
	if headless[len(headless)-1] != "about:blank" || slices.Index(headless, "--lang=de") != len(headless)-2 {
		t.Errorf("extra args go last, before the start page: %v", headless)
	}

	headed := LaunchArgs(LaunchOptions{})
	if slices.ContainsFunc(headed, func(a string) bool { return strings.HasPrefix(a, "--headless") }) {
		t.Errorf("headed launch asks for headless: %v", headed)
	}
	if !slices.Contains(headed, "--remote-debugging-port=9222") {
		t.Errorf("default port is not 9222: %v", headed)
	}

	dirs := map[string]bool{}
	for _, port := range []int{9222, 9333} {
		for _, h := range []bool{false, true} {
			d := UserDataDir("", port, h)
			if filepath.Dir(d) != os.TempDir() {
				t.Errorf("profile %s is not directly under %s", d, os.TempDir())
			}
			dirs[d] = true
		}
	}
	if len(dirs) != 4 {
		t.Errorf("profiles are not one per port and mode: %v", dirs)
	}
}

// freePort returns a local port nothing listens on (at least just now).
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// useTempDir points os.TempDir, and so every profile, at a test directory.
// Its removal is retried for a moment: a Chrome helper of another
// session (crashpad) may still be closing a file in the profile.
func useTempDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "cdp-launch-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			err := os.RemoveAll(dir)
			if err == nil {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("remove the test's TMPDIR: %v", err)
				return
			}
		}
	})
	t.Setenv("TMPDIR", dir)
	return dir
}

func TestLaunchRealChromium(t *testing.T) {
	tmp := useTempDir(t)
	port := freePort(t)
	ep := Endpoint{Host: "127.0.0.1", Port: port}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()

	v, pid, err := Launch(ctx, os.Getenv, LaunchOptions{Endpoint: ep, Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopChrome(t, pid) })
	if pid <= 0 || !strings.HasPrefix(v.WebSocketDebuggerURL, "ws://") || !strings.Contains(v.Browser, "Chrome") {
		t.Fatalf("pid %d, version %+v", pid, v)
	}
	if _, err := GetVersion(ctx, ep); err != nil {
		t.Fatalf("launched Chrome does not answer /json/version: %v", err)
	}
	profile := UserDataDir("", port, true)
	if !strings.HasPrefix(profile, tmp) {
		t.Errorf("profile %s is not under TMPDIR %s", profile, tmp)
	}
	if fi, err := os.Stat(filepath.Join(profile, launchLogName)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("launch log in the profile: %v %v, want a 0600 file", fi, err)
	}
	if fi, err := os.Stat(profile); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("profile: %v %v, want a 0700 directory", fi, err)
	}
	if runtime.GOOS == "linux" {
		addrs := listening(t, port)
		if len(addrs) == 0 {
			t.Errorf("nothing listens on port %d", port)
		}
		for _, a := range addrs {
			if !a.IsLoopback() {
				t.Errorf("the launched Chrome listens on %s:%d, reachable from other machines; want loopback only", a, port)
			}
		}
	}

	stopChrome(t, pid)
	if _, err := GetVersion(ctx, ep); err == nil {
		t.Error("Chrome still answers after it was killed")
	}
}

// listening is the local addresses of the TCP sockets listening on port,
// from /proc/net/tcp and tcp6 (Linux): what `ss -ltn` shows.
func listening(t *testing.T, port int) []net.IP {
	t.Helper()
	var out []net.IP
	for _, file := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n")[1:] {
			f := strings.Fields(line)
			if len(f) < 4 || f[3] != "0A" { // 0A: LISTEN
				continue
			}
			hexIP, hexPort, _ := strings.Cut(f[1], ":")
			if p, _ := strconv.ParseUint(hexPort, 16, 16); int(p) != port {
				continue
			}
			raw, err := hex.DecodeString(hexIP)
			if err != nil {
				t.Fatalf("%s: %q", file, f[1])
			}
			// The kernel prints each 32-bit word in host (little-endian) order.
			ip := make(net.IP, len(raw))
			for i := 0; i < len(raw); i += 4 {
				ip[i], ip[i+1], ip[i+2], ip[i+3] = raw[i+3], raw[i+2], raw[i+1], raw[i]
			}
			out = append(out, ip)
		}
	}
	return out
}

// fakeChrome writes an executable shell script standing in for Chrome.
func fakeChrome(t *testing.T, body string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("fake Chrome is a shell script")
	}
	p := filepath.Join(t.TempDir(), "chrome")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLaunchReportsChromeThatExits(t *testing.T) {
	useTempDir(t)
	t.Setenv("CHROME_PATH", fakeChrome(t, `echo "Missing X server or \$DISPLAY" >&2; exit 3`))
	_, _, err := Launch(callCtx(t), os.Getenv, LaunchOptions{Endpoint: Endpoint{Port: freePort(t)}})
	var ce *cdp.ConnectError
	if !errors.As(err, &ce) || !errors.Is(err, errChromeExited) {
		t.Fatalf("got %v (%T), want a *cdp.ConnectError for a Chrome that exited", err, err)
	}
	for _, want := range []string{"exit status 3", "Missing X server or $DISPLAY"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
}

func TestLaunchKillsChromeThatNeverAnswers(t *testing.T) {
	tmp := useTempDir(t)
	pidFile := filepath.Join(tmp, "pid")
	t.Setenv("CHROME_PATH", fakeChrome(t, `echo $$ > "`+pidFile+`"; exec sleep 60`))
	// Time for the shell to write its pid on a loaded machine; it never
	// answers.
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
	defer cancel()
	_, _, err := Launch(ctx, os.Getenv, LaunchOptions{Endpoint: Endpoint{Port: freePort(t)}})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want it to wrap context.DeadlineExceeded", err)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return
	}
	deadline := time.Now().Add(10 * time.Second)
	for p.Signal(syscall.Signal(0)) == nil {
		if time.Now().After(deadline) {
			_ = p.Kill()
			t.Fatal("Launch left the Chrome it started running")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A Chrome started on a profile that another Chrome already holds hands
// its arguments over and exits 0; the one already running may still come
// up on the port, so Launch keeps waiting rather than failing.
func TestLaunchWaitsAfterHandOff(t *testing.T) {
	tmp := useTempDir(t)
	marker := filepath.Join(tmp, "handed-off")
	t.Setenv("CHROME_PATH", fakeChrome(t, `touch "`+marker+`"; exit 0`))
	port := freePort(t)
	ctx := callCtx(t)
	go func() {
		for {
			if _, err := os.Stat(marker); err == nil {
				break
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
		var other fakeDevTools // the Chrome that was handed the arguments
		if err := other.start(t, port); err != nil {
			t.Error(err)
		}
	}()
	v, _, err := Launch(ctx, os.Getenv, LaunchOptions{Endpoint: Endpoint{Host: "127.0.0.1", Port: port}})
	if err != nil || v.Browser != "Chrome/999.0.0.0" {
		t.Fatalf("got %+v, %v; want the version of the Chrome that came up", v, err)
	}
}

func TestLaunchWithoutChrome(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-chrome")
	env := fakeEnv(map[string]string{"CHROME_PATH": missing})
	_, _, err := Launch(callCtx(t), env, LaunchOptions{Endpoint: Endpoint{Port: freePort(t)}})
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), missing) {
		t.Fatalf("got %v, want ErrNotFound naming %s", err, missing)
	}
}

func callCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// The profile's name is known in advance: a directory another user made
// there first, or a link, is refused before any Chrome starts on it.
func TestLaunchRefusesAProfileNotOurs(t *testing.T) {
	tmp := useTempDir(t)
	marker := filepath.Join(tmp, "started")
	t.Setenv("CHROME_PATH", fakeChrome(t, `touch "`+marker+`"`))
	port := freePort(t)
	profile := UserDataDir("", port, false)
	if err := os.Symlink(t.TempDir(), profile); err != nil {
		t.Fatal(err)
	}
	_, _, err := Launch(callCtx(t), os.Getenv, LaunchOptions{Endpoint: Endpoint{Port: port}})
	if err == nil || !strings.Contains(err.Error(), profile+" is a symbolic link") {
		t.Fatalf("got %v, want the linked profile refused", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("Chrome was started on a linked profile")
	}
	if os.Geteuid() != 0 {
		return // only root can make a directory another user's
	}
	os.Remove(profile)
	os.Mkdir(profile, 0o777)
	os.Chown(profile, 65534, 65534)
	_, _, err = Launch(callCtx(t), os.Getenv, LaunchOptions{Endpoint: Endpoint{Port: port}})
	if err == nil || !strings.Contains(err.Error(), "belongs to another user") {
		t.Fatalf("got %v, want another user's profile refused", err)
	}
}
