package runner

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/internal/private"
)

// decodeCase is one step parameter and what its decoder must make of it:
// an error containing every want, or (want empty) success.
type decodeCase struct {
	step, raw string
	want      []string
}

func runDecodeCases(t *testing.T, cases []decodeCase) {
	t.Helper()
	for _, tc := range cases {
		_, err := stepByName(tc.step).decode(json.RawMessage(tc.raw), capture.Files{})
		switch {
		case len(tc.want) == 0 && err != nil:
			t.Errorf("%s %s: %v", tc.step, tc.raw, err)
		case len(tc.want) > 0 && err == nil:
			t.Errorf("%s %s: accepted", tc.step, tc.raw)
		case err != nil:
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s %s: %q lacks %q", tc.step, tc.raw, err, w)
				}
			}
		}
	}
}

func TestDecodeCaptureSteps(t *testing.T) {
	runDecodeCases(t, []decodeCase{
		{"screenshot", `true`, nil},
		{"screenshot", `"shot.png"`, nil},
		{"screenshot", `{"fullPage":true,"format":"jpeg","quality":70}`, nil},
		{"screenshot", `{"clip":{"x":0,"y":2000,"width":100,"height":50}}`, nil},
		{"screenshot", `{"selector":"#hero","padding":8,"omitBackground":true}`, nil},
		{"screenshot", `{"ref":"s1e4"}`, nil},
		{"screenshot", `false`, []string{"expected true or an object"}},
		{"screenshot", `{"fullpage":true}`, []string{`did you mean "fullPage"`}},
		{"screenshot", `{"format":"gif"}`, []string{"png, jpeg or webp"}},
		{"screenshot", `{"path":"a.png","format":"jpeg"}`, []string{"does not match"}},
		{"screenshot", `{"path":"a.bmp"}`, []string{".bmp"}},
		{"screenshot", `{"quality":50}`, []string{"jpeg and webp"}},
		{"screenshot", `{"format":"webp","quality":101}`, []string{"between 0 and 100"}},
		{"screenshot", `{"fullPage":true,"clip":{"x":0,"y":0,"width":1,"height":1}}`, []string{"not both"}},
		{"screenshot", `{"clip":{"x":0,"y":0,"width":0,"height":1}}`, []string{"positive"}},
		{"screenshot", `{"selector":"#a","ref":"s1e1"}`, []string{"not both"}},
		{"screenshot", `{"selector":"#a","fullPage":true}`, []string{"element"}},
		{"screenshot", `{"padding":5}`, []string{"padding"}},
		{"screenshot", `{"annotate":true,"fullPage":true,"format":"jpeg","quality":60}`, nil},
		{"screenshot", `{"annotate":true,"path":"a.webp"}`, []string{`"annotate" draws on png and jpeg`}},
		{"screenshot", `{"annotated":true}`, []string{`did you mean "annotate"`}},

		{"pdf", `true`, nil},
		{"pdf", `"report.pdf"`, nil},
		{"pdf", `{"landscape":true,"pageRanges":"1-2, 4","marginTop":0,"scale":0.5,"printBackground":false}`, nil},
		{"pdf", `{"scale":5}`, []string{"scale"}},
		{"pdf", `{"pageRanges":"3-1"}`, []string{"pageRanges"}},
		{"pdf", `{"margin":1}`, []string{`unknown parameter "margin"`}},
		{"pdf", `42`, []string{"expected true or an object"}},

		{"console", `true`, nil},
		{"console", `{"limit":10,"level":"warn,error","type":"exception","since":1700000000000,"stackTrace":true,"clear":true}`, nil},
		{"console", `{"level":"fatal"}`, []string{"unknown level"}},
		{"console", `{"type":"log"}`, []string{"console or exception"}},
		{"console", `{"limit":-1}`, []string{"limit"}},
		{"console", `{"levle":"error"}`, []string{`did you mean "level"`}},

		{"network", `true`, nil},
		{"network", `{"limit":5,"filter":"/api/","status":"4xx","failed":true,"type":"fetch,xhr"}`, nil},
		{"network", `{"clear":true}`, nil},
		{"network", `{"clear":true,"failed":true}`, []string{"separate network step"}},
		{"network", `{"status":404}`, nil},
		{"network", `{"filter":"/a(/"}`, []string{"regular expression"}},
		{"network", `{"status":"4x"}`, []string{"status"}},
		{"network", `{"type":"ajax"}`, []string{"unknown request type"}},
		{"network", `{"offline":true}`, nil},
		{"network", `{"throttle":"Slow_3G"}`, nil},
		{"network", `{"throttle":{"latency":100,"download":50000}}`, nil},
		{"network", `{"throttle":"off","offline":false}`, nil},
		{"network", `{"throttle":false}`, nil},
		{"network", `{"throttle":"slow-3gg"}`, []string{`did you mean "slow-3g"`}},
		{"network", `{"throttle":{"latncy":100}}`, []string{`did you mean "latency"`}},
		{"network", `{"throttle":{"latency":-1}}`, []string{"at least 0"}},
		{"network", `{"offline":true,"limit":5}`, []string{"separate network step"}},

		{"serviceWorker", `true`, nil},
		{"serviceWorker", `{"unregister":true}`, nil},
		{"serviceWorker", `{"unregister":"/app/"}`, nil},
		{"serviceWorker", `{"update":"http://localhost:8080/"}`, nil},
		{"serviceWorker", `false`, []string{"expected true or an object"}},
		{"serviceWorker", `{}`, []string{"say what to do"}},
		{"serviceWorker", `{"unregister":true,"update":true}`, []string{"one of"}},
		{"serviceWorker", `{"unregister":false}`, []string{"takes true", "a boolean"}},
		{"serviceWorker", `{"update":""}`, []string{"takes true"}},
		{"serviceWorker", `{"unregistr":true}`, []string{`did you mean "unregister"`}},
	})
}

// Paths: a bare name goes to $TMPDIR/cdp-skill, other paths are made
// absolute from the call's working directory, and the format's extension
// is added when missing.
func TestDecodeCapturePaths(t *testing.T) {
	tmp, wd := t.TempDir(), t.TempDir()
	files := capture.Files{Temp: private.Temp(tmp), WorkDir: wd}
	for raw, want := range map[string]string{
		`"shot"`:                           filepath.Join(tmp, "cdp-skill", "shot.png"),
		`{"path":"x.jpg"}`:                 filepath.Join(tmp, "cdp-skill", "x.jpg"),
		`{"path":"out/x","format":"webp"}`: filepath.Join(wd, "out", "x.webp"),
		`{"path":"/abs/y.png"}`:            "/abs/y.png",
	} {
		p, err := decodeScreenshot(json.RawMessage(raw), files)
		if err != nil || p.Path != want {
			t.Errorf("%s: path %q (%v), want %q", raw, p.Path, err, want)
		}
	}
	p, _ := decodeScreenshot(json.RawMessage(`{"path":"x.jpg"}`), capture.Files{})
	if p.Format != "jpeg" {
		t.Errorf("format from .jpg: %q", p.Format)
	}
	pdf, err := decodePDF(json.RawMessage(`"report"`), files)
	if err != nil || pdf.Path != filepath.Join(tmp, "cdp-skill", "report.pdf") {
		t.Errorf("pdf path %q (%v)", pdf.Path, err)
	}
	if p, _ := decodeScreenshot(json.RawMessage(`{"selector":"s2e7"}`), capture.Files{}); p.Ref != "s2e7" || p.Selector != "" {
		t.Errorf("a ref given as selector: %+v", p)
	}
}

func TestDecodeNetworkConditions(t *testing.T) {
	p, err := decodeNetwork(json.RawMessage(`{"throttle":"fast-4g"}`), capture.Files{})
	if err != nil || p.conditions == nil || p.conditions.offline != nil || p.conditions.throttle.Latency != 165 {
		t.Fatalf("%+v %v", p.conditions, err)
	}
	p, _ = decodeNetwork(json.RawMessage(`{"offline":true}`), capture.Files{})
	if p.conditions == nil || !*p.conditions.offline || p.conditions.throttle != nil {
		t.Errorf("offline: %+v", p.conditions)
	}
	p, _ = decodeNetwork(json.RawMessage(`{"status":"404"}`), capture.Files{})
	if p.conditions != nil || p.query.Status == nil || p.query.Status.Min != 404 {
		t.Errorf("status query: %+v", p.query)
	}
}
