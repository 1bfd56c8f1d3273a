// Package cft fetches Chrome for Testing, the builds of Chrome Google
// publishes for automation, for `cdpskill install --browser`, and finds
// the one it cached, which package chrome launches when the machine has no
// Chrome of its own (REQ-BT-007).
//
// The official index (last-known-good-versions-with-downloads.json) names
// a zip per channel and platform. Install downloads it, checks it, unpacks
// it into a staging directory and moves that whole into the user's cache
// directory, cdpskill/chrome/<version>-<platform>/, with a marker
// (cdpskill-cft.json: the version, the URL, the archive's SHA-256, when),
// so a build directory is either complete and checked or absent.
//
// What "verified" means: the index publishes no checksums (Google holds
// that HTTPS from its own storage is the guarantee), so there is nothing
// signed to compare with. A build is kept only when it came over HTTPS
// from Google's storage (unless CDPSKILL_CFT_INDEX names a mirror, which
// is then trusted instead), arrived whole (the length the server said,
// and the MD5 and CRC32C the storage reports in x-goog-hash when it does),
// every file in the zip matches its CRC-32, the zip holds only the
// platform's one top directory with no path out of it and no link
// pointing out, and the unpacked Chrome runs and reports, for --version,
// the version the index named. The SHA-256 recorded is one cdpskill
// computed, for comparing machines, not one anyone published.
package cft

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/internal/private"
)

// DefaultIndex is the official index of the newest build per channel.
const DefaultIndex = "https://googlechromelabs.github.io/chrome-for-testing/last-known-good-versions-with-downloads.json"

// IndexEnv names another index, of the same shape: a local stand-in in
// tests, or a mirror on a network that cannot reach Google's storage. A
// mirror's downloads are trusted as the official ones are; the checks on
// the archive and on the version Chrome reports still apply.
const IndexEnv = "CDPSKILL_CFT_INDEX"

// officialHost is where the official index's downloads are; a download
// elsewhere is refused unless IndexEnv names the index.
const officialHost = "storage.googleapis.com"

// markerName is the file in a build directory saying what it holds. It is
// written last, inside the staging directory, so a build directory
// without one is not cdpskill's.
const markerName = "cdpskill-cft.json"

// Build is a cached Chrome for Testing.
type Build struct {
	Version  string `json:"version"`
	Channel  string `json:"channel"`
	Platform string `json:"platform"`
	// Dir is the build's directory; Executable the Chrome in it.
	Dir        string `json:"dir"`
	Executable string `json:"executable"`
}

// marker is markerName's content.
type marker struct {
	Version  string `json:"version"`
	Channel  string `json:"channel"`
	Platform string `json:"platform"`
	// Executable is the Chrome, relative to the build directory, with
	// forward slashes.
	Executable string    `json:"executable"`
	URL        string    `json:"url"`
	Index      string    `json:"index"`
	SHA256     string    `json:"sha256"`
	Bytes      int64     `json:"bytes"`
	Installed  time.Time `json:"installed"`
}

// Platform is Chrome for Testing's name for goos/goarch, "" where it
// publishes no build (Linux on ARM). Windows on ARM runs the x64 build.
func Platform(goos, goarch string) string {
	switch goos + "/" + goarch {
	case "linux/amd64":
		return "linux64"
	case "darwin/arm64":
		return "mac-arm64"
	case "darwin/amd64":
		return "mac-x64"
	case "windows/amd64", "windows/arm64":
		return "win64"
	case "windows/386":
		return "win32"
	}
	return ""
}

// NoBuildError is a platform Chrome for Testing has no build for.
type NoBuildError struct{ GOOS, GOARCH string }

func (e *NoBuildError) Error() string {
	return fmt.Sprintf("Chrome for Testing has no build for %s-%s (Google publishes none); install Chromium from the system's packages (Debian/Ubuntu: apt-get install chromium) or set CHROME_PATH to a Chrome",
		e.GOOS, e.GOARCH)
}

// executableIn is where a platform's zip holds Chrome.
func executableIn(platform string) string {
	top := "chrome-" + platform
	switch {
	case strings.HasPrefix(platform, "mac-"):
		return top + "/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing"
	case strings.HasPrefix(platform, "win"):
		return top + "/chrome.exe"
	}
	return top + "/chrome"
}

// CacheDir is where builds are cached, cdpskill/chrome in the user's cache
// directory as os.UserCacheDir finds it, but from getenv, so tests and
// each process's environment decide.
func CacheDir(goos string, getenv func(string) string) (string, error) {
	var base string
	switch goos {
	case "windows":
		base = getenv("LocalAppData")
		if base == "" {
			base = getenv("LOCALAPPDATA")
		}
	case "darwin", "ios":
		if h := getenv("HOME"); h != "" {
			base = filepath.Join(h, "Library", "Caches")
		}
	default:
		base = getenv("XDG_CACHE_HOME")
		if !filepath.IsAbs(base) {
			base = ""
			if h := getenv("HOME"); h != "" {
				base = filepath.Join(h, ".cache")
			}
		}
	}
	if base == "" {
		return "", errors.New("cannot find the user's cache directory for Chrome for Testing: set HOME (or XDG_CACHE_HOME; LocalAppData on Windows)")
	}
	return filepath.Join(base, "cdpskill", "chrome"), nil
}

// buildName is a build's directory name in the cache.
func buildName(version, platform string) string { return version + "-" + platform }

// isVersion reports whether s is a Chrome version, four numbers joined by
// dots (131.0.6778.204): it becomes a directory name, so nothing else may.
// By hand rather than a regexp, which every call would compile at start,
// as package chrome imports this one.
func isVersion(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		if p == "" || len(p) > 6 || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}

// compareVersions orders dotted versions numerically; both are checked
// with isVersion first.
func compareVersions(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := range min(len(as), len(bs)) {
		x, _ := strconv.Atoi(as[i])
		y, _ := strconv.Atoi(bs[i])
		if c := cmp.Compare(x, y); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(as), len(bs))
}

// Find is the newest cached build for goos/goarch, nil when there is none
// (or no cache directory, or no build for the platform). A directory
// whose marker is missing, unreadable or names an executable that is not
// there is skipped: it is not a build cdpskill finished.
func Find(goos, goarch string, getenv func(string) string) *Build {
	platform := Platform(goos, goarch)
	if platform == "" {
		return nil
	}
	dir, err := CacheDir(goos, getenv)
	if err != nil {
		return nil
	}
	builds := list(dir)
	builds = slices.DeleteFunc(builds, func(b *Build) bool { return b.Platform != platform })
	if len(builds) == 0 {
		return nil
	}
	return slices.MaxFunc(builds, func(a, b *Build) int { return compareVersions(a.Version, b.Version) })
}

// list is every finished build in the cache directory, of any platform.
func list(dir string) []*Build {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []*Build
	for _, e := range entries {
		if b := readBuild(filepath.Join(dir, e.Name())); b != nil {
			out = append(out, b)
		}
	}
	return out
}

// readBuild is the build in dir, nil when dir is not one cdpskill
// finished: its marker must agree with its name and its Chrome be there.
func readBuild(dir string) *Build {
	m, err := readMarker(dir)
	if err != nil || !isVersion(m.Version) ||
		filepath.Base(dir) != buildName(m.Version, m.Platform) || m.Executable != executableIn(m.Platform) {
		return nil
	}
	exe := filepath.Join(dir, filepath.FromSlash(m.Executable))
	if st, err := os.Stat(exe); err != nil || !st.Mode().IsRegular() {
		return nil
	}
	return &Build{Version: m.Version, Channel: m.Channel, Platform: m.Platform, Dir: dir, Executable: exe}
}

func readMarker(dir string) (*marker, error) {
	data, err := private.ReadFile(filepath.Join(dir, markerName), 64<<10)
	if err != nil {
		return nil, err
	}
	var m marker
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// Owner is the cached build path is the Chrome of, nil when it is not
// one: what chromeStatus says of the Chrome it names.
func Owner(goos string, getenv func(string) string, path string) *Build {
	dir, err := CacheDir(goos, getenv)
	if err != nil || path == "" {
		return nil
	}
	rel, err := filepath.Rel(dir, filepath.Clean(path))
	if err != nil || !filepath.IsLocal(rel) {
		return nil
	}
	name, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
	b := readBuild(filepath.Join(dir, name))
	if b == nil || b.Executable != filepath.Join(dir, rel) {
		return nil
	}
	return b
}

// Size is how many bytes the files under dir hold.
func Size(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// List is every cached build, of any platform, oldest first.
func List(goos string, getenv func(string) string) []*Build {
	dir, err := CacheDir(goos, getenv)
	if err != nil {
		return nil
	}
	builds := list(dir)
	slices.SortFunc(builds, func(a, b *Build) int { return compareVersions(a.Version, b.Version) })
	return builds
}

// Removed is what Remove took out of the cache.
type Removed struct {
	Dir     string   `json:"dir"`
	Removed []string `json:"removed"` // the builds' directories
	Bytes   int64    `json:"bytes"`
}

// Remove deletes every cached build and what an install that was killed
// left, then the cache directory if nothing else is in it. Only what
// cdpskill made goes: a build's directory with its marker, a staging
// directory. A Chrome still running from a build should be closed first.
func Remove(goos string, getenv func(string) string) (*Removed, error) {
	dir, err := CacheDir(goos, getenv)
	if err != nil {
		return nil, err
	}
	r := &Removed{Dir: dir, Removed: []string{}}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		staging := strings.HasPrefix(e.Name(), ".staging-") && e.IsDir()
		if !staging && readBuild(p) == nil {
			continue
		}
		size := Size(p)
		if err := os.RemoveAll(p); err != nil {
			return r, fmt.Errorf("cannot remove %s: %w (is a Chrome still running from it?)", p, err)
		}
		r.Bytes += size
		if !staging {
			r.Removed = append(r.Removed, p)
		}
	}
	if os.Remove(dir) == nil { // only when empty
		os.Remove(filepath.Dir(dir))
	}
	return r, nil
}
