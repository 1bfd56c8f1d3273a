package aria_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/aria"
	"github.com/cdpskill/cdpskill/internal/testbrowser"
	"github.com/cdpskill/cdpskill/page"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// portRE finds the test servers' ports, which change from run to run.
var portRE = regexp.MustCompile(`(127\.0\.0\.1|localhost):[0-9]+`)

// open loads testdata/<fixture> in a fresh tab.
func open(t *testing.T, fixture string) *page.Page {
	t.Helper()
	return openIn(t, "testdata", fixture)
}

// openIn loads dir/file in a fresh tab.
func openIn(t *testing.T, dir, file string) *page.Page {
	t.Helper()
	s := browser.NewTab(t)
	srv := testbrowser.Serve(t, dir)
	testbrowser.Navigate(t, s, srv.URL+"/"+file)
	return page.New(s)
}

func snap(t *testing.T, p *page.Page, opts aria.Options) *aria.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	res, err := aria.Snapshot(ctx, p, opts)
	if err != nil {
		t.Fatalf("Snapshot(%+v): %v", opts, err)
	}
	return res
}

// golden compares got with testdata/<name>.golden, or rewrites it under
// -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		got = portRE.ReplaceAllString(got, "$1:PORT")
		if err := os.WriteFile(path, []byte(got+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./aria/ -update to create it)", err)
	}
	got = portRE.ReplaceAllString(got, "$1:PORT")
	if got+"\n" != string(want) {
		t.Errorf("snapshot differs from %s (-update rewrites it)\n--- got:\n%s\n--- want:\n%s", path, got, want)
	}
}

func TestGolden(t *testing.T) {
	f := false
	cases := []struct {
		name, fixture string
		opts          aria.Options
	}{
		{"landmarks", "landmarks.html", aria.Options{}},
		{"landmarks_body", "landmarks.html", aria.Options{Root: "body"}},
		{"landmarks_nav", "landmarks.html", aria.Options{Root: `role=navigation "legal"`}},
		{"landmarks_interactive", "landmarks.html", aria.Options{Root: "body", Detail: aria.DetailInteractive}},
		{"landmarks_summary", "landmarks.html", aria.Options{Detail: aria.DetailSummary}},
		{"form", "form.html", aria.Options{}},
		{"form_interactive", "form.html", aria.Options{Detail: aria.DetailInteractive}},
		{"hidden", "hidden.html", aria.Options{}},
		{"react", "react.html", aria.Options{}},
		{"react_notext", "react.html", aria.Options{IncludeText: &f, Mode: aria.ModePlain}},
		{"structure", "structure.html", aria.Options{}},
		{"structure_maxdepth", "structure.html", aria.Options{MaxDepth: 2}},
		{"structure_maxelements", "structure.html", aria.Options{MaxElements: 12}},
		{"structure_maxname", "structure.html", aria.Options{MaxNameLength: 12}},
		{"long_viewport", "long.html", aria.Options{ViewportOnly: true, Detail: aria.DetailInteractive}},
		{"roles", "roles.html", aria.Options{}},
		{"roles_interactive", "roles.html", aria.Options{Detail: aria.DetailInteractive}},
		{"roles_summary", "roles.html", aria.Options{Detail: aria.DetailSummary}},
		{"shadow", "shadow.html", aria.Options{}},
		{"shadow_light", "shadow.html", aria.Options{PierceShadow: ptr(false)}},
		{"shadow_pierce", "shadow.html", aria.Options{PierceShadow: ptr(true)}},
		{"frames", "frames.html", aria.Options{}},
		{"frames_include", "frames.html", aria.Options{IncludeFrames: true}},
		{"frames_include_interactive", "frames.html", aria.Options{IncludeFrames: true, Detail: aria.DetailInteractive}},
		{"frameset", "frameset.html", aria.Options{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := open(t, c.fixture)
			golden(t, c.name, snap(t, p, c.opts).YAML)
		})
	}
}
