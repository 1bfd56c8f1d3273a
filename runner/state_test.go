package runner_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/internal/testbrowser"
)

// loginSites are two sites of their own hosts: one keeps its login in a
// cookie the server sets (HttpOnly, so only the browser's cookie jar
// holds it), the other a token in localStorage, and at /idb a user in
// IndexedDB, as Firebase's auth does. Each page's title says whether it
// is logged in, decided before any script of the agent's runs (at /idb,
// once the database answers: "?" until then).
func loginSites(t *testing.T) (cookieSite, storageSite string) {
	mux := http.NewServeMux()
	mux.HandleFunc("/login", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "sid", Value: "s3cret", Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode})
		io.WriteString(w, "<title>welcome</title>")
	})
	mux.HandleFunc("/home", func(w http.ResponseWriter, r *http.Request) {
		title := "logged out"
		if c, err := r.Cookie("sid"); err == nil && c.Value == "s3cret" {
			title = "logged in"
		}
		fmt.Fprintf(w, "<title>%s</title>", title)
	})
	mux.HandleFunc("/app/login", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<title>app</title><script>localStorage.setItem('token', 't0k3n')</script>`)
	})
	mux.HandleFunc("/app", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<title>?</title><script>document.title = localStorage.getItem('token') === 't0k3n' ? 'logged in' : 'logged out'</script>`)
	})
	mux.HandleFunc("/idb/login", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<title>?</title><script>
			const open = indexedDB.open('auth', 1);
			open.onupgradeneeded = () => open.result.createObjectStore('users', { keyPath: 'uid' })
				.add({ uid: 'u1', token: 't0k3n', since: new Date() });
			open.onsuccess = () => { open.result.close(); document.title = 'saved'; };
		</script>`)
	})
	mux.HandleFunc("/idb", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<title>?</title><script>
			const open = indexedDB.open('auth');
			open.onsuccess = () => {
				const db = open.result;
				if (!db.objectStoreNames.contains('users')) return void (document.title = 'logged out');
				const get = db.transaction('users').objectStore('users').get('u1');
				get.onsuccess = () => {
					const u = get.result;
					document.title = u && u.token === 't0k3n' && u.since instanceof Date ? 'logged in' : 'logged out';
				};
			};
		</script>`)
	})
	a, b := httptest.NewServer(mux), httptest.NewServer(mux)
	t.Cleanup(a.Close)
	t.Cleanup(b.Close)
	return strings.Replace(a.URL, "127.0.0.1", "localhost", 1), b.URL
}

// A login saved in one session is loaded into fresh ones, each a browser
// context of its own with no cookie or storage: the first navigation
// lands logged in, by cookie and by localStorage, and the storage of an
// origin other than the first page's is there too. The storage site's
// login is saved though the tab had left it for the cookie site.
func TestStateSavedAndLoaded(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	cookieSite, storageSite := loginSites(t)
	b := chromium(t)
	a := c.session(t, "saver")
	tb := a.openTab(t, cookieSite+"/login")
	file := filepath.Join(c.tmp, "login.json")
	outs := a.call(t, tb, fmt.Sprintf(`{"goto":%q},{"goto":%q},{"saveState":%q}`, storageSite+"/app/login", cookieSite+"/home", file))
	if outs[1]["title"] != "logged in" {
		t.Fatalf("the cookie site's login did not take: %v", outs[1])
	}
	if got := outs[2]; got["path"] != file || got["cookies"] != 1.0 || got["origins"] != 1.0 {
		t.Errorf("saveState: %v", got)
	}
	st, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("the state file is %v, want 0600", st.Mode().Perm())
	}
	data, _ := os.ReadFile(file)
	var saved struct {
		Cookies []map[string]any `json:"cookies"`
		Origins []struct {
			Origin       string              `json:"origin"`
			LocalStorage []map[string]string `json:"localStorage"`
		} `json:"origins"`
	}
	if err := json.Unmarshal(data, &saved); err != nil {
		t.Fatal(err)
	}
	ck := saved.Cookies[0]
	if ck["name"] != "sid" || ck["domain"] != "localhost" || ck["path"] != "/" || ck["expires"] != -1.0 ||
		ck["httpOnly"] != true || ck["secure"] != false || ck["sameSite"] != "Lax" {
		t.Errorf("the cookie is not written as Playwright writes it: %s", data)
	}
	if o := saved.Origins[0]; o.Origin != storageSite || len(o.LocalStorage) != 1 ||
		o.LocalStorage[0]["name"] != "token" || o.LocalStorage[0]["value"] != "t0k3n" {
		t.Errorf("the origins are not written as Playwright writes them: %s", data)
	}

	// Its first navigation lands logged in by localStorage.
	fresh := c.session(t, "storage")
	res, code := fresh.run(fmt.Sprintf(`{"steps":[{"openTab":{"url":%q,"state":%q,"host":%q,"port":%d}}]}`, storageSite+"/app", file, b.Endpoint.Host, b.Endpoint.Port))
	if out := stepOutputs(t, res)[0]["output"]; code != 0 || out.(map[string]any)["title"] != "logged in" {
		t.Fatalf("openTab with the state, on the storage site: %v", res)
	}
	// And by cookie; then on the other origin, not visited before.
	fresh = c.session(t, "cookie")
	res, code = fresh.run(fmt.Sprintf(`{"steps":[{"openTab":{"url":%q,"state":%q,"host":%q,"port":%d}},{"goto":%q}]}`, cookieSite+"/home", file, b.Endpoint.Host, b.Endpoint.Port, storageSite+"/app"))
	if code != 0 {
		t.Fatalf("openTab with the state, on the cookie site: %v", res)
	}
	if outs := stepOutputs(t, res); outs[0]["output"].(map[string]any)["title"] != "logged in" || outs[1]["output"].(map[string]any)["title"] != "logged in" {
		t.Errorf("openTab with the state, on the cookie site, then the storage site: %v", res)
	}

	// loadState on a tab already on a page brings it back there, now
	// logged in.
	later := c.session(t, "later")
	tb = later.openTab(t, cookieSite+"/home")
	outs = later.call(t, tb, fmt.Sprintf(`{"loadState":%q},{"getTitle":true}`, file))
	if got := outs[0]; got["cookies"] != 1.0 || got["origins"] != 1.0 {
		t.Errorf("loadState: %v", got)
	}
	if outs[1]["title"] != "logged in" {
		t.Errorf("after loadState the page is %v", outs[1])
	}
}

// A login saved in one browser is loaded into a freshly launched one,
// which has never seen the sites: the first navigation to each lands
// logged in, by its cookie, its localStorage and its IndexedDB, all
// saved after the tab had left the storage site.
func TestStateIntoFreshBrowser(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	cookieSite, storageSite := loginSites(t)
	saver := c.session(t, "saver")
	tb := saver.openTab(t, storageSite+"/idb/login")
	file := filepath.Join(c.tmp, "login.json")
	saver.call(t, tb, fmt.Sprintf(`{"poll":"() => document.title === 'saved'"},{"goto":%q},{"goto":%q},{"goto":%q},{"saveState":{"path":%q,"indexedDB":true}}`,
		storageSite+"/app/login", cookieSite+"/login", cookieSite+"/home", file))

	fresh, err := testbrowser.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fresh.Stop)
	at := fmt.Sprintf(`"host":%q,"port":%d`, fresh.Endpoint.Host, fresh.Endpoint.Port)
	res, code := c.run(fmt.Sprintf(`{"steps":[{"openTab":{"url":%q,"state":%q,%s}},{"goto":%q},{"goto":%q},{"poll":"() => document.title !== '?'"},{"getTitle":true}]}`,
		storageSite+"/app", file, at, cookieSite+"/home", storageSite+"/idb"))
	if code != 0 {
		t.Fatalf("openTab with the state in a fresh browser: %v", res)
	}
	outs := stepOutputs(t, res)
	t.Cleanup(func() { c.run(fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, res["tab"])) })
	for i, by := range map[int]string{0: "localStorage", 1: "cookie", 4: "IndexedDB"} {
		if title := outs[i]["output"].(map[string]any)["title"]; title != "logged in" {
			t.Errorf("by %s, the first navigation landed %v", by, title)
		}
	}
	// The fresh browser knew none of it: a session of its own there is
	// logged out.
	control := c.session(t, "control")
	res, code = control.run(fmt.Sprintf(`{"steps":[{"openTab":{"url":%q,%s}}]}`, cookieSite+"/home", at))
	if code != 0 || stepOutputs(t, res)[0]["output"].(map[string]any)["title"] != "logged out" {
		t.Errorf("a fresh session without the state: %v", res)
	}
}

// A state file that is missing, not JSON or not a storageState stops the
// batch before anything runs, naming the problem.
func TestStateFileRefused(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct{ path, says string }{
		{filepath.Join(dir, "none.json"), "does not exist"},
		{write("bad.json", `{"cookies": [`), "is not JSON"},
		{write("har.json", `{"log": {"entries": []}}`), `unknown field "log"`},
		{write("half.json", `{"cookies": []}`), `needs "cookies" and "origins" arrays`},
		{write("samesite.json", `{"cookies": [{"name":"a","value":"b","domain":"x.com","path":"/","expires":-1,"httpOnly":false,"secure":false,"sameSite":"Sometimes"}], "origins": []}`), `sameSite "Sometimes"`},
		{write("origin.json", `{"cookies": [], "origins": [{"origin":"x.com/login","localStorage":[]}]}`), `origin "x.com/login"`},
		{dir, "cannot read state file"},
	} {
		for _, step := range []string{fmt.Sprintf(`{"loadState":%q}`, tc.path), fmt.Sprintf(`{"openTab":{"state":%q}}`, tc.path)} {
			res, code := c.run(fmt.Sprintf(`{"tab":"t1","steps":[%s]}`, step))
			if typ, msg := errorOf(res); code != 1 || typ != "VALIDATION" || !strings.Contains(msg, tc.says) {
				t.Errorf("%s: %v (want it to say %q)", step, res, tc.says)
			}
		}
	}
}
