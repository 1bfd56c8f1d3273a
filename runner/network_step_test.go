package runner_test

import (
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// secretsServer serves a page whose API takes credentials and sets a
// session cookie: what a logged-in app sends and gets.
func secretsServer(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><title>Account</title><main><h1>Account</h1></main>`)
	})
	mux.HandleFunc("/api/login", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok-123" {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		http.SetCookie(w, &http.Cookie{Name: "sid", Value: "s3cr3t-sid", Path: "/", HttpOnly: true})
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"ok":true}`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// The headers both ways are kept with a request, their secrets masked as
// they are captured: read back with its body, the token sent and the
// cookie set are masked, their names and the cookie's attributes kept,
// and none of the secrets is in any file of the tab's. The listing shows
// each request's id and no headers.
func TestNetworkHeadersMasked(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	srv := secretsServer(t)
	tab := c.openTab(srv.URL + "/")
	login := `fetch('/api/login', {method: 'POST', headers: {'Authorization': 'Bearer tok-123', 'X-API-Key': 'k-456', 'Content-Type': 'application/json'}, body: '{"user":"ada"}'}).then(r => r.text().then(() => r.status))`
	if got := c.value(t, tab, login); got != 200.0 {
		t.Fatalf("the login answered %v", got)
	}
	// A second call, on the cookie the first one got.
	c.value(t, tab, `fetch('/api/login', {headers: {'Authorization': 'Bearer tok-123', 'X-API-Key': 'k-456'}}).then(r => r.text())`)
	got := c.call(t, tab, `{"network":{"body":"/api/login"}}`)[0]
	req, _ := got["requestHeaders"].(map[string]any)
	resp, _ := got["responseHeaders"].(map[string]any)
	if header(req, "Authorization") != "Bearer ***" || header(req, "Cookie") != "sid=***" || header(req, "X-API-Key") != "***" ||
		header(resp, "Set-Cookie") != "sid=***; Path=/; HttpOnly" || header(resp, "Content-Type") != "application/json" {
		t.Errorf("headers read back: %s", jsonText(got))
	}
	listing := jsonText(c.call(t, tab, `{"network":{"filter":"/api/login"}}`)[0])
	if strings.Contains(listing, "Headers") || !strings.Contains(listing, fmt.Sprintf(`"id":%q`, got["id"])) {
		t.Errorf("the listing: %s", listing)
	}
	har := c.call(t, tab, `{"network":{"har":true}}`)[0]
	if !strings.HasPrefix(fmt.Sprint(har["path"]), filepath.Join(c.tmp, "cdp-skill", tab+".network")) || har["entries"].(float64) < 3 {
		t.Errorf("har: %v", har)
	}
	// No file of the tab's holds a secret: they were masked as captured.
	filepath.WalkDir(c.tmp, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, _ := os.ReadFile(path)
		for _, secret := range []string{"tok-123", "k-456", "s3cr3t-sid"} {
			if strings.Contains(string(data), secret) {
				t.Errorf("%s holds %s", path, secret)
			}
		}
		return nil
	})
}

// header is a header's value, its name in any case.
func header(h map[string]any, name string) string {
	for k, v := range h {
		if strings.EqualFold(k, name) {
			s, _ := v.(string)
			return s
		}
	}
	return ""
}

// sort orders the listing before its limit: the slowest first, the
// largest first.
func TestNetworkSort(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/hello.html")
	c.value(t, tab, `Promise.all([fetch('/api/slow?ms=50&a'), fetch('/api/slow?ms=600&b'), fetch('/api/slow?ms=250&c'), fetch('/api/report')].map(p => p.then(r => r.text()))).then(a => a.length)`)
	urls := func(steps string) []string {
		var out []string
		for _, r := range c.call(t, tab, steps)[0]["requests"].([]any) {
			out = append(out, r.(map[string]any)["url"].(string))
		}
		return out
	}
	slow := urls(`{"network":{"filter":"/api/","sort":"slowest"}}`)
	if len(slow) != 4 || !strings.HasSuffix(slow[0], "ms=600&b") || !strings.HasSuffix(slow[1], "ms=250&c") {
		t.Errorf("slowest: %v", slow)
	}
	large := urls(`{"network":{"filter":"/api/","sort":"largest","limit":1}}`)
	if len(large) != 1 || !strings.HasSuffix(large[0], "/api/report") {
		t.Errorf("largest: %v", large)
	}
	res, _ := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"network":{"sort":"fastest"}}]}`, tab))
	if typ, msg := errorOf(res); typ != "VALIDATION" || !strings.Contains(msg, `give "slowest" or "largest"`) {
		t.Errorf("an unknown order: %v", res)
	}
}
