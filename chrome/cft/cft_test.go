package cft

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/md5"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// The tests never reach Google: a local stand-in of the index serves a
// small zip whose "Chrome" is a shell script that answers --version.

const testVersion = "999.0.1234.5"

// testPlatform is the host's goos/goarch, or Linux x64 on a host Chrome
// for Testing has no build for: the stand-in's Chrome is a shell script,
// which runs anywhere but Windows.
func testPlatform(t *testing.T) (goos, goarch, platform string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in Chrome is a shell script")
	}
	goos, goarch = runtime.GOOS, runtime.GOARCH
	if Platform(goos, goarch) == "" {
		goos, goarch = "linux", "amd64"
	}
	return goos, goarch, Platform(goos, goarch)
}

// zipEntry is one entry of a stand-in archive: a directory (name ends in
// /), a link (mode has ModeSymlink, body its target) or a file.
type zipEntry struct {
	name, body string
	mode       fs.FileMode
}

// chromeScript answers --version as Chrome for Testing does.
func chromeScript(version string) string {
	return "#!/bin/sh\necho 'Google Chrome for Testing " + version + " '\n"
}

// goodEntries is a build of platform: its directory, its Chrome, a
// resource, and on a Mac a framework link as the real build has.
func goodEntries(platform, version string) []zipEntry {
	top := "chrome-" + platform
	es := []zipEntry{
		{name: top + "/", mode: fs.ModeDir | 0o755},
		{name: executableIn(platform), body: chromeScript(version), mode: 0o755},
		{name: top + "/resources.pak", body: "RESOURCE-BYTES-0123456789", mode: 0o644},
	}
	if strings.HasPrefix(platform, "mac-") {
		es = append(es, zipEntry{name: top + "/Versions/Current", body: version, mode: fs.ModeSymlink | 0o777})
	}
	return es
}

func zipOf(t *testing.T, entries []zipEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Store} // stored: a test can flip a byte of a file
		h.SetMode(e.mode)
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(e.body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// standIn is a local index and storage.
type standIn struct {
	*httptest.Server
	platform string
	mu       sync.Mutex
	version  string // the index's version
	archive  []byte
	// serve, when set, answers the archive's request instead.
	serve     func(w http.ResponseWriter, archive []byte)
	indexCode int // an index that fails, when set
	requests  []string
}

func newStandIn(t *testing.T, platform string, archive []byte) *standIn {
	s := &standIn{platform: platform, version: testVersion, archive: archive}
	s.Server = httptest.NewServer(http.HandlerFunc(s.handle))
	t.Cleanup(s.Close)
	return s
}

func (s *standIn) handle(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests = append(s.requests, r.URL.Path)
	version, archive, serve, code := s.version, s.archive, s.serve, s.indexCode
	s.mu.Unlock()
	switch r.URL.Path {
	case "/index.json":
		if code != 0 {
			http.Error(w, "down", code)
			return
		}
		json.NewEncoder(w).Encode(indexDoc(version, s.URL, s.platform))
	case "/" + version + "/" + s.platform + "/chrome-" + s.platform + ".zip":
		if serve != nil {
			serve(w, archive)
			return
		}
		w.Header().Set("Content-Length", fmt.Sprint(len(archive)))
		w.Write(archive)
	default:
		http.NotFound(w, r)
	}
}

// indexDoc is last-known-good-versions-with-downloads.json's shape, every
// channel at version, each with every platform's download on base.
func indexDoc(version, base, platform string) map[string]any {
	channels := map[string]any{}
	for _, ch := range []string{"Stable", "Beta", "Dev", "Canary"} {
		var chrome []map[string]string
		for _, p := range []string{"linux64", "mac-arm64", "mac-x64", "win32", "win64"} {
			chrome = append(chrome, map[string]string{"platform": p, "url": base + "/" + version + "/" + p + "/chrome-" + p + ".zip"})
		}
		channels[ch] = map[string]any{"channel": ch, "version": version, "revision": "1368529",
			"downloads": map[string]any{"chrome": chrome, "chromedriver": chrome}}
	}
	return map[string]any{"timestamp": "2026-01-05T22:09:08.729Z", "channels": channels}
}

func (s *standIn) archiveRequests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, p := range s.requests {
		if strings.HasSuffix(p, ".zip") {
			n++
		}
	}
	return n
}

// env is the environment of an install into cache with the stand-in's
// index.
func env(cache, index string) func(string) string {
	vars := map[string]string{"HOME": cache, "XDG_CACHE_HOME": filepath.Join(cache, "xdg"), "LocalAppData": cache, IndexEnv: index}
	return func(k string) string { return vars[k] }
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// googHash is the x-goog-hash Google's storage sends for data.
func googHash(data []byte) string {
	m := md5.Sum(data)
	c := crc32.Checksum(data, crc32.MakeTable(crc32.Castagnoli))
	return "crc32c=" + base64.StdEncoding.EncodeToString(binary.BigEndian.AppendUint32(nil, c)) +
		",md5=" + base64.StdEncoding.EncodeToString(m[:])
}

func TestInstallDownloadsVerifiesAndCaches(t *testing.T) {
	goos, goarch, platform := testPlatform(t)
	archive := zipOf(t, goodEntries(platform, testVersion))
	s := newStandIn(t, platform, archive)
	s.serve = func(w http.ResponseWriter, a []byte) {
		w.Header().Set("X-Goog-Hash", googHash(a))
		w.Header().Set("Content-Length", fmt.Sprint(len(a)))
		w.Write(a)
	}
	home := t.TempDir()
	getenv := env(home, s.URL+"/index.json")
	var progress bytes.Buffer
	r, err := Install(testCtx(t), Options{Getenv: getenv, Progress: &progress, GOOS: goos, GOARCH: goarch})
	if err != nil {
		t.Fatal(err)
	}
	cache, _ := CacheDir(goos, getenv)
	dir := filepath.Join(cache, testVersion+"-"+platform)
	sum := sha256.Sum256(archive)
	if r.Action != "downloaded" || r.Version != testVersion || r.Channel != "stable" || r.Platform != platform ||
		r.Dir != dir || r.Executable != filepath.Join(dir, filepath.FromSlash(executableIn(platform))) ||
		r.SHA256 != hex.EncodeToString(sum[:]) || r.Bytes != int64(len(archive)) {
		t.Fatalf("result %+v", r)
	}
	for _, want := range []string{"size: ", "md5: ", "crc32c: ", "CRC-32", "--version reports " + testVersion, IndexEnv} {
		if !slices.ContainsFunc(r.Verified, func(v string) bool { return strings.Contains(v, want) }) {
			t.Errorf("verified %q lacks %q", r.Verified, want)
		}
	}
	if !strings.Contains(progress.String(), "downloading Chrome for Testing "+testVersion) || !strings.Contains(progress.String(), "(100%)") {
		t.Errorf("progress:\n%s", progress.String())
	}
	checkPrivate(t, dir, r.Executable)
	var m marker
	data, _ := os.ReadFile(filepath.Join(dir, markerName))
	if err := json.Unmarshal(data, &m); err != nil || m.SHA256 != r.SHA256 || m.URL != r.URL || m.Version != testVersion ||
		m.Installed.IsZero() || m.Executable != executableIn(platform) {
		t.Errorf("marker %s (%v)", data, err)
	}
	if left := entries(t, cache); !slices.Equal(left, []string{filepath.Base(dir)}) {
		t.Errorf("the cache holds %v, want the build alone", left)
	}

	// Found, and known for what it is.
	if b := Find(goos, goarch, getenv); b == nil || b.Executable != r.Executable || b.Version != testVersion || b.Channel != "stable" {
		t.Errorf("Find: %+v", b)
	}
	if b := Owner(goos, getenv, r.Executable); b == nil || b.Version != testVersion {
		t.Errorf("Owner: %+v", b)
	}
	if b := Owner(goos, getenv, filepath.Join(dir, "elsewhere")); b != nil {
		t.Errorf("Owner of another file: %+v", b)
	}

	// Again: the index is asked, the archive not.
	again, err := Install(testCtx(t), Options{Getenv: getenv, GOOS: goos, GOARCH: goarch})
	if err != nil || again.Action != "cached" || again.Executable != r.Executable || s.archiveRequests() != 1 {
		t.Fatalf("again: %+v, %v; %d archive requests", again, err, s.archiveRequests())
	}
	// The index unreachable: the cached build, with a warning.
	s.mu.Lock()
	s.indexCode = http.StatusServiceUnavailable
	s.mu.Unlock()
	offline, err := Install(testCtx(t), Options{Getenv: getenv, GOOS: goos, GOARCH: goarch})
	if err != nil || offline.Action != "cached" || len(offline.Warnings) != 1 || !strings.Contains(offline.Warnings[0], "HTTP 503") {
		t.Fatalf("offline: %+v, %v", offline, err)
	}
	// Another channel is not this one's build.
	if _, err := Install(testCtx(t), Options{Getenv: getenv, Channel: "beta", GOOS: goos, GOARCH: goarch}); err == nil {
		t.Error("beta, offline, took the stable build")
	}

	rm, err := Remove(goos, getenv)
	if err != nil || !slices.Equal(rm.Removed, []string{dir}) || rm.Bytes == 0 {
		t.Fatalf("remove: %+v, %v", rm, err)
	}
	if _, err := os.Stat(filepath.Dir(cache)); !os.IsNotExist(err) {
		t.Errorf("the emptied cache directory stays: %v", err)
	}
	if Find(goos, goarch, getenv) != nil {
		t.Error("found a build after Remove")
	}
}

// checkPrivate: directories 0700, files 0600, the Chrome 0700.
func checkPrivate(t *testing.T, dir, exe string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		info, _ := d.Info()
		want := fs.FileMode(0o600)
		switch {
		case d.IsDir(), p == exe:
			want = 0o700
		case d.Type()&fs.ModeSymlink != 0:
			return nil
		}
		if info.Mode().Perm() != want {
			t.Errorf("%s is %v, want %v", p, info.Mode().Perm(), want)
		}
		return nil
	})
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// Every archive refused leaves nothing in the cache, nor outside it.
func TestInstallRefuses(t *testing.T) {
	goos, goarch, platform := testPlatform(t)
	top := "chrome-" + platform
	exe := executableIn(platform)
	good := goodEntries(platform, testVersion)
	with := func(extra ...zipEntry) []zipEntry { return append(slices.Clone(good), extra...) }
	withExe := func(body string) []zipEntry {
		es := slices.Clone(good)
		es[1].body = body
		return es
	}
	corrupt := func(t *testing.T) []byte {
		a := zipOf(t, good)
		i := bytes.Index(a, []byte("RESOURCE-BYTES"))
		a[i] ^= 0xff
		return a
	}
	truncate := func(w http.ResponseWriter, a []byte) {
		w.Header().Set("Content-Length", fmt.Sprint(len(a)))
		w.Write(a[:len(a)/2])
	}
	badHash := func(w http.ResponseWriter, a []byte) {
		w.Header().Set("X-Goog-Hash", googHash(append(slices.Clone(a), 0)))
		w.Write(a)
	}
	tests := []struct {
		name    string
		entries []zipEntry
		archive func(*testing.T) []byte
		serve   func(http.ResponseWriter, []byte)
		says    string
	}{
		{name: "truncated in transit", entries: good, serve: truncate, says: "unexpected EOF"},
		{name: "truncated archive", archive: func(t *testing.T) []byte { a := zipOf(t, good); return a[:len(a)-40] }, says: "not a whole zip archive"},
		{name: "a file corrupted", archive: corrupt, says: "corrupted"},
		{name: "not the storage's hash", entries: good, serve: badHash, says: "not the"},
		{name: "zip-slip", entries: with(zipEntry{name: top + "/../../evil", body: "x", mode: 0o644}), says: "not a plain name"},
		{name: "zip-slip cleaned", entries: with(zipEntry{name: "../evil", body: "x", mode: 0o644}), says: "out of the archive"},
		{name: "absolute", entries: with(zipEntry{name: "/tmp/evil-cdpskill", body: "x", mode: 0o644}), says: "out of the archive"},
		{name: "outside the top directory", entries: with(zipEntry{name: "other/file", body: "x", mode: 0o644}), says: "outside the " + top},
		{name: "a link out", entries: with(zipEntry{name: top + "/lib", body: "../../../etc", mode: fs.ModeSymlink | 0o777}), says: "out of its directory"},
		{name: "an absolute link", entries: with(zipEntry{name: top + "/lib", body: "/etc", mode: fs.ModeSymlink | 0o777}), says: "out of its directory"},
		{name: "written through a link", entries: with(
			zipEntry{name: top + "/l", body: "sub", mode: fs.ModeSymlink | 0o777},
			zipEntry{name: top + "/l/x", body: "x", mode: 0o644}), says: "through the link"},
		{name: "a name twice", entries: with(zipEntry{name: top + "/resources.pak", body: "again", mode: 0o644}), says: "twice"},
		{name: "no Chrome", entries: []zipEntry{good[0], good[2]}, says: "has no " + exe},
		{name: "another version", entries: withExe(chromeScript("998.0.1.1")), says: "not the " + testVersion},
		{name: "does not run", entries: withExe("#!/bin/sh\necho 'libnss3.so: cannot open shared object file' >&2\nexit 127\n"), says: "libnss3.so"},
		{name: "not a zip", archive: func(*testing.T) []byte { return []byte("<html>captive portal</html>") }, says: "not a whole zip"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var archive []byte
			if tc.archive != nil {
				archive = tc.archive(t)
			} else {
				archive = zipOf(t, tc.entries)
			}
			s := newStandIn(t, platform, archive)
			s.serve = tc.serve
			home := t.TempDir()
			getenv := env(home, s.URL+"/index.json")
			r, err := Install(testCtx(t), Options{Getenv: getenv, GOOS: goos, GOARCH: goarch})
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("got %+v, %v; want an error saying %q", r, err, tc.says)
			}
			t.Log(err)
			cache, _ := CacheDir(goos, getenv)
			if left := entries(t, cache); len(left) != 0 {
				t.Errorf("left behind in the cache: %v", left)
			}
			if left := entries(t, filepath.Dir(filepath.Dir(cache))); len(left) != 1 { // xdg/cdpskill
				t.Errorf("written beside the cache: %v", left)
			}
			if _, err := os.Lstat(filepath.Join(home, "evil")); err == nil {
				t.Error("zip-slip wrote outside")
			}
			if Find(goos, goarch, getenv) != nil {
				t.Error("a refused build is found")
			}
		})
	}
}

// The index decides what is fetched, so what it says is checked before
// anything is.
func TestInstallRefusesTheIndex(t *testing.T) {
	for name, tc := range map[string]struct {
		in   installer
		idx  *index
		says string
	}{
		"another host, official index": {installer{platform: "linux64", channel: "stable"},
			oneDownload("131.0.6778.204", "https://evil.example/chrome-linux64.zip"), "not Google's storage"},
		"plain http": {installer{platform: "linux64", channel: "stable", mirror: true},
			oneDownload("131.0.6778.204", "http://mirror.example/chrome-linux64.zip"), "not an https:// URL"},
		"not the platform's zip": {installer{platform: "linux64", channel: "stable"},
			oneDownload("131.0.6778.204", "https://storage.googleapis.com/x/chrome-mac-x64.zip"), "not a chrome-linux64.zip"},
		"a version that is a path": {installer{platform: "linux64", channel: "stable"},
			oneDownload("../../131.0.6778.204", "https://storage.googleapis.com/x/chrome-linux64.zip"), "not a Chrome version"},
		"no channel": {installer{platform: "linux64", channel: "beta"},
			oneDownload("131.0.6778.204", "https://storage.googleapis.com/x/chrome-linux64.zip"), "no Beta channel"},
		"no platform": {installer{platform: "win32", channel: "stable"},
			oneDownload("131.0.6778.204", "https://storage.googleapis.com/x/chrome-linux64.zip"), "no win32 build"},
	} {
		if _, err := tc.in.pick(tc.idx); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: got %v, want %q", name, err, tc.says)
		}
	}
	official := installer{platform: "linux64", channel: "stable"}
	if rel, err := official.pick(oneDownload("131.0.6778.204",
		"https://storage.googleapis.com/chrome-for-testing-public/131.0.6778.204/linux64/chrome-linux64.zip")); err != nil || rel.version != "131.0.6778.204" {
		t.Errorf("the official shape: %+v, %v", rel, err)
	}
}

func oneDownload(version, url string) *index {
	var idx index
	doc, _ := json.Marshal(map[string]any{"channels": map[string]any{"Stable": map[string]any{"version": version,
		"downloads": map[string]any{"chrome": []map[string]string{{"platform": "linux64", "url": url}}}}}})
	json.Unmarshal(doc, &idx)
	return &idx
}

// A download that stops sending fails once stallWait passes without a
// byte, and one the server says is too large is not begun.
func TestInstallBounds(t *testing.T) {
	goos, goarch, platform := testPlatform(t)
	archive := zipOf(t, goodEntries(platform, testVersion))
	defer func(w time.Duration, m int64) { stallWait, maxArchive = w, m }(stallWait, maxArchive)
	stallWait = 200 * time.Millisecond
	s := newStandIn(t, platform, archive)
	stalled := make(chan struct{})
	t.Cleanup(func() { close(stalled) }) // before the server's Close
	s.serve = func(w http.ResponseWriter, a []byte) {
		w.Header().Set("Content-Length", fmt.Sprint(len(a)))
		w.Write(a[:10])
		w.(http.Flusher).Flush()
		<-stalled // the rest never comes while the test runs
	}
	getenv := env(t.TempDir(), s.URL+"/index.json")
	start := time.Now()
	_, err := Install(testCtx(t), Options{Getenv: getenv, GOOS: goos, GOARCH: goarch})
	// A correctness bound, not a speed target: the download would
	// otherwise wait until testCtx's 30 s.
	if err == nil || !strings.Contains(err.Error(), "no data came for 200ms") || time.Since(start) > 10*time.Second {
		t.Errorf("stalled: %v after %s", err, time.Since(start))
	}

	maxArchive = 100
	s.serve = nil
	_, err = Install(testCtx(t), Options{Getenv: getenv, GOOS: goos, GOARCH: goarch})
	if err == nil || !strings.Contains(err.Error(), "refusing it") {
		t.Errorf("too large: %v", err)
	}
	cache, _ := CacheDir(goos, getenv)
	if left := entries(t, cache); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

func TestPlatform(t *testing.T) {
	for goosArch, want := range map[string]string{
		"linux/amd64": "linux64", "darwin/arm64": "mac-arm64", "darwin/amd64": "mac-x64",
		"windows/amd64": "win64", "windows/386": "win32", "windows/arm64": "win64", "linux/arm64": "",
	} {
		goos, goarch, _ := strings.Cut(goosArch, "/")
		if got := Platform(goos, goarch); got != want {
			t.Errorf("%s: %q, want %q", goosArch, got, want)
		}
	}
	_, err := Install(t.Context(), Options{Getenv: env(t.TempDir(), ""), GOOS: "linux", GOARCH: "arm64"})
	if err == nil || !strings.Contains(err.Error(), "no build for linux-arm64") || !strings.Contains(err.Error(), "apt-get install chromium") {
		t.Errorf("linux-arm64: %v", err)
	}
	_, err = Install(t.Context(), Options{Getenv: env(t.TempDir(), ""), Channel: "nightly", GOOS: "linux", GOARCH: "amd64"})
	if err == nil || !strings.Contains(err.Error(), "stable, beta, dev, canary") {
		t.Errorf("nightly: %v", err)
	}
}

func TestCacheDir(t *testing.T) {
	vars := map[string]string{"HOME": "/home/u", "XDG_CACHE_HOME": "/xdg", "LocalAppData": `C:\Users\u\AppData\Local`}
	getenv := func(k string) string { return vars[k] }
	for goos, want := range map[string]string{
		"linux":   filepath.Join("/xdg", "cdpskill", "chrome"),
		"darwin":  filepath.Join("/home/u", "Library", "Caches", "cdpskill", "chrome"),
		"windows": filepath.Join(`C:\Users\u\AppData\Local`, "cdpskill", "chrome"),
	} {
		if got, err := CacheDir(goos, getenv); err != nil || got != want {
			t.Errorf("%s: %q, %v; want %q", goos, got, err, want)
		}
	}
	vars["XDG_CACHE_HOME"] = "relative" // ignored, as os.UserCacheDir does
	if got, _ := CacheDir("linux", getenv); got != filepath.Join("/home/u", ".cache", "cdpskill", "chrome") {
		t.Errorf("relative XDG_CACHE_HOME: %q", got)
	}
	if _, err := CacheDir("linux", func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "HOME") {
		t.Errorf("no HOME: %v", err)
	}
}

// The newest build of the platform is found; a directory without a
// marker, or whose marker disagrees with it, is not a build.
func TestFindPicksTheNewest(t *testing.T) {
	home := t.TempDir()
	getenv := env(home, "")
	cache, _ := CacheDir("linux", getenv)
	fake := func(version, platform string, mutate func(*marker)) {
		dir := filepath.Join(cache, version+"-"+platform)
		exe := filepath.Join(dir, filepath.FromSlash(executableIn(platform)))
		os.MkdirAll(filepath.Dir(exe), 0o700)
		os.WriteFile(exe, []byte(chromeScript(version)), 0o700)
		m := marker{Version: version, Channel: "stable", Platform: platform, Executable: executableIn(platform)}
		if mutate != nil {
			mutate(&m)
		}
		data, _ := json.Marshal(m)
		os.WriteFile(filepath.Join(dir, markerName), data, 0o600)
	}
	fake("131.0.6778.9", "linux64", nil)
	fake("131.0.6778.10", "linux64", nil) // newer: 10 > 9
	fake("140.0.1.1", "mac-arm64", nil)   // another platform
	fake("150.0.1.1", "linux64", func(m *marker) { m.Version = "150.0.1.2" })
	fake("151.0.1.1", "linux64", func(m *marker) { m.Executable = "../../bin/sh" })
	os.MkdirAll(filepath.Join(cache, "160.0.1.1-linux64", "chrome-linux64"), 0o700) // no marker
	b := Find("linux", "amd64", getenv)
	if b == nil || b.Version != "131.0.6778.10" {
		t.Fatalf("Find: %+v", b)
	}
	if got := len(List("linux", getenv)); got != 3 {
		t.Errorf("List: %d builds, want 3", got)
	}
	if Find("linux", "arm64", getenv) != nil {
		t.Error("found a build for linux-arm64")
	}
	// Remove takes only the builds: a file of the user's stays, and so
	// does the directory holding it.
	os.WriteFile(filepath.Join(cache, "notes.txt"), []byte("mine"), 0o600)
	rm, err := Remove("linux", getenv)
	if err != nil || len(rm.Removed) != 3 {
		t.Fatalf("remove: %+v, %v", rm, err)
	}
	if left := entries(t, cache); !slices.Equal(left, []string{"150.0.1.1-linux64", "151.0.1.1-linux64", "160.0.1.1-linux64", "notes.txt"}) {
		t.Errorf("after Remove: %v", left)
	}
}

func TestIsVersion(t *testing.T) {
	for s, want := range map[string]bool{
		"131.0.6778.204": true, "999.0.1234.5": true,
		"1.2.3": false, "1.2.3.4.5": false, "a.b.c.d": false, "1..2.3": false,
		"../1.2.3": false, "1.2.3.4/": false, "1.2.3.-4": false, "1.2.3.1234567": false,
	} {
		if got := isVersion(s); got != want {
			t.Errorf("isVersion(%q) = %v", s, got)
		}
	}
}
