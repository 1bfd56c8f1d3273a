package dom_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/dom"
	"github.com/cdpskill/cdpskill/internal/pagetest"
	"github.com/cdpskill/cdpskill/internal/testbrowser"
	"github.com/cdpskill/cdpskill/page"
)

// A click on a link to a server that does not answer went through: Chrome
// holds back every call to the page from the navigation's start until the
// new document commits, so the click reads its events' arrival from that
// start, not from the page, and ends at its deadline, clicked, saying the
// page was still navigating; it does not wait out the hold.
func TestClickLinkToSlowServer(t *testing.T) {
	done := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><a id="slow" href="/slow">Slow</a>`))
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-done:
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(done) })
	s := browser.NewTab(t)
	testbrowser.Navigate(t, s, srv.URL+"/")
	p := page.New(s)
	pagetest.AdoptRefs(t, p)

	// Time for the click itself on a loaded machine; the navigation it
	// starts never commits.
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Second)
	defer cancel()
	start := time.Now()
	res, err := dom.Click(ctx, p, dom.ClickRequest{Target: "#slow"})
	took := time.Since(start)
	if err != nil || !res.Clicked || res.Method != dom.MethodCDP {
		t.Fatalf("click on the link: %+v, %v", res, err)
	}
	if !strings.Contains(res.Warning, "still navigating") {
		t.Errorf("warning %q does not say the page was still navigating", res.Warning)
	}
	// A correctness bound, not a speed target: waiting out the hold would
	// never end.
	if took > 4*time.Second+10*time.Second {
		t.Errorf("the click took %v with a 4 s deadline", took)
	}
}
