package runner_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The tests of downloads do not run in parallel with other tests: where
// Chrome saves a download, and to whom it tells of one, is the browser's
// (Browser.setDownloadBehavior), and each call that ends puts it back to
// Chrome's default. Each call renews it before a step, as agents side by
// side need, but a test that checks where its download landed and that
// it is listed must not meet thirty other calls ending around it.

// slowFirst is what /dl/slow.bin sends before it waits to be released.
const slowFirst = 64 << 10

// downloadServer serves testdata and, under /dl/<name>, attachments: the
// body is the "body" query parameter. /dl/slow.bin sends slowFirst bytes
// of its Content-Length and waits for release to be closed. gate, when
// set, runs when /gate is asked for, before it answers.
type downloadServer struct {
	*httptest.Server
	release chan struct{}
	gate    func()
}

func newDownloadServer(t *testing.T) *downloadServer {
	s := &downloadServer{release: make(chan struct{})}
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir("testdata")))
	mux.HandleFunc("/dl/slow.bin", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Disposition", `attachment; filename="slow.bin"`)
		w.Header().Set("Content-Length", fmt.Sprint(2*slowFirst))
		w.Write(make([]byte, slowFirst))
		w.(http.Flusher).Flush()
		select {
		case <-s.release:
			w.Write(make([]byte, slowFirst))
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/dl/broken.bin", func(w http.ResponseWriter, r *http.Request) {
		// Promises more than it sends, then hangs up.
		w.Header().Set("Content-Disposition", `attachment; filename="broken.bin"`)
		w.Header().Set("Content-Length", "100000")
		w.Write(make([]byte, 1000))
		w.(http.Flusher).Flush()
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			conn.Close()
		}
	})
	mux.HandleFunc("/dl/", func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/dl/")
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name))
		w.Write([]byte(r.URL.Query().Get("body")))
	})
	mux.HandleFunc("/gate", func(w http.ResponseWriter, r *http.Request) {
		if s.gate != nil {
			s.gate()
		}
		w.Write([]byte("open"))
	})
	s.Server = httptest.NewServer(mux)
	t.Cleanup(func() {
		s.unblock()
		s.Close()
	})
	return s
}

func (s *downloadServer) unblock() {
	select {
	case <-s.release:
	default:
		close(s.release)
	}
}

// downloadsOf returns the downloads step i reported.
func downloadsOf(t *testing.T, res map[string]any, i int) []map[string]any {
	t.Helper()
	steps := stepOutputs(t, res)
	if i >= len(steps) {
		t.Fatalf("no step %d: %v", i, res)
	}
	var out []map[string]any
	raw, _ := steps[i]["downloads"].([]any)
	for _, d := range raw {
		out = append(out, d.(map[string]any))
	}
	return out
}

// bothWays runs a download test as a call without a keeper makes it,
// setting the download settings on its own connection, and as one with a
// keeper (the binary's), which holds them and brings the events
// (keeper.Relay) to a call over its tab's own websocket.
func bothWays(t *testing.T, test func(t *testing.T, newCLI func(testing.TB) *cli)) {
	t.Run("direct", func(t *testing.T) { test(t, newCLI) })
	t.Run("keeper", func(t *testing.T) {
		test(t, func(tb testing.TB) *cli { return newCLI(tb).withKeeper() })
	})
}

// checkSaved checks that d is a completed download saved as name in c's
// downloads directory, holding body.
func checkSaved(t *testing.T, c *cli, d map[string]any, name, body string) {
	t.Helper()
	want := filepath.Join(c.tmp, "cdp-skill", "downloads", name)
	if d["state"] != "completed" || d["filename"] != name || d["path"] != want || d["bytes"] != float64(len(body)) {
		t.Fatalf("download: %v, want %s completed with %d bytes", d, want, len(body))
	}
	got, err := os.ReadFile(want)
	if err != nil || string(got) != body {
		t.Fatalf("%s holds %q (%v), want %q", want, got, err, body)
	}
}

func TestDownloadAttachmentLinkAndSameName(t *testing.T) {
	bothWays(t, func(t *testing.T, newCLI func(testing.TB) *cli) {
		srv := newDownloadServer(t)
		c := newCLI(t)
		tab := c.openTab(srv.URL + "/downloads.html")
		res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#attachment"}]}`, tab))
		if code != 0 {
			t.Fatalf("%v", res)
		}
		dls := downloadsOf(t, res, 0)
		if len(dls) != 1 {
			t.Fatalf("want one download, got %v", res["steps"])
		}
		checkSaved(t, c, dls[0], "report.csv", "first")
		if !strings.HasSuffix(dls[0]["url"].(string), "/dl/report.csv?body=first") {
			t.Errorf("url: %v", dls[0]["url"])
		}
		if res["navigated"] == true {
			t.Errorf("a download is not a navigation: %v", res)
		}

		// The same name again: a new file, the first one untouched.
		res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#again"}]}`, tab))
		if code != 0 {
			t.Fatalf("%v", res)
		}
		dls = downloadsOf(t, res, 0)
		if len(dls) != 1 {
			t.Fatalf("want one download, got %v", res["steps"])
		}
		checkSaved(t, c, dls[0], "report (1).csv", "second")
		if got, _ := os.ReadFile(filepath.Join(c.tmp, "cdp-skill", "downloads", "report.csv")); string(got) != "first" {
			t.Errorf("the first report.csv was overwritten: %q", got)
		}
		leftovers, _ := filepath.Glob(filepath.Join(c.tmp, "cdp-skill", "downloads", "*-*-*-*"))
		if len(leftovers) != 0 {
			t.Errorf("files named by download id were left behind: %v", leftovers)
		}
	})
}

func TestDownloadBlobLink(t *testing.T) {
	bothWays(t, func(t *testing.T, newCLI func(testing.TB) *cli) {
		srv := newDownloadServer(t)
		c := newCLI(t)
		tab := c.openTab(srv.URL + "/downloads.html")
		res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#blob"}]}`, tab))
		if code != 0 {
			t.Fatalf("%v", res)
		}
		dls := downloadsOf(t, res, 0)
		if len(dls) != 1 {
			t.Fatalf("want one download, got %v", res["steps"])
		}
		checkSaved(t, c, dls[0], "made.csv", "name,qty\napples,3\n")
		if !strings.HasPrefix(dls[0]["url"].(string), "blob:") {
			t.Errorf("url: %v", dls[0]["url"])
		}
	})
}

func TestGotoAttachment(t *testing.T) {
	bothWays(t, func(t *testing.T, newCLI func(testing.TB) *cli) {
		srv := newDownloadServer(t)
		c := newCLI(t)
		tab := c.openTab(srv.URL + "/downloads.html")
		res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"goto":%q}]}`, tab, srv.URL+"/dl/data.json?body=%7B%7D"))
		if code != 0 {
			t.Fatalf("a goto to an attachment is a download, not an error: %v", res)
		}
		step := stepOutputs(t, res)[0]
		if out, _ := step["output"].(map[string]any); out["download"] != true {
			t.Errorf("goto output: %v", step)
		}
		dls := downloadsOf(t, res, 0)
		if len(dls) != 1 {
			t.Fatalf("want one download, got %v", step)
		}
		checkSaved(t, c, dls[0], "data.json", "{}")
		if ctx, _ := res["context"].(map[string]any); ctx["url"] != srv.URL+"/downloads.html" {
			t.Errorf("the tab stays where it was: %v", res["context"])
		}
	})
}

func TestDownloadOutlivesStep(t *testing.T) {
	bothWays(t, func(t *testing.T, newCLI func(testing.TB) *cli) {
		srv := newDownloadServer(t)
		c := newCLI(t)
		tab := c.openTab(srv.URL + "/downloads.html")
		// The step's time is for the download to begin, on a loaded
		// machine; it never ends before the test lets it.
		res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#slow","timeout":4000}]}`, tab))
		if code != 0 {
			t.Fatalf("an unfinished download does not fail the step: %v", res)
		}
		dls := downloadsOf(t, res, 0)
		if len(dls) != 1 {
			t.Fatalf("want one download, got %v", res["steps"])
		}
		d := dls[0]
		path, _ := d["path"].(string)
		dir := filepath.Join(c.tmp, "cdp-skill", "downloads")
		if d["state"] != "in-progress" || d["filename"] != "slow.bin" || d["totalBytes"] != float64(2*slowFirst) || filepath.Dir(path) != dir {
			t.Fatalf("download: %v", d)
		}
		if b, _ := d["bytes"].(float64); b > slowFirst {
			t.Errorf("bytes %v: more than was sent", b)
		}
		if w, _ := stepOutputs(t, res)[0]["warning"].(string); !strings.Contains(w, "still in progress") || !strings.Contains(w, path) {
			t.Errorf("warning: %q", w)
		}
		// Chrome finishes it where the report said, after the call.
		srv.unblock()
		deadline := time.Now().Add(10 * time.Second)
		for {
			fi, err := os.Stat(path)
			if err == nil && fi.Size() == 2*slowFirst {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s never held the whole file: %v %v", path, fi, err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
}

func TestDownloadsOfAnotherTabAreNotListed(t *testing.T) {
	bothWays(t, func(t *testing.T, newCLI func(testing.TB) *cli) {
		srv := newDownloadServer(t)
		mine, theirs := newCLI(t), newCLI(t)
		tab := mine.openTab(srv.URL + "/downloads.html")
		other := theirs.openTab(srv.URL + "/downloads.html")
		// While this call's first step waits on /gate, another agent
		// downloads in its own tab, and its call ends.
		var otherRes map[string]any
		srv.gate = func() {
			otherRes, _ = theirs.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#blob"}]}`, other))
		}
		res, code := mine.run(fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"() => fetch('/gate').then(r => r.text())"},{"click":"#attachment"}]}`, tab))
		if code != 0 {
			t.Fatalf("%v", res)
		}
		if dls := downloadsOf(t, otherRes, 0); len(dls) != 1 {
			t.Fatalf("the other agent's call must list its download: %v", otherRes)
		} else {
			checkSaved(t, theirs, dls[0], "made.csv", "name,qty\napples,3\n")
		}
		if dls := downloadsOf(t, res, 0); len(dls) != 0 {
			t.Errorf("another tab's download was listed: %v", dls)
		}
		dls := downloadsOf(t, res, 1)
		if len(dls) != 1 {
			t.Fatalf("want this tab's one download, got %v", res["steps"])
		}
		checkSaved(t, mine, dls[0], "report.csv", "first")
		if _, err := os.Stat(filepath.Join(mine.tmp, "cdp-skill", "downloads", "made.csv")); err == nil {
			t.Errorf("the other tab's file landed in this call's downloads")
		}
	})
}

// A target=_blank link to an attachment opens a tab that downloads and
// closes: the download is the click's.
func TestDownloadInNewTab(t *testing.T) {
	bothWays(t, func(t *testing.T, newCLI func(testing.TB) *cli) {
		srv := newDownloadServer(t)
		c := newCLI(t)
		tab := c.openTab(srv.URL + "/downloads.html")
		res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#blank"}]}`, tab))
		if code != 0 {
			t.Fatalf("%v", res)
		}
		dls := downloadsOf(t, res, 0)
		if len(dls) != 1 {
			t.Fatalf("want one download, got %v", res["steps"])
		}
		checkSaved(t, c, dls[0], "blank.txt", "blank")
		// Chrome closed the tab it opened for the download: no tab to report.
		if out, _ := stepOutputs(t, res)[0]["output"].(map[string]any); out["newTabs"] != nil {
			t.Errorf("a tab that only downloaded and closed was reported: %v", out)
		}
	})
}

// A button whose script opens a window on an attachment: the popup, not
// the tab, downloads, and Chrome tells only the popup's sessions and the
// browser's. The tab's own websocket hears the popup only once it exists,
// too late to follow a download its first response begins.
func TestDownloadInScriptOpenedTab(t *testing.T) {
	bothWays(t, func(t *testing.T, newCLI func(testing.TB) *cli) {
		srv := newDownloadServer(t)
		c := newCLI(t)
		tab := c.openTab(srv.URL + "/downloads.html")
		res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#popup"}]}`, tab))
		if code != 0 {
			t.Fatalf("%v", res)
		}
		dls := downloadsOf(t, res, 0)
		if len(dls) != 1 {
			t.Fatalf("want one download, got %v", res["steps"])
		}
		checkSaved(t, c, dls[0], "popup.txt", "popup")
		if out, _ := stepOutputs(t, res)[0]["output"].(map[string]any); out["newTabs"] != nil {
			t.Errorf("a popup that only downloaded and closed was reported: %v", out)
		}
	})
}

// A script's click on a link in a frame of the tab downloads after the
// pageFunction returned: the download is still the step's.
func TestDownloadFromFrameByScript(t *testing.T) {
	bothWays(t, func(t *testing.T, newCLI func(testing.TB) *cli) {
		srv := newDownloadServer(t)
		c := newCLI(t)
		tab := c.openTab(srv.URL + "/downloads.html")
		res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"() => { document.querySelector('iframe').contentDocument.getElementById('inner').click() }"}]}`, tab))
		if code != 0 {
			t.Fatalf("%v", res)
		}
		dls := downloadsOf(t, res, 0)
		if len(dls) != 1 {
			t.Fatalf("want one download, got %v", res["steps"])
		}
		checkSaved(t, c, dls[0], "inner.txt", "inner")
	})
}

// The hidden-frame trick: a script adds an iframe whose address is the
// file. The frame is new and its navigation begins after the step.
func TestDownloadThroughHiddenFrame(t *testing.T) {
	bothWays(t, func(t *testing.T, newCLI func(testing.TB) *cli) {
		srv := newDownloadServer(t)
		c := newCLI(t)
		tab := c.openTab(srv.URL + "/downloads.html")
		res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"pageFunction":"() => { const f = document.createElement('iframe'); f.style.display = 'none'; f.src = '/dl/hidden.txt?body=hidden'; document.body.append(f) }"}]}`, tab))
		if code != 0 {
			t.Fatalf("%v", res)
		}
		dls := downloadsOf(t, res, 0)
		if len(dls) != 1 {
			t.Fatalf("want one download, got %v", res["steps"])
		}
		checkSaved(t, c, dls[0], "hidden.txt", "hidden")
	})
}

func TestDownloadCanceled(t *testing.T) {
	bothWays(t, func(t *testing.T, newCLI func(testing.TB) *cli) {
		srv := newDownloadServer(t)
		c := newCLI(t)
		tab := c.openTab(srv.URL + "/downloads.html")
		res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"goto":%q}]}`, tab, srv.URL+"/dl/broken.bin"))
		if code != 0 {
			t.Fatalf("%v", res)
		}
		dls := downloadsOf(t, res, 0)
		if len(dls) != 1 || dls[0]["state"] != "canceled" || dls[0]["filename"] != "broken.bin" || dls[0]["path"] != nil {
			t.Fatalf("downloads: %v", res["steps"])
		}
		if w, _ := stepOutputs(t, res)[0]["warning"].(string); !strings.Contains(w, "did not finish") {
			t.Errorf("warning: %q", w)
		}
	})
}
