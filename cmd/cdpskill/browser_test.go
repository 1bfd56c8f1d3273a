package main

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/chrome/cft"
)

// cftStandIn serves an index of Chrome for Testing and, for every
// platform, a zip whose Chrome is a shell script answering --version: the
// tests never reach Google.
func cftStandIn(t *testing.T, version string) (index string, archives *atomic.Int32) {
	t.Helper()
	archives = new(atomic.Int32)
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/index.json" {
			var chrome []map[string]string
			for _, p := range []string{"linux64", "mac-arm64", "mac-x64", "win32", "win64"} {
				chrome = append(chrome, map[string]string{"platform": p, "url": srv.URL + "/" + p + "/chrome-" + p + ".zip"})
			}
			ch := map[string]any{"version": version, "revision": "1", "downloads": map[string]any{"chrome": chrome}}
			json.NewEncoder(w).Encode(map[string]any{"channels": map[string]any{"Stable": ch, "Beta": ch, "Dev": ch, "Canary": ch}})
			return
		}
		platform := strings.Split(strings.TrimPrefix(r.URL.Path, "/"), "/")[0]
		archives.Add(1)
		w.Write(standInZip(t, platform, version))
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/index.json", archives
}

func standInZip(t *testing.T, platform, version string) []byte {
	exe := "chrome-" + platform + "/chrome"
	if strings.HasPrefix(platform, "mac-") {
		exe = "chrome-" + platform + "/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing"
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	h := &zip.FileHeader{Name: exe, Method: zip.Deflate}
	h.SetMode(0o755)
	w, err := zw.CreateHeader(h)
	if err == nil {
		_, err = fmt.Fprintf(w, "#!/bin/sh\necho 'Google Chrome for Testing %s'\n", version)
	}
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		t.Error(err)
	}
	return buf.Bytes()
}

// browserCmd runs the built binary with args in c's environment plus env,
// and returns its JSON line, its stderr and its exit code.
func (c *cli) browserCmd(env []string, args ...string) (map[string]any, string, int) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = append(c.env(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		c.t.Fatalf("%v: %v", args, err)
	}
	var res map[string]any
	if err := json.Unmarshal(out, &res); err != nil || strings.Count(string(out), "\n") != 1 {
		c.t.Fatalf("%v: not one JSON line: %v\n%s", args, err, out)
	}
	return res, stderr.String(), code
}

// install --browser against a stand-in of the index: downloaded once,
// cached after; uninstall leaves it and says how to remove it; uninstall
// --browser removes it.
func TestInstallBrowser(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in Chrome is a shell script")
	}
	goarch := runtime.GOARCH
	if cft.Platform(runtime.GOOS, goarch) == "" {
		t.Skip("Chrome for Testing has no build for this platform") // the error is package cft's test
	}
	c := newCLI(t)
	index, archives := cftStandIn(t, "999.0.1.2")
	cache := filepath.Join(c.tmp, "cache")
	env := []string{"XDG_CACHE_HOME=" + cache, cft.IndexEnv + "=" + index}

	res, stderr, code := c.browserCmd(env, "install", "--browser")
	b, _ := res["browser"].(map[string]any)
	if code != 0 || res["status"] != "ok" || b["action"] != "downloaded" || b["version"] != "999.0.1.2" || b["channel"] != "stable" {
		t.Fatalf("install --browser: %d %v", code, res)
	}
	exe, _ := b["executable"].(string)
	if !strings.HasPrefix(exe, c.tmp) || !strings.Contains(res["note"].(string), "uninstall --browser") {
		t.Errorf("executable %q, note %q", exe, res["note"])
	}
	if out, err := exec.Command(exe, "--version").Output(); err != nil || !strings.Contains(string(out), "999.0.1.2") {
		t.Errorf("the cached Chrome: %q, %v", out, err)
	}
	if !strings.Contains(stderr, "downloading Chrome for Testing 999.0.1.2") || !strings.Contains(stderr, "is in "+b["dir"].(string)) {
		t.Errorf("progress on stderr:\n%s", stderr)
	}

	res, _, code = c.browserCmd(env, "install", "--browser", "--channel", "Stable")
	if b, _ := res["browser"].(map[string]any); code != 0 || b["action"] != "cached" || b["executable"] != exe || archives.Load() != 1 {
		t.Errorf("again: %d %v; %d downloads", code, res, archives.Load())
	}

	// The skill's uninstall leaves the browser and says so.
	res, _, code = c.browserCmd(env, "uninstall")
	notes, _ := res["notes"].([]any)
	if code != 0 || len(notes) != 1 || !strings.Contains(notes[0].(string), "999.0.1.2") || !strings.Contains(notes[0].(string), "cdpskill uninstall --browser") {
		t.Errorf("uninstall: %d %v", code, res)
	}
	if _, err := os.Stat(exe); err != nil {
		t.Fatal("uninstall removed the browser:", err)
	}

	res, _, code = c.browserCmd(env, "uninstall", "--browser")
	b, _ = res["browser"].(map[string]any)
	if removed, _ := b["removed"].([]any); code != 0 || len(removed) != 1 || removed[0] != filepath.Join(b["dir"].(string), "999.0.1.2-"+cft.Platform(runtime.GOOS, goarch)) {
		t.Errorf("uninstall --browser: %d %v", code, res)
	}
	if left := tree(t, c.tmp); len(left) != 1 || left[0] != "cache" { // the user's cache directory stays
		t.Errorf("left behind: %v", left)
	}
}

func TestInstallBrowserErrors(t *testing.T) {
	c := newCLI(t)
	env := []string{"XDG_CACHE_HOME=" + filepath.Join(c.tmp, "cache"), cft.IndexEnv + "=http://127.0.0.1:1/index.json"}
	for _, tc := range []struct {
		args []string
		typ  string
		says string
	}{
		{[]string{"install", "--channel", "beta"}, "VALIDATION", "--channel goes with --browser"},
		{[]string{"install", "--browser", "--target", c.tmp}, "VALIDATION", "takes no --target"},
		{[]string{"uninstall", "--browser", "--target", c.tmp}, "VALIDATION", "takes no --target"},
		{[]string{"uninstall", "--browser", "--channel", "beta"}, "VALIDATION", "no --channel"},
		{[]string{"install", "--browser", "--channel", "nightly"}, "VALIDATION", "stable, beta, dev, canary"},
		{[]string{"install", "--browser"}, "EXECUTION", "cannot reach the Chrome for Testing index"},
	} {
		res, _, code := c.browserCmd(env, tc.args...)
		e, _ := res["error"].(map[string]any)
		if code != 1 || res["status"] != "error" || e["type"] != tc.typ || !strings.Contains(fmt.Sprint(e["message"]), tc.says) {
			t.Errorf("%v: %d %v", tc.args, code, res)
		}
	}
	if left := tree(t, c.tmp); len(left) != 0 {
		t.Errorf("errors wrote %v", left)
	}
}
