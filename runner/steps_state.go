package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"strings"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/page"
)

// stateSteps save and load a login: the cookies and localStorage of the
// tab's browser context, in Playwright's storageState format. Their
// summaries are SKILL.md's sentence on them, beside the table.
var stateSteps = []step{
	defineFiles("saveState", `"file" | {path, sessionStorage, indexedDB}`, "",
		needsTab, decodeSaveState, runSaveState).out(`{path, cookies, origins}`).
		also(`{"saveState":"…"}`, "storageState", "saveStorageState"),
	defineFiles("loadState", `"file"`, "",
		needsTab|navigates|visual, decodeLoadState, runLoadState).out(`{cookies, origins}`).did("Loaded state"),
}

// --- saveState

type saveStateParams struct {
	Path string `json:"path"`
	// SessionStorage saves the tab's sessionStorage too (not in
	// Playwright's format, which leaves the field alone).
	SessionStorage bool `json:"sessionStorage"`
	// IndexedDB saves each origin's databases, as Playwright's
	// storageState({indexedDB: true}) does.
	IndexedDB bool `json:"indexedDB"`
}

func decodeSaveState(raw json.RawMessage, files capture.Files) (saveStateParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *saveStateParams) error {
		if s, ok := asString(raw); ok && s != "" {
			p.Path = s
			return nil
		}
		return paramErrorf(`expected the path of the file to write, such as "state.json", got %s`, jsonKind(raw))
	})
	if err != nil {
		return p, err
	}
	if strings.TrimSpace(p.Path) == "" {
		return p, paramErrorf(`"path" is empty: give the file to write, such as "state.json"`)
	}
	return p, resolveOutputPath(files, &p.Path, ".json")
}

type saveStateOutput struct {
	Path    string `json:"path"`
	Cookies int    `json:"cookies"`
	Origins int    `json:"origins"`
}

func runSaveState(ctx context.Context, e *env, p saveStateParams) (output, error) {
	st, err := page.SaveState(ctx, e.page(), page.SaveOptions{SessionStorage: p.SessionStorage, IndexedDB: p.IndexedDB})
	if err != nil {
		return output{}, err
	}
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return output{}, err
	}
	if len(data) > maxStateBytes {
		// loadState would refuse it.
		return output{}, newError(Execution, "the state is %d MB, over the %d MB loadState reads: save it without indexedDB", len(data)>>20, maxStateBytes>>20)
	}
	if err := e.files.Temp.WriteFile(p.Path, append(data, '\n')); err != nil {
		return output{}, err
	}
	return output{value: saveStateOutput{Path: p.Path, Cookies: len(st.Cookies), Origins: len(st.Origins)}}, nil
}

// --- loadState

type loadStateParams struct {
	Path  string `json:"path"`
	state *page.State
}

func decodeLoadState(raw json.RawMessage, files capture.Files) (loadStateParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *loadStateParams) error {
		if s, ok := asString(raw); ok && s != "" {
			p.Path = s
			return nil
		}
		return paramErrorf(`expected the path of a storageState file, such as "state.json", got %s`, jsonKind(raw))
	})
	if err != nil {
		return p, err
	}
	p.Path, p.state, err = readState(files, p.Path)
	return p, err
}

// maxStateBytes bounds a state file: a login's cookies and storage fit
// many times over.
const maxStateBytes = 16 << 20

// readState reads and checks a storageState file while the batch is
// validated, so that a wrong one stops the batch before anything runs
// and nothing of it is half loaded. A bare name is looked for where
// saveState writes one.
func readState(files capture.Files, path string) (string, *page.State, error) {
	if strings.TrimSpace(path) == "" {
		return "", nil, paramErrorf(`"state" is empty: give the path of a file saveState wrote`)
	}
	abs, err := files.OutputPath(path)
	if err != nil {
		return "", nil, paramErrorf(`state file %q: %v`, path, err)
	}
	name := fmt.Sprintf("%q", path)
	data, err := files.Temp.ReadFile(abs, maxStateBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", nil, paramErrorf(`state file %s does not exist (looked for %s)`, name, abs)
	case err != nil:
		return "", nil, paramErrorf(`cannot read state file %s: %v`, name, pathCause(err))
	case len(data) > maxStateBytes:
		return "", nil, paramErrorf(`state file %s is over %d MB`, name, maxStateBytes>>20)
	}
	st, err := page.ParseState(data)
	if err != nil {
		return "", nil, paramErrorf(`state file %s %v`, name, err)
	}
	return abs, st, nil
}

func runLoadState(ctx context.Context, e *env, p loadStateParams) (output, error) {
	was, err := page.TopURL(ctx, e.page())
	if err != nil {
		return output{}, err
	}
	done, err := page.LoadState(ctx, e.page(), p.state)
	if err != nil {
		return output{value: done}, err
	}
	// Back to the page (storage was set by visiting each origin), which
	// loads again with the state.
	if u, perr := url.Parse(was); perr == nil && (u.Scheme == "http" || u.Scheme == "https") {
		_, err = gotoURL(ctx, e, was, "")
	}
	return output{value: done}, err
}
