package page_test

import (
	"encoding/json"
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
	"github.com/cdpskill/cdpskill/internal/testbrowser"
	"github.com/cdpskill/cdpskill/page"
)

func TestParseState(t *testing.T) {
	idb := func(db string) string {
		return `{"cookies":[],"origins":[{"origin":"https://x.com","localStorage":[],"indexedDB":[` + db + `]}]}`
	}
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
		{idb(`{"name":"db","version":2,"stores":[{"name":"s","autoIncrement":false,"keyPath":"id","records":[{"value":{"id":1}}],"indexes":[{"name":"i","keyPathArray":["a","b"],"multiEntry":false,"unique":true}]}]}`), ""},
		{idb(`{"name":"db","version":1,"stores":[{"name":"s","autoIncrement":false,"records":[{"key":1,"valueEncoded":{"v":"undefined"}},{"keyEncoded":{"d":"2024-01-01T00:00:00.000Z"},"value":null}],"indexes":[]}]}`), ""},
		{idb(`{"name":"db","version":1,"stores":[{"name":"s","autoIncrement":true,"records":[{"value":"made"}],"indexes":[]}]}`), ""},
		{idb(`{"name":"","version":1,"stores":[]}`), "a database has no name"},
		{idb(`{"name":"db","version":0,"stores":[]}`), `database "db": version 0`},
		{idb(`{"name":"db","version":1,"stores":[{"name":"s","autoIncrement":false,"records":[{"value":1}],"indexes":[]}]}`), `store "s": record 0 has no key, and the store makes none`},
		{idb(`{"name":"db","version":1,"stores":[{"name":"s","autoIncrement":false,"keyPath":"","records":[{"key":1,"value":1}],"indexes":[]}]}`), "record 0 has a key, but the store takes keys from its values"},
		{idb(`{"name":"db","version":1,"stores":[{"name":"s","autoIncrement":true,"records":[{"key":1}],"indexes":[]}]}`), "record 0 has no value"},
		{idb(`{"name":"db","version":1,"stores":[{"name":"s","autoIncrement":true,"records":[],"indexes":[{"name":"i","unique":false,"multiEntry":false}]}]}`), "an index lacks its name or keyPath"},
		{idb(`{"name":"db","version":1,"stores":[{"name":"s","records":[],"indexes":[],"extra":1}]}`), `unknown field "extra"`},
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
			if r.URL.Path == "/" { // not the favicon Chrome asks for after a load
				hits.Add(1)
			}
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
	for end := time.Now().Add(10 * time.Second); tabs() != before; time.Sleep(20 * time.Millisecond) {
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

// Playwright's fields for a partitioned cookie are read: the partition
// goes to Chrome and comes back in a saved state; a file with OPFS
// files, which cdpskill does not load, is refused whole.
func TestStatePlaywrightFields(t *testing.T) {
	st, err := page.ParseState([]byte(`{"cookies":[{"name":"chips","value":"1","domain":"localhost","path":"/","expires":-1,
		"httpOnly":false,"secure":true,"sameSite":"None","partitionKey":"http://localhost","_crHasCrossSiteAncestor":false}],
		"origins":[{"origin":"http://localhost","localStorage":[],"indexedDB":[]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := page.ParseState([]byte(`{"cookies":[],"origins":[{"origin":"http://localhost","localStorage":[],"opfs":[{"path":"a","type":"directory"}]}]}`)); err == nil || !strings.Contains(err.Error(), "OPFS") {
		t.Errorf("a state with OPFS files: %v", err)
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

// SaveState saves IndexedDB when asked, in Playwright's shape: a key only
// where the store keeps keys apart from values, values JSON holds as
// they are, the others encoded; LoadState makes each database again in
// place of the one of its name, with its stores, indexes, keys and
// values, a Date a Date and an object that holds itself so again.
func TestStateIndexedDB(t *testing.T) {
	srv := testbrowser.Serve(t, "testdata")
	p := navPage(t)
	navGoto(t, p, srv.URL+"/state-idb.html", "load")
	ctx := navCtx(t, 10*time.Second)
	if err := p.Main().CallJS(ctx, "() => window.ready", nil); err != nil {
		t.Fatal(err)
	}
	if st, err := page.SaveState(ctx, p, page.SaveOptions{}); err != nil || len(st.Origins) != 0 {
		t.Fatalf("without indexedDB: %+v, %v", st, err)
	}
	st, err := page.SaveState(ctx, p, page.SaveOptions{IndexedDB: true})
	if err != nil || len(st.Origins) != 1 {
		t.Fatalf("with indexedDB: %+v, %v", st, err)
	}
	saved, _ := json.Marshal(st.Origins[0].IndexedDB)
	for _, want := range []string{
		`{"name":"cache","version":1,"stores":[]}`,
		`{"name":"users","autoIncrement":false,"keyPath":"id","records":[{"value":{"id":1,"email":"ada@example.com","name":"Ada","roles":["admin"]}},`,
		`"indexes":[{"name":"byEmail","keyPath":"email","multiEntry":false,"unique":true}]`,
		`"keyPathArray":["list","pos"]`,
		`{"name":"byTag","keyPath":"tags","multiEntry":true,"unique":false}`,
		`{"key":2,"value":{"nested":[1,2.5,{"deep":true}],"none":null}},{"keyEncoded":{"d":"2024-01-02T00:00:00.000Z"},"value":"dated"},{"key":"token","value":"t0k3n"}`,
		`{"key":1,"valueEncoded":{"o":[{"k":"at","v":{"d":"2024-01-02T03:04:05.000Z"}},{"k":"missing","v":{"v":"undefined"}},{"k":"nan","v":{"v":"NaN"}}],"id":1}}`,
		`{"key":2,"valueEncoded":{"m":[{"k":"k","v":{"s":[1,2],"id":2}}],"id":1}}`,
		`{"key":3,"valueEncoded":{"ta":{"b":"AAH/","k":"ui8"}}}`,
		`{"key":4,"valueEncoded":{"o":[{"k":"name","v":"loop"},{"k":"self","v":{"ref":1}}],"id":1}}`,
	} {
		if !strings.Contains(string(saved), want) {
			t.Errorf("saved IndexedDB lacks %s:\n%s", want, saved)
		}
	}

	// The site changes its data; the state puts it back.
	change := `async () => {
		const done = (r) => new Promise((ok, no) => { r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
		await done(indexedDB.deleteDatabase('cache'));
		const db = await done(indexedDB.open('notes'));
		await done(db.transaction('users', 'readwrite').objectStore('users').add({ id: 3, email: 'eve@example.com' }));
		db.close();
	}`
	if err := p.Main().CallJS(ctx, change, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := page.LoadState(ctx, p, st); err != nil {
		t.Fatal(err)
	}
	// Read back from another origin's page: through the scratch tab.
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	t.Cleanup(elsewhere.Close)
	navGoto(t, p, elsewhere.URL, "load")
	again, err := page.SaveState(ctx, p, page.SaveOptions{IndexedDB: true})
	if err != nil || len(again.Origins) != 1 || again.Origins[0].Origin != srv.URL {
		t.Fatalf("after LoadState: %+v, %v", again, err)
	}
	if loaded, _ := json.Marshal(again.Origins[0].IndexedDB); string(loaded) != string(saved) {
		t.Errorf("loaded IndexedDB:\n%s\nsaved:\n%s", loaded, saved)
	}
	navGoto(t, p, srv.URL+"/nav-a.html", "load")
	check := `async () => {
		const done = (r) => new Promise((ok, no) => { r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
		const db = await done(indexedDB.open('notes'));
		const log = db.transaction('log').objectStore('log');
		const [first, loop] = [await done(log.get(1)), await done(log.get(4))];
		db.close();
		return first.at instanceof Date && Number.isNaN(first.nan) && 'missing' in first && loop.self === loop;
	}`
	var ok bool
	if err := p.Main().CallJS(ctx, check, &ok); err != nil || !ok {
		t.Errorf("the loaded values are not what the page stored: %v", err)
	}
}

// A database that cannot be made is not made at all, and the load fails
// naming its store and record; a value with no form in a state file (a
// Blob) fails the save, naming its store.
func TestStateIndexedDBRefused(t *testing.T) {
	srv := testbrowser.Serve(t, "testdata")
	p := navPage(t)
	ctx := navCtx(t, 10*time.Second)
	st, err := page.ParseState([]byte(`{"cookies":[],"origins":[{"origin":"` + srv.URL + `","localStorage":[],"indexedDB":[
		{"name":"twice","version":1,"stores":[{"name":"users","autoIncrement":false,"keyPath":"id",
			"indexes":[{"name":"byEmail","keyPath":"email","unique":true,"multiEntry":false}],
			"records":[{"value":{"id":1,"email":"a@x"}},{"value":{"id":2,"email":"a@x"}}]}]}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = page.LoadState(ctx, p, st)
	if err == nil || !strings.Contains(err.Error(), `IndexedDB of `+srv.URL+`: Error: database "twice", store "users", record 1:`) {
		t.Errorf("LoadState of a database that breaks its unique index: %v", err)
	}
	navGoto(t, p, srv.URL+"/nav-a.html", "load")
	if names := navEval[[]string](t, p.Main(), "indexedDB.databases().then((dbs) => dbs.map((d) => d.name))"); slices.Contains(names, "twice") {
		t.Errorf("the database was made in part: %v", names)
	}
	blob := `() => new Promise((ok, no) => {
		const open = indexedDB.open('files', 1);
		open.onupgradeneeded = () => open.result.createObjectStore('uploads').add(new Blob(['x']), 1);
		open.onsuccess = () => { open.result.close(); ok(); };
		open.onerror = () => no(open.error);
	})`
	if err := p.Main().CallJS(ctx, blob, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := page.SaveState(ctx, p, page.SaveOptions{IndexedDB: true}); err == nil || !strings.Contains(err.Error(), `: Error: database "files", store "uploads" holds a Blob`) {
		t.Errorf("SaveState of a Blob: %v", err)
	}
}

// A load that fails in a later origin leaves nothing of the file set:
// its cookies go, the keys of the origins before it have their old
// values again (or none), and the databases it made there go too.
func TestLoadStateTakenBack(t *testing.T) {
	first := testbrowser.Serve(t, "testdata")
	second := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	t.Cleanup(second.Close)
	p := navPage(t)
	ctx := navCtx(t, 10*time.Second)
	navGoto(t, p, first.URL+"/nav-a.html", "load")
	navEval[any](t, p, "localStorage.setItem('kept', 'old'), localStorage.removeItem('added')")
	st, err := page.ParseState([]byte(`{"cookies":[{"name":"sid","value":"1","domain":"127.0.0.1","path":"/","expires":-1,"httpOnly":false,"secure":false,"sameSite":"Lax"}],
		"origins":[
		{"origin":"` + first.URL + `","localStorage":[{"name":"kept","value":"new"},{"name":"added","value":"new"}],
			"indexedDB":[{"name":"made","version":1,"stores":[]}]},
		{"origin":"` + second.URL + `","localStorage":[],"indexedDB":[{"name":"broken","version":1,"stores":[{"name":"s","autoIncrement":false,"keyPath":"id",
			"indexes":[],"records":[{"value":{"id":1}},{"value":{"id":1}}]}]}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	done, err := page.LoadState(ctx, p, st)
	if err == nil || !strings.Contains(err.Error(), "none of the file was left set") || done != (page.LoadedState{}) {
		t.Fatalf("LoadState with a broken database in its second origin: %+v, %v", done, err)
	}
	if u := navEval[string](t, p, "location.href"); u != "about:blank" {
		t.Errorf("LoadState left the tab on %s", u)
	}
	navGoto(t, p, first.URL+"/nav-a.html", "load")
	got := navEval[[]any](t, p.Main(), "indexedDB.databases().then((dbs) => [localStorage.getItem('kept'), localStorage.getItem('added'), dbs.map((d) => d.name), document.cookie])")
	if fmt.Sprint(got) != "[old <nil> [] ]" {
		t.Errorf("after the failed load, [kept, added, databases, cookies] are %v", got)
	}
}
