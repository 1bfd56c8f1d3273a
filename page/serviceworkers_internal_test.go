package page

import (
	"testing"

	"github.com/cdpskill/cdpskill/cdp/proto"
)

// Which version a registration is described by: the active one, with a
// newer one beside it as newVersion; before any is active, the newest.
func TestDescribeServiceWorker(t *testing.T) {
	v := func(id, status, running string, clients ...string) proto.ServiceWorkerVersion {
		return proto.ServiceWorkerVersion{VersionID: id, ScriptURL: "http://a/sw.js?v" + id, Status: status, RunningStatus: running, ControlledClients: clients}
	}
	cases := []struct {
		name string
		vs   []proto.ServiceWorkerVersion
		want ServiceWorker
	}{
		{"active", []proto.ServiceWorkerVersion{v("1", "activated", "running", "TAB")},
			ServiceWorker{ScriptURL: "http://a/sw.js?v1", Status: "activated", Running: true, Controlling: true}},
		{"another tab's", []proto.ServiceWorkerVersion{v("1", "activated", "stopped", "OTHER")},
			ServiceWorker{ScriptURL: "http://a/sw.js?v1", Status: "activated"}},
		{"update waiting", []proto.ServiceWorkerVersion{v("2", "installed", "running"), v("1", "activated", "running", "TAB")},
			ServiceWorker{ScriptURL: "http://a/sw.js?v1", Status: "activated", Running: true, Controlling: true, NewVersion: "installed"}},
		{"first install", []proto.ServiceWorkerVersion{v("3", "new", "starting")},
			ServiceWorker{ScriptURL: "http://a/sw.js?v3", Status: "installing"}},
		{"replaced", []proto.ServiceWorkerVersion{v("9", "activated", "running"), v("10", "redundant", "stopped")},
			ServiceWorker{ScriptURL: "http://a/sw.js?v9", Status: "activated", Running: true}},
		{"all redundant", []proto.ServiceWorkerVersion{v("4", "redundant", "stopped"), v("5", "redundant", "stopped")},
			ServiceWorker{ScriptURL: "http://a/sw.js?v5", Status: "redundant"}},
		{"no live version", nil, ServiceWorker{}},
	}
	for _, tc := range cases {
		got := describe("http://a/", tc.vs, "TAB")
		tc.want.Scope = "http://a/"
		if got != tc.want {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.name, got, tc.want)
		}
	}
	for raw, want := range map[string]string{
		"http://127.0.0.1:8080/app/x?y": "http://127.0.0.1:8080", "https://a.test/": "https://a.test",
		"about:blank": "", "data:text/html,x": "", "file:///tmp/x.html": "",
	} {
		if got := webOrigin(raw); got != want {
			t.Errorf("webOrigin(%q) = %q, want %q", raw, got, want)
		}
	}
}
