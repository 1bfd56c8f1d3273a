package page_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/page"
)

func TestParseState(t *testing.T) {
	cookie := `{"name":"a","value":"b","domain":".x.com","path":"/","expires":-1,"httpOnly":true,"secure":true,"sameSite":"%s"}`
	for _, tc := range []struct{ doc, err string }{
		{`{"cookies":[],"origins":[]}`, ""},
		{`{"cookies":[` + fmt.Sprintf(cookie, "lax") + `],"origins":[{"origin":"https://x.com","localStorage":[{"name":"k","value":"v"}]}]}`, ""},
		{`{"cookies":[],"origins":[{"origin":"https://x.com/","localStorage":[]}]}`, ""},
		{``, "is not JSON"},
		{`{"cookies":[]`, "is not JSON"},
		{`[]`, "is not a Playwright storageState"},
		{`{"cookies":[],"origins":[],"extra":1}`, `unknown field "extra"`},
		{`{"origins":[]}`, `needs "cookies" and "origins" arrays`},
		{`{"cookies":null,"origins":[]}`, `needs "cookies" and "origins" arrays`},
		{`{"cookies":[{"name":"a"}],"origins":[]}`, "cookie 0 lacks"},
		{`{"cookies":[` + fmt.Sprintf(cookie, "") + `],"origins":[]}`, `sameSite ""`},
		{`{"cookies":[],"origins":[{"origin":"file:///etc","localStorage":[]}]}`, "not an http(s) origin"},
		{`{"cookies":[],"origins":[{"origin":"https://x.com/path","localStorage":[]}]}`, "not an http(s) origin"},
	} {
		st, err := page.ParseState([]byte(tc.doc))
		var se *page.StateError
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.doc, err)
		case tc.err != "" && (!errors.As(err, &se) || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: got %v, want %q", tc.doc, err, tc.err)
		case tc.err == "" && len(st.Cookies) > 0 && st.Cookies[0].SameSite != "Lax":
			t.Errorf("%s: sameSite kept as %q", tc.doc, st.Cookies[0].SameSite)
		}
	}
}

// statePage is a page of its own origin that keeps a key in localStorage
// and frames another origin that keeps one too.
func statePage(t *testing.T) (p *page.Page, top, framed string) {
	inner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<script>localStorage.setItem('in', 'framed')</script>`)
	}))
	t.Cleanup(inner.Close)
	outer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<script>localStorage.setItem('out', 'top')</script><iframe src="%s"></iframe>`,
			strings.Replace(inner.URL, "127.0.0.1", "localhost", 1))
	}))
	t.Cleanup(outer.Close)
	p = navPage(t)
	navGoto(t, p, outer.URL, "load")
	return p, outer.URL, strings.Replace(inner.URL, "127.0.0.1", "localhost", 1)
}

// SaveState reads the localStorage of the page's origin, not that of a
// third-party frame, which Chrome partitions under the top site; and
// Chrome reaches an origin's storage only through a frame on it, which
// is why LoadState visits each origin.
func TestSaveStateReadsFramesOrigins(t *testing.T) {
	p, top, framed := statePage(t)
	ctx := navCtx(t, 10*time.Second)
	st, err := page.SaveState(ctx, p, page.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, o := range st.Origins {
		for _, it := range o.LocalStorage {
			got[o.Origin] += it.Name + "=" + it.Value
		}
	}
	if got[top] != "out=top" || got[framed] != "" {
		t.Errorf("saved origins: %+v", st.Origins)
	}
	elsewhere := proto.StorageID{SecurityOrigin: "https://elsewhere.test", IsLocalStorage: true}
	if _, err := (proto.DOMStorageGetDOMStorageItems{StorageID: elsewhere}).Do(ctx, p.S); err == nil {
		t.Errorf("Chrome read the storage of an origin no frame is on: LoadState need not visit each origin")
	}
}

// SaveState saves the localStorage of the origins the tab showed before,
// not only its page's, in the order it showed them; it reads them in a
// scratch tab that is closed after, without loading any page of theirs
// again, and the tab stays on its document.
func TestSaveStateOriginsLeft(t *testing.T) {
	var hits atomic.Int32
	site := func(key string) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			fmt.Fprintf(w, `<script>localStorage.setItem(%q, 'here')</script>`, key)
		}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	a, b, c := site("a"), site("b"), site("c")
	p := navPage(t)
	for _, u := range []string{a, b, a, c} {
		navGoto(t, p, u, "load")
	}
	doc := navEval[float64](t, p, "performance.timeOrigin")
	ctx := navCtx(t, 10*time.Second)
	tabs := func() int {
		res, err := proto.TargetGetTargets{}.Do(ctx, p.S.Conn().Browser())
		if err != nil {
			t.Fatal(err)
		}
		return len(res.TargetInfos)
	}
	before, served := tabs(), hits.Load()
	st, err := page.SaveState(ctx, p, page.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range st.Origins {
		got = append(got, o.Origin+" "+fmt.Sprint(o.LocalStorage))
	}
	if want := []string{c + " [{c here}]", a + " [{a here}]", b + " [{b here}]"}; !slices.Equal(got, want) {
		t.Errorf("saved origins:\n%q\nwant\n%q", got, want)
	}
	if hits.Load() != served {
		t.Errorf("reading their storage loaded %d pages of the sites", hits.Load()-served)
	}
	if navEval[float64](t, p, "performance.timeOrigin") != doc {
		t.Errorf("the tab left its document")
	}
	// Chrome closes a target after it answers Target.closeTarget.
	for end := time.Now().Add(5 * time.Second); tabs() != before; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Errorf("%d targets before SaveState, %d after: the scratch tab stayed", before, tabs())
			break
		}
	}
}

// LoadState sets the storage of origins the tab is not on and leaves it
// on about:blank; a refused cookie sets none.
func TestLoadStateOtherOrigins(t *testing.T) {
	p, _, framed := statePage(t)
	ctx := navCtx(t, 10*time.Second)
	st := &page.State{
		Cookies: []page.StateCookie{{Name: "loadstate", Value: "1", Domain: "localhost", Path: "/", Expires: -1, SameSite: "Lax"}},
		Origins: []page.OriginState{{Origin: framed, LocalStorage: []page.StorageItem{{Name: "loaded", Value: "yes"}}}},
	}
	done, err := page.LoadState(ctx, p, st)
	if err != nil || done != (page.LoadedState{Cookies: 1, Origins: 1}) {
		t.Fatalf("LoadState: %+v, %v", done, err)
	}
	if u := navEval[string](t, p, "location.href"); u != "about:blank" {
		t.Errorf("LoadState left the tab on %s", u)
	}
	navGoto(t, p, framed, "load")
	st2, err := page.SaveState(ctx, p, page.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(st2.Origins) == 0 || st2.Origins[0].Origin != framed || !strings.Contains(fmt.Sprint(st2.Origins[0].LocalStorage), "{loaded yes}") {
		t.Errorf("after LoadState: %+v", st2.Origins)
	}
	bad := &page.State{Cookies: []page.StateCookie{
		{Name: "fine", Value: "1", Domain: "localhost", Path: "/", Expires: -1, SameSite: "Lax"},
		{Name: "refused", Value: "1", Domain: "localhost", Path: "/", Expires: -1, SameSite: "None"},
	}}
	if _, err := page.LoadState(ctx, p, bad); !errors.As(err, new(*page.CookiesRefusedError)) || !strings.Contains(err.Error(), "refused the cookies refused,") {
		t.Errorf("LoadState of a refused cookie: %v", err)
	}
	all, _ := page.GetCookies(ctx, p, page.CookieScope{All: true}, "fine")
	if len(all) != 0 {
		t.Errorf("a cookie of a refused set was set: %v", all)
	}
}

// Playwright's fields for a partitioned cookie and its indexedDB are
// read: the partition goes to Chrome and comes back in a saved state; a
// file with IndexedDB databases is refused whole, as none is loaded.
func TestStatePlaywrightFields(t *testing.T) {
	st, err := page.ParseState([]byte(`{"cookies":[{"name":"chips","value":"1","domain":"localhost","path":"/","expires":-1,
		"httpOnly":false,"secure":true,"sameSite":"None","partitionKey":"http://localhost","_crHasCrossSiteAncestor":false}],
		"origins":[{"origin":"http://localhost","localStorage":[],"indexedDB":[]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := page.ParseState([]byte(`{"cookies":[],"origins":[{"origin":"http://localhost","localStorage":[],"indexedDB":[{"name":"db","version":1,"stores":[]}]}]}`)); err == nil || !strings.Contains(err.Error(), "IndexedDB") {
		t.Errorf("a state with IndexedDB: %v", err)
	}
	p := navPage(t)
	ctx := navCtx(t, 10*time.Second)
	if _, err := page.LoadState(ctx, p, st); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = proto.NetworkDeleteCookies{Name: "chips", Domain: "localhost", Path: "/",
			PartitionKey: &proto.CookiePartitionKey{TopLevelSite: "http://localhost"}}.Do(t.Context(), p.S)
	})
	saved, err := page.SaveState(ctx, p, page.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range saved.Cookies {
		if c.Name == "chips" {
			if c.PartitionKey != "http://localhost" || c.CrHasCrossSiteAncestor == nil || *c.CrHasCrossSiteAncestor {
				t.Errorf("the partitioned cookie came back as %+v", c)
			}
			return
		}
	}
	t.Errorf("the partitioned cookie is not saved: %+v", saved.Cookies)
}

// The tab's sessionStorage is saved when asked and loaded into the tab.
func TestStateSessionStorage(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<title>plain</title>`)
	}))
	t.Cleanup(srv.Close)
	p := navPage(t)
	ctx := navCtx(t, 10*time.Second)
	st := &page.State{Cookies: []page.StateCookie{}, Origins: []page.OriginState{{Origin: srv.URL,
		LocalStorage: []page.StorageItem{}, SessionStorage: []page.StorageItem{{Name: "step", Value: "2"}}}}}
	if done, err := page.LoadState(ctx, p, st); err != nil || done.Origins != 1 {
		t.Fatalf("LoadState: %+v, %v", done, err)
	}
	navGoto(t, p, srv.URL, "load")
	if got := navEval[string](t, p, "sessionStorage.getItem('step')"); got != "2" {
		t.Errorf("sessionStorage after LoadState: %q", got)
	}
	without, err := page.SaveState(ctx, p, page.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	with, err := page.SaveState(ctx, p, page.SaveOptions{SessionStorage: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(without.Origins) != 0 || len(with.Origins) != 1 || fmt.Sprint(with.Origins[0].SessionStorage) != "[{step 2}]" {
		t.Errorf("saved without sessionStorage: %+v; with: %+v", without.Origins, with.Origins)
	}
}
