package page_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/page"
)

// navServer serves testdata plus the dynamic endpoints the navigation
// tests need. Handlers that hang stay hung until the test ends; the
// release cleanup is registered after the server's so it runs first and
// the server's Close never waits on them.
type navServer struct {
	*httptest.Server
	hits    chan string   // each request to /slow-headers and /slow-api
	release chan struct{} // closed when the test ends
	apiGate chan struct{} // /slow-api answers once this is closed
	// laters counts the requests to /slow-later, which answers the first
	// at once and hangs the others.
	laters atomic.Int32
}

func newNavServer(t *testing.T) *navServer {
	s := &navServer{
		hits:    make(chan string, 16),
		release: make(chan struct{}),
		apiGate: make(chan struct{}),
	}
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir("testdata")))
	mux.HandleFunc("/empty-404", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotFound) })
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) { s.hang(r) })
	mux.HandleFunc("/never-finishes", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<!doctype html><title>partial</title><p>the rest never comes")
		w.(http.Flusher).Flush()
		s.hang(r)
	})
	mux.HandleFunc("/slow-headers", func(w http.ResponseWriter, r *http.Request) {
		s.hits <- r.URL.Path
		s.hang(r)
	})
	mux.HandleFunc("/slow-later", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		if s.laters.Add(1) > 1 {
			s.hang(r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<!doctype html><title>first</title><p>answered at once")
	})
	mux.HandleFunc("/slow-api", func(w http.ResponseWriter, r *http.Request) {
		s.hits <- r.URL.Path
		select {
		case <-s.apiGate:
		case <-s.release:
		case <-r.Context().Done():
		}
		fmt.Fprint(w, "ok")
	})
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	t.Cleanup(func() { close(s.release) })
	return s
}

func (s *navServer) hang(r *http.Request) {
	select {
	case <-s.release:
	case <-r.Context().Done():
	}
}

// navPage opens a fresh tab wrapped in a Page.
func navPage(t *testing.T) *page.Page {
	return page.New(browser.NewTab(t))
}

// navCtx is the test's context bounded by d.
func navCtx(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), d)
	t.Cleanup(cancel)
	return ctx
}

func navGoto(t *testing.T, p *page.Page, url, waitUntil string) *page.NavResult {
	t.Helper()
	r, err := page.Goto(navCtx(t, 10*time.Second), p, url, waitUntil)
	if err != nil {
		t.Fatalf("Goto(%s, %q): %v", url, waitUntil, err)
	}
	return r
}

// navEval returns the value of a short expression in the page.
func navEval[T any](t *testing.T, p *page.Page, expr string) T {
	t.Helper()
	var v T
	if err := p.CallJS(navCtx(t, 5*time.Second), "() => ("+expr+")", &v); err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

func TestGotoStatusAndTitle(t *testing.T) {
	srv := newNavServer(t)
	p := navPage(t)
	cases := []struct {
		path   string
		status int
		title  string
	}{
		{"/nav-a.html", 200, "Nav A"},
		{"/missing.html", 404, ""}, // Go's file server sends a text body
		{"/empty-404", 404, ""},    // Chrome shows its own error page
	}
	for _, c := range cases {
		r := navGoto(t, p, srv.URL+c.path, "")
		if r.Status != c.status || r.URL != srv.URL+c.path {
			t.Errorf("%s: got status %d url %s, want %d at the requested URL", c.path, r.Status, r.URL, c.status)
		}
		if c.title != "" && r.Title != c.title {
			t.Errorf("%s: title %q, want %q", c.path, r.Title, c.title)
		}
	}
}

func TestGotoWaitUntil(t *testing.T) {
	srv := newNavServer(t)

	t.Run("commit returns while the body is still arriving", func(t *testing.T) {
		p := navPage(t)
		r := navGoto(t, p, srv.URL+"/never-finishes", page.WaitCommit)
		if r.Status != 200 {
			t.Errorf("status %d, want 200", r.Status)
		}
	})
	t.Run("domcontentloaded does not wait for images", func(t *testing.T) {
		p := navPage(t)
		navGoto(t, p, srv.URL+"/nav-hang-img.html", page.WaitDOMContentLoaded)
		if got := navEval[string](t, p, "document.readyState"); got != "interactive" {
			t.Errorf("readyState %q, want interactive", got)
		}
	})
	t.Run("load waits for subresources but not later fetches", func(t *testing.T) {
		p := navPage(t)
		r := navGoto(t, p, srv.URL+"/nav-fetch.html", page.WaitLoad)
		if got := navEval[string](t, p, "document.readyState"); got != "complete" {
			t.Errorf("readyState %q, want complete", got)
		}
		// /slow-api is held shut, so its answer cannot have arrived.
		if r.Title != "fetching" {
			t.Errorf("title %q, want fetching", r.Title)
		}
	})
	t.Run("networkidle waits for the fetch after load", func(t *testing.T) {
		p := navPage(t)
		go func() {
			<-srv.hits
			close(srv.apiGate)
		}()
		r := navGoto(t, p, srv.URL+"/nav-fetch.html", page.WaitNetworkIdle)
		if r.Title != "fetched" {
			t.Errorf("title %q, want fetched: networkidle returned with the fetch in flight", r.Title)
		}
	})
}

func TestGotoErrors(t *testing.T) {
	// A port that was free a moment ago refuses connections.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/"
	ln.Close()

	cases := []struct {
		url  string
		text string // in ErrorText and in the message
	}{
		{"http://cdpskill-test.invalid/", "net::ERR_NAME_NOT_RESOLVED"},
		{closed, "net::ERR_CONNECTION_REFUSED"},
		{"foo://x", "unknown URL scheme foo"},
		{"localhost:8931/small.html", `did you mean "http://localhost:8931/small.html"?`},
		{"javascript:alert(1)", "javascript: URLs"},
		{"example.com/path", `did you mean "https://example.com/path"?`},
		{"http://", "invalid URL"},
	}
	p := navPage(t)
	for _, c := range cases {
		_, err := page.Goto(navCtx(t, 10*time.Second), p, c.url, "")
		t.Logf("%s: %v", c.url, err)
		var ne *page.NavigationError
		if !errors.As(err, &ne) {
			t.Errorf("%s: got %v (%T), want *NavigationError", c.url, err, err)
			continue
		}
		if ne.ErrorName() != "NavigationError" || !strings.Contains(ne.ErrorText, c.text) || !strings.Contains(err.Error(), c.text) {
			t.Errorf("%s: %q (ErrorText %q), want it to carry %q", c.url, err, ne.ErrorText, c.text)
		}
	}

	_, err = page.Goto(t.Context(), p, "about:blank", "idle")
	var pe *invalid.Option
	if !errors.As(err, &pe) || pe.ErrorName() != "StepValidationError" {
		t.Errorf("bad waitUntil: got %v, want *invalid.Option", err)
	}
}

func TestGotoNeverFinishingPageHitsDeadline(t *testing.T) {
	srv := newNavServer(t)
	for _, path := range []string{"/never-finishes", "/slow-headers"} {
		p := navPage(t)
		ctx := navCtx(t, time.Second)
		_, err := page.Goto(ctx, p, srv.URL+path, page.WaitLoad)
		t.Logf("%s: %v", path, err)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("%s: got %v, want an error wrapping context.DeadlineExceeded", path, err)
		}
		if ctx.Err() == nil {
			t.Errorf("%s: Goto gave up before its context ended", path)
		}
		if !strings.Contains(err.Error(), srv.URL+path) {
			t.Errorf("%s: message %q does not name the URL", path, err)
		}
	}
}

// stopBound is how long past its deadline a navigation whose server did
// not answer may end: the stop and the look at where the tab is
// (navStopWait), on a loaded machine. A correctness bound, not a speed
// target: a navigation not stopped would wait on the server, which never
// answers.
const stopBound = 10 * time.Second

// A goto or reload whose server does not answer in time is a TimeoutError
// that names the URL and the page the tab still shows. Chrome holds back
// every call to a page while its navigation is pending, so the navigation
// is stopped: the page it was on, with what it held, answers at once.
func TestSlowServerNavigationIsStopped(t *testing.T) {
	srv := newNavServer(t)
	p := navPage(t)
	from := srv.URL + "/slow-later"
	navGoto(t, p, from, "")
	navEval[any](t, p, "window.marker = 'kept'")
	steps := []struct {
		what, to string
		run      func(ctx context.Context) error
	}{
		{"goto", srv.URL + "/slow-headers", func(ctx context.Context) error {
			_, err := page.Goto(ctx, p, srv.URL+"/slow-headers", page.WaitLoad)
			return err
		}},
		{"goto commit", srv.URL + "/slow-headers", func(ctx context.Context) error {
			_, err := page.Goto(ctx, p, srv.URL+"/slow-headers", page.WaitCommit)
			return err
		}},
		{"reload", from, func(ctx context.Context) error {
			_, err := page.Reload(ctx, p, page.WaitCommit)
			return err
		}},
	}
	for _, st := range steps {
		start := time.Now()
		err := st.run(navCtx(t, time.Second))
		took := time.Since(start)
		t.Logf("%s: %v", st.what, err)
		var nt *page.NavTimeoutError
		if !errors.As(err, &nt) || nt.ErrorName() != "TimeoutError" || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("%s: got %v (%T), want a *NavTimeoutError", st.what, err, err)
		}
		if !nt.Stopped || nt.Shows != from || nt.URL != st.to {
			t.Errorf("%s: %+v, want the navigation to %s stopped on %s", st.what, *nt, st.to, from)
		}
		for _, w := range []string{"no response from " + st.to + " after", "still shows " + from} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: the message lacks %q: %v", st.what, w, err)
			}
		}
		if took > time.Second+stopBound {
			t.Errorf("%s took %v with a 1 s timeout", st.what, took)
		}
		var now string
		// Held back behind a pending navigation, the call would never be
		// answered: a generous deadline still tells.
		if err := p.CallJS(navCtx(t, 10*time.Second), "() => location.href + ' ' + window.marker", &now); err != nil || now != from+" kept" {
			t.Fatalf("%s: the page it was on does not answer as it was: %q, %v", st.what, now, err)
		}
	}
}

func TestGotoSameDocument(t *testing.T) {
	srv := newNavServer(t)
	p := navPage(t)
	navGoto(t, p, srv.URL+"/nav-a.html", "")
	navEval[any](t, p, "window.marker = 'kept'")

	r := navGoto(t, p, srv.URL+"/nav-a.html#section", page.WaitLoad)
	if r.URL != srv.URL+"/nav-a.html#section" {
		t.Errorf("URL %s, want the fragment URL", r.URL)
	}
	if got := navEval[string](t, p, "window.marker"); got != "kept" {
		t.Errorf("marker %q: the document was reloaded", got)
	}
}

func TestGotoSupersededIsAborted(t *testing.T) {
	srv := newNavServer(t)
	p := navPage(t)
	navGoto(t, p, srv.URL+"/nav-a.html", "")
	done := make(chan error, 1)
	go func() {
		_, err := page.Goto(navCtx(t, 10*time.Second), p, srv.URL+"/slow-headers", "")
		done <- err
	}()
	<-srv.hits // the first navigation is waiting for its response
	other := srv.URL + "/nav-b.html"
	if _, err := (proto.PageNavigate{URL: other}).Do(navCtx(t, 5*time.Second), p.S); err != nil {
		t.Fatal(err)
	}
	err := <-done
	var ae *page.NavigationAbortedError
	if !errors.As(err, &ae) || ae.ErrorName() != "NavigationAbortedError" {
		t.Fatalf("got %v (%T), want *NavigationAbortedError", err, err)
	}
	if ae.NewURL != other {
		t.Errorf("NewURL %q, want %q", ae.NewURL, other)
	}
}

func TestGotoFollowsClientRedirect(t *testing.T) {
	srv := newNavServer(t)
	p := navPage(t)
	r := navGoto(t, p, srv.URL+"/nav-redirect.html", page.WaitLoad)
	if r.URL != srv.URL+"/nav-b.html?redirected=1" || r.Title != "Nav B" {
		t.Errorf("ended at %s %q, want nav-b.html?redirected=1", r.URL, r.Title)
	}
}

func TestGotoDownload(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/file.bin", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Disposition", "attachment; filename=file.bin")
		w.Header().Set("Content-Type", "application/octet-stream")
		fmt.Fprint(w, "data")
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	p := navPage(t)
	// Deny the download so the test leaves no file behind.
	if err := (proto.BrowserSetDownloadBehavior{Behavior: "deny"}).Do(t.Context(), p.S); err != nil {
		t.Skipf("cannot deny downloads: %v", err)
	}
	r := navGoto(t, p, srv.URL+"/file.bin", "")
	if !r.Download {
		t.Errorf("got %+v, want Download", r)
	}
}

func TestReload(t *testing.T) {
	srv := newNavServer(t)
	p := navPage(t)
	navGoto(t, p, srv.URL+"/nav-a.html", "")
	navEval[any](t, p, "window.marker = 'old document'")

	r, err := page.Reload(navCtx(t, 10*time.Second), p, "")
	if err != nil {
		t.Fatal(err)
	}
	if r.URL != srv.URL+"/nav-a.html" || r.Status != 200 || r.Title != "Nav A" {
		t.Errorf("got %+v", r)
	}
	if got := navEval[*string](t, p, "window.marker"); got != nil {
		t.Errorf("marker %q survived the reload", *got)
	}
}

func TestBackForward(t *testing.T) {
	srv := newNavServer(t)
	p := navPage(t)
	ctx := navCtx(t, 20*time.Second)

	// A new tab has one history entry: nowhere to go either way.
	for name, fn := range map[string]func(context.Context, *page.Page) (*page.HistoryResult, error){"back": page.Back, "forward": page.Forward} {
		r, err := fn(ctx, p)
		if err != nil || !r.NoHistory {
			t.Errorf("%s in a new tab: got %+v, %v, want NoHistory", name, r, err)
		}
	}

	a, b := srv.URL+"/nav-a.html", srv.URL+"/nav-b.html"
	navGoto(t, p, a, "")
	navGoto(t, p, b, "")
	steps := []struct {
		name  string
		fn    func(context.Context, *page.Page) (*page.HistoryResult, error)
		url   string
		title string
	}{
		{"back", page.Back, a, "Nav A"},
		{"forward", page.Forward, b, "Nav B"},
		{"back again", page.Back, a, "Nav A"},
	}
	for _, s := range steps {
		r, err := s.fn(ctx, p)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if r.NoHistory || r.URL != s.url || r.Title != s.title {
			t.Errorf("%s: got %+v, want %s %q", s.name, r, s.url, s.title)
		}
	}

	// After going back, forward is possible but a second forward is not.
	if r, err := page.Forward(ctx, p); err != nil || r.URL != b {
		t.Fatalf("forward: %+v, %v", r, err)
	}
	if r, err := page.Forward(ctx, p); err != nil || !r.NoHistory || r.URL != b {
		t.Errorf("forward at the end: got %+v, %v, want NoHistory at %s", r, err, b)
	}
}

func TestBackWithinDocument(t *testing.T) {
	srv := newNavServer(t)
	p := navPage(t)
	a := srv.URL + "/nav-a.html"
	navGoto(t, p, a, "")
	navGoto(t, p, a+"#section", "")
	navEval[any](t, p, "window.marker = 'same document'")

	r, err := page.Back(navCtx(t, 10*time.Second), p)
	if err != nil {
		t.Fatal(err)
	}
	if r.URL != a {
		t.Errorf("URL %s, want %s", r.URL, a)
	}
	if got := navEval[string](t, p, "window.marker"); got != "same document" {
		t.Errorf("marker %q: going back reloaded the document", got)
	}
}

// newBenchServer serves testdata and returns its base URL.
func newBenchServer(b *testing.B) string {
	srv := httptest.NewServer(http.FileServer(http.Dir("testdata")))
	b.Cleanup(srv.Close)
	return srv.URL
}

func BenchmarkGotoLoad(b *testing.B) {
	srv := newBenchServer(b)
	p := page.New(browser.NewTab(b))
	for b.Loop() {
		if _, err := page.Goto(b.Context(), p, srv+"/nav-b.html", page.WaitLoad); err != nil {
			b.Fatal(err)
		}
	}
}
