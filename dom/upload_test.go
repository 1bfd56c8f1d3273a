package dom_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/dom"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/internal/testbrowser"
	"github.com/cdpskill/cdpskill/page"
)

// uploadPage has a hidden single-file input behind a label, a multiple
// one inside a drop zone, and a log of the events the inputs fire.
const uploadPage = `<!doctype html>
<title>upload</title>
<label for="avatar" id="avatar-label">Choose avatar</label>
<input type="file" id="avatar" accept="image/*,.txt" style="display:none">
<div id="drop">Drop files here <input type="file" id="docs" multiple></div>
<p id="not-input">plain text</p>
<script>
  window.events = [];
  for (const el of document.querySelectorAll('input[type=file]')) {
    el.addEventListener('input', () => events.push(el.id + ':input'));
    el.addEventListener('change', () => events.push(el.id + ':change'));
  }
  window.readFirst = (id) => document.getElementById(id).files[0].text();
</script>`

const singleInputPage = `<!doctype html><title>one</title><form><input type="file" name="f"></form>`

func servePage(t *testing.T, html string) *page.Page {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(html))
	}))
	t.Cleanup(srv.Close)
	s := browser.NewTab(t)
	testbrowser.Navigate(t, s, srv.URL)
	return page.New(s)
}

func tempFiles(t *testing.T, contents map[string]string) map[string]string {
	t.Helper()
	dir := t.TempDir()
	paths := map[string]string{}
	for name, body := range contents {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		paths[name] = p
	}
	return paths
}

// A hidden input reached through its label gets the file, fires input and
// change, and the page can read the bytes.
func TestUploadThroughLabel(t *testing.T) {
	p := servePage(t, uploadPage)
	files := tempFiles(t, map[string]string{"note.txt": "hello upload"})
	res, err := dom.Upload(testCtx(t), p, dom.UploadRequest{Target: "#avatar-label", Files: []string{files["note.txt"]}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Uploaded != 1 || len(res.Files) != 1 || res.Files[0] != "note.txt" || res.Accept != "image/*,.txt" || res.Multiple || res.Warning != "" {
		t.Errorf("result %+v", res)
	}
	if got := eval[string](t, p, "events.join(' ')"); got != "avatar:input avatar:change" {
		t.Errorf("events %q", got)
	}
	if got := eval[string](t, p, "readFirst('avatar')"); got != "hello upload" {
		t.Errorf("the page read %q", got)
	}
}

// Several files go to a multiple input found inside a wrapping element;
// one the accept attribute does not admit is a warning, not a failure.
func TestUploadSeveralIntoDropZone(t *testing.T) {
	p := servePage(t, uploadPage)
	files := tempFiles(t, map[string]string{"a.txt": "A", "b.pdf": "B"})
	res, err := dom.Upload(testCtx(t), p, dom.UploadRequest{Target: "#drop", Files: []string{files["a.txt"], files["b.pdf"]}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Uploaded != 2 || strings.Join(res.Files, ",") != "a.txt,b.pdf" || !res.Multiple {
		t.Errorf("result %+v", res)
	}
	single, err := dom.Upload(testCtx(t), p, dom.UploadRequest{Target: "#avatar", Files: []string{files["b.pdf"]}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(single.Warning, "b.pdf") {
		t.Errorf("no accept warning: %+v", single)
	}
}

// Without a target the page's only file input is used; with two, the
// agent is told to choose.
func TestUploadWithoutTarget(t *testing.T) {
	files := tempFiles(t, map[string]string{"x.txt": "x"})
	res, err := dom.Upload(testCtx(t), servePage(t, singleInputPage), dom.UploadRequest{Files: []string{files["x.txt"]}})
	if err != nil || res.Uploaded != 1 {
		t.Fatalf("%+v %v", res, err)
	}
	_, err = dom.Upload(testCtx(t), servePage(t, uploadPage), dom.UploadRequest{Files: []string{files["x.txt"]}})
	var ia *invalid.Option
	if !errors.As(err, &ia) || !strings.Contains(err.Error(), "2 file inputs") {
		t.Fatalf("want a choice between two inputs, got %v", err)
	}
}

func TestUploadRefusals(t *testing.T) {
	p := servePage(t, uploadPage)
	files := tempFiles(t, map[string]string{"a.txt": "A", "b.txt": "B"})
	both := []string{files["a.txt"], files["b.txt"]}
	cases := []struct {
		name string
		req  dom.UploadRequest
		want string // ErrorName
	}{
		{"two files, single input", dom.UploadRequest{Target: "#avatar", Files: both}, "StepValidationError"},
		{"not a file input", dom.UploadRequest{Target: "#not-input", Files: both[:1]}, "ElementNotEditableError"},
		{"relative path", dom.UploadRequest{Target: "#avatar", Files: []string{"a.txt"}}, "StepValidationError"},
		{"missing input", dom.UploadRequest{Target: "#nope", Files: both[:1], Timeout: 200 * time.Millisecond}, "ElementNotFoundError"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := dom.Upload(testCtx(t), p, tc.req)
			var n interface{ ErrorName() string }
			if !errors.As(err, &n) || n.ErrorName() != tc.want {
				t.Fatalf("got %v, want %s", err, tc.want)
			}
		})
	}
	if got := eval[string](t, p, "events.join(' ')"); got != "" {
		t.Errorf("a refused upload fired %q", got)
	}
}
