package cft

import (
	"cmp"
	"context"
	"crypto/md5"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cdpskill/cdpskill/internal/private"
)

// Channels are the index's channels, as --channel names them.
var Channels = []string{"stable", "beta", "dev", "canary"}

// Options say which build to install and how.
type Options struct {
	// Getenv reads IndexEnv and the cache directory's variables.
	Getenv func(string) string
	// Channel is one of Channels; "" is stable.
	Channel string
	// Progress gets a line now and then while the download runs (stderr);
	// nil says nothing.
	Progress io.Writer
	// GOOS and GOARCH pick the platform; "" is this one's. Tests only.
	GOOS, GOARCH string
}

// Result is what Install did.
type Result struct {
	// Action is "downloaded", or "cached" when the channel's build was
	// there already.
	Action     string `json:"action"`
	Version    string `json:"version"`
	Channel    string `json:"channel"`
	Platform   string `json:"platform"`
	Executable string `json:"executable"`
	Dir        string `json:"dir"`
	URL        string `json:"url,omitempty"`
	// SHA256 is the archive's, as cdpskill computed it.
	SHA256 string `json:"sha256,omitempty"`
	Bytes  int64  `json:"bytes,omitempty"`
	// Verified lists the checks the build passed.
	Verified []string `json:"verified,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
}

// Bounds on an install. A build is about 150 MB zipped and 400 MB
// unpacked; the limits leave room for growth and stop a runaway server or
// a zip bomb long before the disk fills.
var (
	indexWait    = 15 * time.Second
	installWait  = 30 * time.Minute
	stallWait    = 60 * time.Second
	versionWait  = 60 * time.Second
	maxIndex     = int64(4 << 20)
	maxArchive   = int64(1 << 30)
	maxUnpacked  = int64(3 << 30)
	maxEntries   = 20000
	staleStaging = 2 * installWait // older than any install still running
)

// downloadClient reaches the index and the storage: through the
// environment's proxy, as a download on a corporate network must, each
// step bounded; the whole transfer is bounded by Install's context and
// the stall timer.
var downloadClient = &http.Client{
	Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout:   30 * time.Second,
		ResponseHeaderTimeout: 60 * time.Second,
	},
	CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return errors.New("too many redirects")
		}
		return checkScheme(req.URL)
	},
}

// Install makes the channel's newest build for this platform available in
// the cache: the one there already, or one downloaded and checked (see
// the package comment). On any failure nothing of the attempt is left.
func Install(ctx context.Context, o Options) (*Result, error) {
	if o.Getenv == nil {
		o.Getenv = func(string) string { return "" }
	}
	goos, goarch := cmp.Or(o.GOOS, runtime.GOOS), cmp.Or(o.GOARCH, runtime.GOARCH)
	platform := Platform(goos, goarch)
	if platform == "" {
		return nil, &NoBuildError{GOOS: goos, GOARCH: goarch}
	}
	channel := strings.ToLower(cmp.Or(o.Channel, "stable"))
	if !slices.Contains(Channels, channel) {
		return nil, fmt.Errorf("unknown channel %q: use one of %s", o.Channel, strings.Join(Channels, ", "))
	}
	cache, err := CacheDir(goos, o.Getenv)
	if err != nil {
		return nil, err
	}
	indexURL := cmp.Or(o.Getenv(IndexEnv), DefaultIndex)
	in := &installer{cache: cache, platform: platform, channel: channel, indexURL: indexURL,
		mirror: indexURL != DefaultIndex, progress: o.Progress}
	ctx, cancel := context.WithTimeout(ctx, installWait)
	defer cancel()
	return in.run(ctx)
}

// installer is one Install.
type installer struct {
	cache, platform, channel, indexURL string
	mirror                             bool // indexURL is not DefaultIndex
	progress                           io.Writer
}

func (in *installer) run(ctx context.Context) (*Result, error) {
	rel, err := in.release(ctx)
	if err != nil {
		if b := in.cachedChannel(); b != nil { // offline, with a build: use it
			r := in.cachedResult(b)
			r.Warnings = append(r.Warnings, fmt.Sprintf("%v; kept the cached build, which may not be the channel's newest", err))
			return r, nil
		}
		return nil, err
	}
	final := filepath.Join(in.cache, buildName(rel.version, in.platform))
	if b := readBuild(final); b != nil {
		return in.cachedResult(b), nil
	}
	if err := private.Dir(in.cache); err != nil {
		return nil, err
	}
	in.sweep()
	staging, err := os.MkdirTemp(in.cache, ".staging-"+buildName(rel.version, in.platform)+"-")
	if err != nil {
		return nil, fmt.Errorf("cannot write in the cache directory %s: %w", in.cache, err)
	}
	defer os.RemoveAll(staging) // gone by now when it became the build
	r, err := in.fetch(ctx, rel, staging)
	if err != nil {
		return nil, err
	}
	if err := land(staging, final); err != nil {
		return nil, err
	}
	r.Dir, r.Executable = final, filepath.Join(final, filepath.FromSlash(executableIn(in.platform)))
	in.say("Chrome for Testing %s is in %s", rel.version, final)
	return r, nil
}

// cachedChannel is the newest cached build of the channel asked for.
func (in *installer) cachedChannel() *Build {
	var best *Build
	for _, b := range list(in.cache) {
		if b.Platform == in.platform && b.Channel == in.channel &&
			(best == nil || compareVersions(b.Version, best.Version) > 0) {
			best = b
		}
	}
	return best
}

func (in *installer) cachedResult(b *Build) *Result {
	return &Result{Action: "cached", Version: b.Version, Channel: b.Channel, Platform: b.Platform,
		Executable: b.Executable, Dir: b.Dir}
}

// land moves the finished staging directory to its place, the one step
// that makes the build visible. Another install that landed the same
// build first wins, and this one's copy goes.
func land(staging, final string) error {
	err := os.Rename(staging, final)
	if err == nil || readBuild(final) != nil {
		return nil
	}
	if _, serr := os.Lstat(final); serr == nil {
		// Not a finished build (a copy made by hand, a marker lost): it is
		// in cdpskill's own directory, under the build's name, so it goes.
		if rerr := os.RemoveAll(final); rerr == nil {
			err = os.Rename(staging, final)
		}
	}
	if err != nil {
		return fmt.Errorf("cannot move the build into %s: %w", final, err)
	}
	return nil
}

// sweep removes staging directories an install that was killed left,
// old enough that no install still running can own them.
func (in *installer) sweep() {
	entries, _ := os.ReadDir(in.cache)
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".staging-") {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleStaging {
			os.RemoveAll(filepath.Join(in.cache, e.Name()))
		}
	}
}

// release is the channel's build for the platform, as the index names it.
type release struct{ version, url string }

// index is the part of last-known-good-versions-with-downloads.json read.
type index struct {
	Channels map[string]struct {
		Version   string `json:"version"`
		Downloads struct {
			Chrome []struct {
				Platform string `json:"platform"`
				URL      string `json:"url"`
			} `json:"chrome"`
		} `json:"downloads"`
	} `json:"channels"`
}

func (in *installer) release(ctx context.Context) (*release, error) {
	u, err := url.Parse(in.indexURL)
	if err != nil || checkScheme(u) != nil {
		return nil, fmt.Errorf("%s=%q is not an https:// URL (http:// only on this machine)", IndexEnv, in.indexURL)
	}
	ctx, cancel := context.WithTimeout(ctx, indexWait)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, in.indexURL, nil)
	resp, err := downloadClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("cannot reach the Chrome for Testing index %s: %v (check the network, or HTTPS_PROXY; %s names a mirror)",
			in.indexURL, unwrapURL(err), IndexEnv)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("the Chrome for Testing index %s answered HTTP %d", in.indexURL, resp.StatusCode)
	}
	var idx index
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxIndex))
	if err == nil {
		err = json.Unmarshal(data, &idx)
	}
	if err != nil {
		return nil, fmt.Errorf("the Chrome for Testing index %s is not the index's JSON: %v", in.indexURL, err)
	}
	return in.pick(&idx)
}

// pick finds the platform's download in the channel and checks what will
// become a directory name and a request.
func (in *installer) pick(idx *index) (*release, error) {
	name := strings.ToUpper(in.channel[:1]) + in.channel[1:]
	ch, ok := idx.Channels[name]
	if !ok {
		return nil, fmt.Errorf("the Chrome for Testing index %s has no %s channel", in.indexURL, name)
	}
	if !isVersion(ch.Version) {
		return nil, fmt.Errorf("the Chrome for Testing index %s gives the %s channel the version %q, not a Chrome version", in.indexURL, name, ch.Version)
	}
	for _, d := range ch.Downloads.Chrome {
		if d.Platform == in.platform {
			if err := in.checkDownload(d.URL); err != nil {
				return nil, err
			}
			return &release{version: ch.Version, url: d.URL}, nil
		}
	}
	return nil, fmt.Errorf("the Chrome for Testing index %s has no %s build of %s %s", in.indexURL, in.platform, name, ch.Version)
}

// checkDownload refuses a download that is not an https:// zip of the
// platform's name on Google's storage (on any host when a mirror's index
// named it).
func (in *installer) checkDownload(raw string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil || checkScheme(u) != nil:
		return fmt.Errorf("the Chrome for Testing index names the download %q, which is not an https:// URL; refusing it", raw)
	case !in.mirror && u.Hostname() != officialHost:
		return fmt.Errorf("the Chrome for Testing index names a download on %s, not Google's storage (%s); refusing it", u.Hostname(), officialHost)
	case path.Base(u.Path) != "chrome-"+in.platform+".zip":
		return fmt.Errorf("the Chrome for Testing index names the download %s, not a chrome-%s.zip; refusing it", raw, in.platform)
	}
	return nil
}

// checkScheme allows https, and http on this machine only (a stand-in of
// the index in tests, a mirror on localhost).
func checkScheme(u *url.URL) error {
	if u.Scheme == "https" && u.Host != "" {
		return nil
	}
	if u.Scheme == "http" {
		if ip := net.ParseIP(u.Hostname()); (ip != nil && ip.IsLoopback()) || u.Hostname() == "localhost" {
			return nil
		}
	}
	return fmt.Errorf("%s is not an https:// URL", u.Redacted())
}

// unwrapURL drops url.Error's repetition of the method and URL.
func unwrapURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// fetch downloads, checks and unpacks the release into staging, and
// writes its marker there.
func (in *installer) fetch(ctx context.Context, rel *release, staging string) (*Result, error) {
	in.say("downloading Chrome for Testing %s (%s, %s) from %s", rel.version, in.channel, in.platform, rel.url)
	archive := filepath.Join(staging, ".archive.zip")
	dl, err := in.download(ctx, rel.url, archive)
	if err != nil {
		return nil, err
	}
	in.say("unpacking %d MB", dl.bytes>>20)
	if err := unzip(archive, staging, in.platform); err != nil {
		return nil, fmt.Errorf("the Chrome for Testing archive %s is refused: %w; nothing was kept", rel.url, err)
	}
	os.Remove(archive)
	exe := filepath.Join(staging, filepath.FromSlash(executableIn(in.platform)))
	in.say("checking that it runs")
	if err := checkRuns(ctx, exe, rel.version); err != nil {
		return nil, err
	}
	m := marker{Version: rel.version, Channel: in.channel, Platform: in.platform, Executable: executableIn(in.platform),
		URL: rel.url, Index: in.indexURL, SHA256: dl.sha256, Bytes: dl.bytes, Installed: time.Now().UTC().Truncate(time.Second)}
	data, _ := json.MarshalIndent(m, "", "  ")
	if err := private.WriteFileSync(filepath.Join(staging, markerName), append(data, '\n')); err != nil {
		return nil, err
	}
	verified := append(dl.verified, "zip: one chrome-"+in.platform+" directory, every file's CRC-32, no path or link out of it",
		"runs: --version reports "+rel.version)
	return &Result{Action: "downloaded", Version: rel.version, Channel: in.channel, Platform: in.platform,
		URL: rel.url, SHA256: dl.sha256, Bytes: dl.bytes, Verified: verified}, nil
}

// downloaded is what download checked.
type downloaded struct {
	bytes    int64
	sha256   string
	verified []string
}

// download writes rawURL's body to file, bounded in size and in time (it
// fails once no byte came for stallWait), and checks it arrived whole.
func (in *installer) download(ctx context.Context, rawURL, file string) (*downloaded, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var stalled atomic.Bool
	stall := time.AfterFunc(stallWait, func() { stalled.Store(true); cancel() })
	defer stall.Stop()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	req.Header.Set("Accept-Encoding", "identity") // the bytes the storage's hashes are of
	resp, err := downloadClient.Do(req)
	if err != nil {
		return nil, in.downloadError(rawURL, err, stalled.Load())
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("downloading %s: HTTP %d", rawURL, resp.StatusCode)
	}
	if resp.ContentLength > maxArchive {
		return nil, fmt.Errorf("downloading %s: the server says it is %d MB, more than the %d MB a Chrome for Testing archive can be; refusing it",
			rawURL, resp.ContentLength>>20, maxArchive>>20)
	}
	f, err := private.OpenFile(file, os.O_CREATE|os.O_EXCL|os.O_WRONLY)
	if err != nil {
		return nil, err
	}
	sum, md, crc := sha256.New(), md5.New(), crc32.New(crc32.MakeTable(crc32.Castagnoli))
	body := &progressReader{r: io.LimitReader(resp.Body, maxArchive+1), total: resp.ContentLength,
		onRead: func() { stall.Reset(stallWait) }, say: in.say}
	n, err := io.Copy(io.MultiWriter(f, sum, md, crc), body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, in.downloadError(rawURL, err, stalled.Load())
	}
	from := "from " + origin(rawURL)
	if in.mirror {
		from += ", which the mirror's index names (" + IndexEnv + "=" + in.indexURL + ")"
	}
	dl := &downloaded{bytes: n, sha256: hex.EncodeToString(sum.Sum(nil)), verified: []string{from}}
	if err := dl.checkWhole(resp, md, crc); err != nil {
		return nil, fmt.Errorf("downloading %s: %w; nothing was kept, run it again", rawURL, err)
	}
	return dl, nil
}

// checkWhole compares what arrived with the length the server announced
// and the hashes Google's storage reports (x-goog-hash: md5=…, crc32c=…).
func (dl *downloaded) checkWhole(resp *http.Response, md, crc hash.Hash) error {
	switch {
	case dl.bytes > maxArchive:
		return fmt.Errorf("more than %d MB arrived", maxArchive>>20)
	case resp.ContentLength >= 0 && dl.bytes != resp.ContentLength:
		return fmt.Errorf("%d of %d bytes arrived (truncated)", dl.bytes, resp.ContentLength)
	case resp.ContentLength >= 0:
		dl.verified = append(dl.verified, fmt.Sprintf("size: %d bytes, as announced", dl.bytes))
	}
	for _, v := range resp.Header.Values("X-Goog-Hash") {
		for _, kv := range strings.Split(v, ",") {
			k, want, _ := strings.Cut(strings.TrimSpace(kv), "=")
			var got []byte
			switch k {
			case "md5":
				got = md.Sum(nil)
			case "crc32c":
				got = binary.BigEndian.AppendUint32(nil, crc.(hash.Hash32).Sum32())
			default:
				continue
			}
			if base64.StdEncoding.EncodeToString(got) != want {
				return fmt.Errorf("its %s is not the %s the storage reports (corrupted on the way)", k, want)
			}
			dl.verified = append(dl.verified, k+": as the storage reports (x-goog-hash)")
		}
	}
	return nil
}

func (in *installer) downloadError(rawURL string, err error, stalled bool) error {
	switch {
	case stalled:
		return fmt.Errorf("downloading %s: no data came for %s; nothing was kept, run it again", rawURL, stallWait)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("downloading %s: not done within %s; nothing was kept", rawURL, installWait)
	}
	return fmt.Errorf("downloading %s: %v; nothing was kept, run it again", rawURL, unwrapURL(err))
}

// origin is a URL's scheme and host: what the transfer's safety rests on.
func origin(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Scheme + "://" + u.Host
	}
	return raw
}

// say writes a progress line.
func (in *installer) say(format string, args ...any) {
	if in.progress != nil {
		fmt.Fprintf(in.progress, "cdpskill: "+format+"\n", args...)
	}
}

// progressReader tells each tenth of the download, or each 16 MB when
// the size is unknown: a few lines an agent's log can hold, not a bar.
type progressReader struct {
	r      io.Reader
	total  int64
	n      int64
	told   int64
	onRead func()
	say    func(string, ...any)
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if n > 0 {
		p.onRead()
		p.n += int64(n)
		p.tell()
	}
	return n, err
}

func (p *progressReader) tell() {
	if p.total > 0 {
		if step := p.n * 10 / p.total; step > p.told {
			p.told = step
			p.say("%d of %d MB (%d%%)", p.n>>20, p.total>>20, step*10)
		}
		return
	}
	if step := p.n >> 24; step > p.told {
		p.told = step
		p.say("%d MB", p.n>>20)
	}
}

// checkRuns runs the unpacked Chrome with --version and wants the
// version the index named. Chrome on Windows prints nothing for
// --version, so there the version's assembly manifest beside chrome.exe
// (<version>.manifest), which Chrome's layout has, stands in for it.
func checkRuns(ctx context.Context, exe, version string) error {
	if strings.HasSuffix(exe, ".exe") {
		if st, err := os.Stat(filepath.Join(filepath.Dir(exe), version+".manifest")); err != nil || !st.Mode().IsRegular() {
			return fmt.Errorf("the unpacked Chrome for Testing has no %s.manifest beside chrome.exe: not the build the index named; nothing was kept", version)
		}
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, versionWait)
	defer cancel()
	var stderr strings.Builder
	cmd := exec.CommandContext(ctx, exe, "--version")
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("the downloaded Chrome for Testing does not run here (%v: %s); it needs the libraries Chrome needs (Debian/Ubuntu: apt-get install chromium brings them, and a Chromium cdpskill then uses); nothing was kept",
			err, tail(stderr.String()))
	}
	if !slices.Contains(strings.Fields(string(out)), version) {
		return fmt.Errorf("the downloaded Chrome reports %q for --version, not the %s the index named; nothing was kept", tail(string(out)), version)
	}
	return nil
}

func tail(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 300 {
		s = "…" + s[len(s)-300:]
	}
	return s
}
