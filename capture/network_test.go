package capture_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/testbrowser"
	"github.com/cdpskill/cdpskill/page"
)

// apiServer serves testdata and the endpoints fetches.html calls.
func apiServer(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir("testdata")))
	mux.HandleFunc("/api/ok", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"ok":true}`)
	})
	mux.HandleFunc("/api/missing", http.NotFound)
	mux.HandleFunc("/api/broken", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "boom", http.StatusInternalServerError)
	})
	// /api/slow answers after ms milliseconds, its headers first when
	// stream is set, and tells served its name once it has.
	mux.HandleFunc("/api/slow", func(w http.ResponseWriter, r *http.Request) {
		ms, _ := strconv.Atoi(r.URL.Query().Get("ms"))
		if r.URL.Query().Has("stream") {
			w.WriteHeader(http.StatusCreated)
			w.(http.Flusher).Flush()
		}
		select {
		case <-time.After(time.Duration(ms) * time.Millisecond):
			fmt.Fprint(w, "done")
			w.(http.Flusher).Flush()
		case <-r.Context().Done():
		}
		if name := r.URL.Query().Get("name"); name != "" {
			close(servedChan(name + r.URL.Query().Get("run")))
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// servedNames holds, by name, a channel closed when the server has ended
// the /api/slow request of that name.
var servedNames sync.Map

func servedChan(name string) chan struct{} {
	ch, _ := servedNames.LoadOrStore(name, make(chan struct{}))
	return ch.(chan struct{})
}

// awaitServedName waits until the server has ended the request called name.
func awaitServedName(t *testing.T, name string) {
	t.Helper()
	select {
	case <-servedChan(name):
	case <-time.After(10 * time.Second):
		t.Fatalf("the server never ended %s", name)
	}
}

// deadURL is a loopback address nothing listens on.
func deadURL(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/gone"
}

func startNetwork(t *testing.T, ctx context.Context, s *cdp.Session) *capture.Network {
	t.Helper()
	n, err := capture.StartNetwork(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(n.Close)
	return n
}

// fetchPage opens fetches.html with the network capture already running.
func fetchPage(t *testing.T) (*cdp.Session, context.Context, *capture.Network, *httptest.Server) {
	srv := apiServer(t)
	s := browser.NewTab(t)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	t.Cleanup(cancel)
	n := startNetwork(t, ctx, s)
	testbrowser.Navigate(t, s, srv.URL+"/fetches.html")
	return s, ctx, n, srv
}

func evalAwait(t *testing.T, ctx context.Context, s *cdp.Session, expr string) string {
	t.Helper()
	raw, err := proto.RuntimeEvaluate{Expression: expr, AwaitPromise: true, ReturnByValue: true}.Raw(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

func byPath(reqs []capture.Request) map[string]capture.Request {
	out := map[string]capture.Request{}
	for _, r := range reqs {
		u := r.URL
		if i := strings.Index(u, "//"); i >= 0 {
			u = u[i+2:]
			u = u[strings.IndexByte(u, '/'):]
		}
		out[r.Method+" "+u] = r
	}
	return out
}

func TestNetworkRecordsRequests(t *testing.T) {
	s, ctx, n, _ := fetchPage(t)
	dead := deadURL(t)
	t.Log(evalAwait(t, ctx, s, fmt.Sprintf("fetchAll(%q)", dead)))
	if err := n.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	got := byPath(n.Requests())

	doc := got["GET /fetches.html"]
	if doc.Status != 200 || doc.Type != "Document" || doc.MimeType != "text/html" || doc.Pending {
		t.Errorf("document: %+v", doc)
	}
	ok := got["GET /api/ok"]
	if ok.Status != 200 || ok.Type != "Fetch" || ok.MimeType != "application/json" || ok.Pending || ok.Error != "" {
		t.Errorf("ok: %+v", ok)
	}
	if ok.Start < time.Now().Add(-time.Minute).UnixMilli() || ok.Ms < ok.ResponseMs {
		t.Errorf("ok timing: start %d, response %d ms, done %d ms", ok.Start, ok.ResponseMs, ok.Ms)
	}
	if r := got["GET /api/missing"]; r.Status != 404 || !r.Failed() {
		t.Errorf("missing: %+v", r)
	}
	if r := got["GET /api/broken"]; r.Status != 500 || !r.Failed() {
		t.Errorf("broken: %+v", r)
	}
	if r := got["GET /gone"]; !strings.Contains(r.Error, "ERR_CONNECTION_REFUSED") || r.Status != 0 || r.Pending {
		t.Errorf("dead: %+v", r)
	}

	if ok.Decoded != int64(len(`{"ok":true}`)) || ok.Transferred <= ok.Decoded {
		t.Errorf("ok sizes: decoded %d, transferred %d", ok.Decoded, ok.Transferred)
	}

	rep := n.Report(0, "")
	if rep == nil {
		t.Fatal("no report")
	}
	// The page's own requests, by path on its origin: the document and
	// its fetches, not its favicon.
	okLine := regexp.MustCompile(`^GET /api/ok 200 \d+ms 11B$`)
	if len(rep.Requests) < 5 || rep.Requests[0] != fmt.Sprintf("GET /fetches.html 200 %dms %dB", doc.Ms, doc.Decoded) || !okLine.MatchString(rep.Requests[1]) {
		t.Errorf("requests: %q", rep.Requests)
	}
	if !slices.Contains(rep.Requests, "GET "+dead+" net::ERR_CONNECTION_REFUSED") {
		t.Errorf("the failed request, with its whole URL on another origin: %q", rep.Requests)
	}
	var lines []string
	for _, f := range rep.Errors {
		lines = append(lines, fmt.Sprintf("%s %d %s", f.URL[strings.LastIndexByte(f.URL, '/'):], f.Status, f.Error))
	}
	want := []string{"/missing 404 ", "/broken 500 ", "/gone 0 net::ERR_CONNECTION_REFUSED"}
	if !slices.Equal(lines, want) {
		t.Errorf("report:\n got %q\nwant %q", lines, want)
	}
}

func TestNetworkReportGroupsRepeats(t *testing.T) {
	s, ctx, n, _ := fetchPage(t)
	evalAwait(t, ctx, s, "Promise.all([1,2,3].map(() => fetch('/api/missing').then(r => r.text()))).then(() => post())")
	n.Flush(ctx)
	rep := n.Report(0, "")
	if rep == nil || len(rep.Errors) != 1 || rep.Errors[0].Count != 3 || rep.Errors[0].Method != "" {
		t.Errorf("report: %+v", rep)
	}
	if got := byPath(n.Requests())["POST /api/ok"]; got.Status != 200 {
		t.Errorf("post: %+v", got)
	}
}

func TestNetworkClear(t *testing.T) {
	s, ctx, n, _ := fetchPage(t)
	n.Flush(ctx)
	n.Clear()
	evalAwait(t, ctx, s, "fetch('/api/ok').then(r => r.text())")
	n.Flush(ctx)
	reqs := slices.DeleteFunc(n.Requests(), func(r capture.Request) bool { return strings.HasSuffix(r.URL, "/favicon.ico") })
	if len(reqs) != 1 || !strings.HasSuffix(reqs[0].URL, "/api/ok") {
		t.Errorf("after Clear: %+v", reqs)
	}
}

// The log carries requests from one call (process) to the next, and only
// those of its own tab.
func TestNetworkLogAcrossSessions(t *testing.T) {
	s, ctx, n, srv := fetchPage(t)
	log := capture.NetworkLog{Path: filepath.Join(t.TempDir(), "t1.network.jsonl"), Target: s.TargetID}
	evalAwait(t, ctx, s, "fetch('/api/missing').then(r => r.text())")
	n.Flush(ctx)
	if err := n.Save(ctx, log, true, nil); err != nil {
		t.Fatal(err)
	}
	if err := n.Save(ctx, log, true, nil); err != nil { // nothing new: no duplicates
		t.Fatal(err)
	}

	s2, err := proto.Attach(ctx, browser.Conn, s.TargetID)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { proto.Detach(context.Background(), s2) })
	n2 := startNetwork(t, ctx, s2)
	evalAwait(t, ctx, s2, "fetch('/api/ok').then(r => r.text())")
	n2.Flush(ctx)
	if err := n2.Save(ctx, log, false, nil); err != nil {
		t.Fatal(err)
	}
	logged, err := log.Read()
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, r := range logged {
		if p := strings.TrimPrefix(r.URL, srv.URL); p != "/favicon.ico" { // Chrome asks for it when it likes
			paths = append(paths, p)
		}
	}
	if want := []string{"/fetches.html", "/api/missing", "/api/ok"}; !slices.Equal(paths, want) {
		t.Errorf("log holds %q, want %q", paths, want)
	}
	other := capture.NetworkLog{Path: log.Path, Target: "another-target"}
	if reqs, _ := other.Read(); len(reqs) != 0 {
		t.Errorf("another target's log read %d requests", len(reqs))
	}
	if err := log.Clear(); err != nil {
		t.Fatal(err)
	}
	if reqs, _ := log.Read(); len(reqs) != 0 {
		t.Errorf("after Clear: %d", len(reqs))
	}
}

func TestNetworkLogKeepsTheNewest(t *testing.T) {
	log := capture.NetworkLog{Path: filepath.Join(t.TempDir(), "x.network.jsonl"), Target: "T"}
	for batch := range 3 {
		var reqs []capture.Request
		for i := range 400 {
			reqs = append(reqs, capture.Request{URL: fmt.Sprintf("http://x/%d", batch*400+i), Method: "GET"})
		}
		if err := log.Append(reqs); err != nil {
			t.Fatal(err)
		}
	}
	got, err := log.Read()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != capture.MaxLogRequests || got[0].URL != "http://x/200" || got[len(got)-1].URL != "http://x/1199" {
		t.Errorf("kept %d: %s … %s", len(got), got[0].URL, got[len(got)-1].URL)
	}
	// A damaged line costs only itself.
	f, _ := os.OpenFile(log.Path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("{not json\n")
	f.Close()
	if got, _ := log.Read(); len(got) != capture.MaxLogRequests {
		t.Errorf("a bad line lost requests: %d", len(got))
	}
}

func TestNetworkView(t *testing.T) {
	reqs := []capture.Request{
		{URL: "http://a.test/index.html", Method: "GET", Status: 200, Type: "Document"},
		{URL: "http://a.test/api/users", Method: "GET", Status: 200, Type: "Fetch"},
		{URL: "http://a.test/api/missing", Method: "GET", Status: 404, Type: "XHR"},
		{URL: "http://a.test/api/broken", Method: "POST", Status: 503, Type: "Fetch"},
		{URL: "http://b.test/x.js", Method: "GET", Type: "Script", Error: "net::ERR_NAME_NOT_RESOLVED"},
	}
	// Durations and sizes for the orders: broken is still under way, since
	// 900 ms before the step.
	for i, ms := range []int{120, 40, 300, 0, 10} {
		reqs[i].Ms, reqs[i].Start, reqs[i].Decoded = ms, 1000, int64(100*i)
	}
	reqs[0].Transferred = 5000 // a document's headers and compressed body
	reqs[3].Pending, reqs[3].Start = true, 9100
	must := func(f *capture.URLFilter, err error) *capture.URLFilter {
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	status := func(s string) *capture.StatusRange {
		r, err := capture.ParseStatus(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	types, _ := capture.ParseTypes("fetch, XHR")
	cases := []struct {
		name string
		q    capture.NetworkQuery
		want []string
	}{
		{"all", capture.NetworkQuery{}, []string{"index.html", "users", "missing", "broken", "x.js"}},
		{"substring", capture.NetworkQuery{URL: must(capture.ParseURLFilter("/api/"))}, []string{"users", "missing", "broken"}},
		{"regex", capture.NetworkQuery{URL: must(capture.ParseURLFilter(`/^http:\/\/b\./`))}, []string{"x.js"}},
		{"class", capture.NetworkQuery{Status: status("4xx")}, []string{"missing"}},
		{"code", capture.NetworkQuery{Status: status("503")}, []string{"broken"}},
		{"failed", capture.NetworkQuery{Failed: true}, []string{"missing", "broken", "x.js"}},
		{"types", capture.NetworkQuery{Types: types}, []string{"users", "missing", "broken"}},
		{"limit", capture.NetworkQuery{Limit: 2}, []string{"broken", "x.js"}},
		{"slowest", capture.NetworkQuery{Sort: capture.SortSlowest, Now: 10000}, []string{"broken", "missing", "index.html", "users", "x.js"}},
		{"largest", capture.NetworkQuery{Sort: capture.SortLargest, Limit: 3}, []string{"index.html", "x.js", "broken"}},
	}
	for _, tc := range cases {
		v, err := capture.NewNetworkView(reqs, tc.q, filepath.Join(t.TempDir(), "n.json"))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range v.Requests {
			got = append(got, r.URL[strings.LastIndexByte(r.URL, '/')+1:])
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
	empty, _ := capture.NewNetworkView(nil, capture.NetworkQuery{}, filepath.Join(t.TempDir(), "n.json"))
	if data, _ := json.Marshal(empty); string(data) != `{"total":0,"showing":0,"requests":[]}` {
		t.Errorf("empty listing: %s", data)
	}
	for _, bad := range []string{"4x", "700", "abc", "99"} {
		if _, err := capture.ParseStatus(bad); err == nil {
			t.Errorf("status %q accepted", bad)
		}
	}
	if _, err := capture.ParseURLFilter("/a(/"); err == nil {
		t.Error("a bad regex accepted")
	}
	if _, err := capture.ParseTypes("fetch,bogus"); err == nil {
		t.Error("an unknown type accepted")
	}
}

func TestNetworkViewSpills(t *testing.T) {
	var reqs []capture.Request
	for i := range 200 {
		reqs = append(reqs, capture.Request{URL: fmt.Sprintf("http://a.test/%03d/%s", i, strings.Repeat("p", 400)), Method: "GET", Status: 200})
	}
	spill := filepath.Join(t.TempDir(), "t1.network.json")
	v, err := capture.NewNetworkView(reqs, capture.NetworkQuery{Limit: 100}, spill)
	if err != nil {
		t.Fatal(err)
	}
	if v.File != spill || v.Total != 200 || v.Showing != 100 || len(v.Requests) == 0 || len(v.Requests) > 20 {
		t.Fatalf("file %q total %d showing %d inline %d", v.File, v.Total, v.Showing, len(v.Requests))
	}
	var file []capture.Request
	data, _ := os.ReadFile(spill)
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file) != 100 || file[0].URL != reqs[100].URL || file[99].URL != reqs[199].URL {
		t.Errorf("file has %d requests", len(file))
	}
}

// A request still under way when a call ends is ended by a later call:
// from the events Chrome sends that call's capture for it, or, when it
// ended between calls, from the page's timing records; one whose page is
// gone ended unseen. An answered request still receiving its body shows
// its status and receiving, never pending.
func TestNetworkLogEndsRequestsAcrossCalls(t *testing.T) {
	s, ctx, n, srv := fetchPage(t)
	log := capture.NetworkLog{Path: filepath.Join(t.TempDir(), "t1.network.jsonl"), Target: s.TargetID}
	run := strconv.FormatInt(time.Now().UnixNano(), 36) // -count=2 must not hear the first run's ends
	awaitServed := func(t *testing.T, name string) { awaitServedName(t, name+run) }
	evalAwait(t, ctx, s, fmt.Sprintf(`['gap&ms=300', 'late&ms=2500', 'stream&ms=300&stream=1'].forEach(q => fetch('/api/slow?name=' + q + '&run=%s').then(r => r.text())); 0`, run))
	waitFor(t, ctx, n, func(reqs map[string]capture.Request) bool {
		return len(reqs) == 3 && reqs["stream"].Status == 201
	})
	if err := n.Save(ctx, log, true, nil); err != nil {
		t.Fatal(err)
	}
	first := slowRequests(t, log)
	if r := first["gap"]; !r.Pending || r.Status != 0 || r.Receiving {
		t.Errorf("in flight at the end: %+v", r)
	}
	if r := first["stream"]; r.Pending || r.Status != 201 || !r.Receiving {
		t.Errorf("answered, body still coming: %+v", r)
	}
	n.Close()

	// Between calls: gap and stream end unseen; late ends in the next call.
	awaitServed(t, "gap")
	awaitServed(t, "stream")
	s2 := attachAgain(t, ctx, s)
	n2 := startNetwork(t, ctx, s2)
	awaitServed(t, "late")
	// The server has answered; Chrome's events and timing records follow.
	var second map[string]capture.Request
	for {
		if err := n2.Save(ctx, log, false, page.New(s2)); err != nil {
			t.Fatal(err)
		}
		second = slowRequests(t, log)
		late, gap, stream := second["late"], second["gap"], second["stream"]
		if late.Done() && gap.Done() && stream.Done() {
			break
		}
		if err := n2.WaitEvent(ctx); err != nil {
			t.Fatalf("requests still under way: %+v", second)
		}
	}
	if r := second["late"]; !r.Done() || r.Status != 200 || r.Ms < 2500 || r.From != "network" || r.Note != "" {
		t.Errorf("ended in the next call: %+v", r)
	}
	if r := second["gap"]; !r.Done() || r.Status != 200 || r.Ms < 300 || r.From != "network" || r.Note != "" {
		t.Errorf("ended between calls: %+v", r)
	}
	if r := second["stream"]; !r.Done() || r.Status != 201 || r.Ms < 300 {
		t.Errorf("stream ended between calls: %+v", r)
	}

	// A request whose page is left between calls ended unseen.
	evalAwait(t, ctx, s2, `fetch('/api/slow?name=left&ms=3000').then(r => r.text()); 0`)
	waitFor(t, ctx, n2, func(reqs map[string]capture.Request) bool { _, ok := reqs["left"]; return ok })
	if err := n2.Save(ctx, log, true, nil); err != nil {
		t.Fatal(err)
	}
	n2.Close()
	testbrowser.Navigate(t, s2, srv.URL+"/fetches.html?again")
	s3 := attachAgain(t, ctx, s)
	n3 := startNetwork(t, ctx, s3)
	if err := n3.Save(ctx, log, false, page.New(s3)); err != nil {
		t.Fatal(err)
	}
	if r := slowRequests(t, log)["left"]; !r.Done() || r.Status != 0 || r.Note == "" {
		t.Errorf("its page left: %+v", r)
	}
}

func attachAgain(t *testing.T, ctx context.Context, s *cdp.Session) *cdp.Session {
	t.Helper()
	s2, err := proto.Attach(ctx, browser.Conn, s.TargetID)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { proto.Detach(context.Background(), s2) })
	return s2
}

// slowRequests reads the log's /api/slow requests by name.
func slowRequests(t *testing.T, log capture.NetworkLog) map[string]capture.Request {
	t.Helper()
	reqs, err := log.Read()
	if err != nil {
		t.Fatal(err)
	}
	return byName(reqs)
}

func byName(reqs []capture.Request) map[string]capture.Request {
	out := map[string]capture.Request{}
	for _, r := range reqs {
		if _, q, ok := strings.Cut(r.URL, "/api/slow?name="); ok {
			name, _, _ := strings.Cut(q, "&")
			out[name] = r
		}
	}
	return out
}

// waitFor polls the capture's /api/slow requests until ok holds.
func waitFor(t *testing.T, ctx context.Context, n *capture.Network, ok func(map[string]capture.Request) bool) {
	t.Helper()
	for {
		n.Flush(ctx)
		if ok(byName(n.Requests())) {
			return
		}
		if err := n.WaitEvent(ctx); err != nil {
			t.Fatalf("waiting for requests: %v", err)
		}
	}
}
