package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/dom"
)

// uploadSteps hand files to the page.
var uploadSteps = []step{
	defineFiles("upload", `"/path/file" | ["/a", "/b"] | {selector|ref, files: [...], timeout}`,
		"a file input's files (a bare path: the page's only one)", needsTab|visual|field, decodeUpload, runUpload).out(`{uploaded, files}`).did("Uploaded").
		also(`{"upload":{"selector":"…","files":["/path/file"]}}`, "uploadFile", "fileUpload", "setInputFiles", "attachFile"),
}

type uploadParams struct {
	Selector string   `json:"selector"`
	Ref      string   `json:"ref"`
	Files    []string `json:"files"`
	Timeout  int      `json:"timeout"`
}

// decodeUpload reads the step and checks, before anything runs, that
// every file exists; paths are made absolute against the working
// directory, the agent's.
func decodeUpload(raw json.RawMessage, files capture.Files) (uploadParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *uploadParams) error {
		if s, ok := asString(raw); ok {
			p.Files = []string{s}
			return nil
		}
		if json.Unmarshal(raw, &p.Files) == nil {
			return nil
		}
		return paramErrorf(`expected a file path, a list of paths or {selector|ref, files}, got %s`, jsonKind(raw))
	})
	if err != nil {
		return p, err
	}
	switch {
	case p.Selector != "" && p.Ref != "":
		return p, paramErrorf(`give "selector" or "ref", not both`)
	case len(p.Files) == 0:
		return p, paramErrorf(`"files" is required: the paths of the files to upload`)
	case p.Timeout < 0:
		return p, paramErrorf(`"timeout" must be positive`)
	}
	for i, f := range p.Files {
		abs, err := checkUploadFile(files, f)
		if err != nil {
			return p, err
		}
		p.Files[i] = abs
	}
	return p, nil
}

// checkUploadFile returns f made absolute, or why it cannot be uploaded.
func checkUploadFile(files capture.Files, f string) (string, error) {
	if f == "" {
		return "", paramErrorf(`a file path is empty`)
	}
	abs, err := files.Abs(f)
	if err != nil {
		return "", paramErrorf("file %q: %v", f, err)
	}
	st, err := os.Stat(abs)
	switch {
	case os.IsNotExist(err):
		return "", paramErrorf("file %q does not exist%s", f, relativeNote(f, abs))
	case err != nil:
		return "", paramErrorf("file %q: %v", f, err)
	case st.IsDir():
		return "", paramErrorf("%q is a directory; list the files in it", f)
	}
	return abs, nil
}

// relativeNote says where a relative path was looked for.
func relativeNote(f, abs string) string {
	if filepath.IsAbs(f) {
		return ""
	}
	return fmt.Sprintf(" (looked for %s, relative to the working directory)", abs)
}

func runUpload(ctx context.Context, e *env, p uploadParams) (output, error) {
	return value(dom.Upload(ctx, e.page(), dom.UploadRequest{
		Target: orStr(p.Ref, p.Selector), Files: p.Files, Timeout: ms(p.Timeout),
	}))
}
