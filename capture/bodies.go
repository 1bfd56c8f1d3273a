package capture

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"
)

// A tab's recent bodies. Chrome keeps a response's body only while the
// session that saw it lives, so the end of each call keeps those of the
// page's own requests it began (KeepBodies) in files beside the tab's,
// and a later call reads them back (FindBody): what the page sent and
// what it got, two calls later.

// Bounds on the kept bodies: the tab's last MaxKeptBodies, none over
// maxKeptBody, at most keptPerCall a call.
const (
	MaxKeptBodies = 100
	maxKeptBody   = 10 << 20
	keptPerCall   = 20
)

// KeptBody is a kept request's record.
type KeptBody struct {
	// ID is Chrome's id of the request.
	ID       string `json:"id"`
	URL      string `json:"url"`
	Method   string `json:"method"`
	Status   int    `json:"status"`
	MimeType string `json:"mimeType,omitempty"`
	// Request is the body the page sent, when Chrome handed it over.
	Request string `json:"request,omitempty"`
	// RequestHeaders and ResponseHeaders are masked (see secrets.go).
	RequestHeaders  Headers `json:"requestHeaders,omitempty"`
	ResponseHeaders Headers `json:"responseHeaders,omitempty"`
	// File holds the response's body; Gone says why there is none.
	File string `json:"file,omitempty"`
	Gone string `json:"gone,omitempty"`
}

func (f Files) bodiesDir(alias string) string { return f.TabFile(alias, ".bodies") }

func (f Files) bodiesIndex(alias string) string {
	return filepath.Join(f.bodiesDir(alias), "index.json")
}

// KeepBodies keeps, for tab alias, the bodies of the page's own requests
// (documents, fetches, XHRs) begun since since (milliseconds since the
// epoch) that have ended with an answer, those it kept before left out;
// ctx bounds the reading.
func (n *Network) KeepBodies(ctx context.Context, f Files, alias string, since int64) error {
	n.mu.Lock()
	n.pump()
	var mine []*Request
	for _, r := range n.reqs {
		if r.Start >= since && pageOwn(r) && r.Done() && r.Status > 0 && r.Error == "" && !r.canceled && r.ID != "" && !r.kept {
			mine = append(mine, r)
		}
	}
	mine = mine[max(0, len(mine)-keptPerCall):]
	sel := copyRequests(mine)
	n.mu.Unlock()
	if len(sel) == 0 {
		return nil
	}
	dir := f.bodiesDir(alias)
	if err := f.Temp.Dir(dir); err != nil {
		return err
	}
	kept := make([]KeptBody, len(sel))
	var g errgroup.Group
	g.SetLimit(4)
	for i, r := range sel {
		kept[i] = KeptBody{ID: r.ID, URL: r.URL, Method: r.Method, Status: r.Status, MimeType: r.MimeType, Request: r.postData}
		if x := r.Exchange; x != nil {
			kept[i].RequestHeaders, kept[i].ResponseHeaders = x.RequestHeaders, x.ResponseHeaders
		}
		g.Go(func() error {
			body, err := n.Body(ctx, r)
			switch {
			case err != nil:
				kept[i].Gone = err.Error()
			case len(body) > maxKeptBody:
				kept[i].Gone = fmt.Sprintf("its body, %d bytes, is over the %d MB kept", len(body), maxKeptBody>>20)
			default:
				path := filepath.Join(dir, bodyFileName(r.ID))
				if err := f.writeFile(path, body); err != nil {
					return err
				}
				kept[i].File = path
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	if err := f.addKept(alias, kept); err != nil {
		return err
	}
	n.mu.Lock()
	for _, r := range mine {
		r.kept = true
	}
	n.mu.Unlock()
	return nil
}

// bodyFileName is a body's file, by its request's id.
func bodyFileName(id string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' {
			return '_'
		}
		return r
	}, id) + ".body"
}

// readKept reads the tab's index of kept bodies, oldest first.
func (f Files) readKept(alias string) ([]KeptBody, error) {
	data, err := f.Temp.ReadFile(f.bodiesIndex(alias), 4<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var kept []KeptBody
	if json.Unmarshal(data, &kept) != nil {
		return nil, nil // a damaged index starts again
	}
	return kept, nil
}

// addKept adds kept to the tab's index, dropping the oldest beyond
// MaxKeptBodies and their files; a request kept again replaces its
// record. The tab's call lock keeps two calls from writing it at once.
func (f Files) addKept(alias string, kept []KeptBody) error {
	old, err := f.readKept(alias)
	if err != nil {
		return err
	}
	old = slices.DeleteFunc(old, func(o KeptBody) bool {
		return slices.ContainsFunc(kept, func(k KeptBody) bool { return k.ID == o.ID })
	})
	all := append(old, kept...)
	if over := len(all) - MaxKeptBodies; over > 0 {
		for _, k := range all[:over] {
			if k.File != "" {
				_ = os.Remove(k.File)
			}
		}
		all = all[over:]
	}
	return f.writeJSON(f.bodiesIndex(alias), all)
}

// ForgetBodies removes the kept bodies of tab alias, which was closed.
func (f Files) ForgetBodies(alias string) { _ = os.RemoveAll(f.bodiesDir(alias)) }

// FindBody returns the newest kept body of tab alias whose request's id
// is key, or whose URL contains key, with the response's body.
func (f Files) FindBody(alias, key string) (KeptBody, []byte, error) {
	kept, err := f.readKept(alias)
	if err != nil {
		return KeptBody{}, nil, err
	}
	for i := len(kept) - 1; i >= 0; i-- {
		k := kept[i]
		if k.ID != key && !strings.Contains(k.URL, key) {
			continue
		}
		if k.File == "" {
			return k, nil, nil
		}
		body, err := f.Temp.ReadFile(k.File, maxKeptBody+1)
		if err != nil {
			k.Gone = fmt.Sprintf("its file is gone: %v", err)
		}
		return k, body, nil
	}
	return KeptBody{}, nil, &NoBodyError{Key: key, Kept: len(kept)}
}

// NoBodyError is a body asked for that is not among the kept ones.
type NoBodyError struct {
	Key  string
	Kept int
}

// ErrorName: the step names no kept body; the agent fixes what it gives.
func (e *NoBodyError) ErrorName() string { return "StepValidationError" }

func (e *NoBodyError) Error() string {
	if e.Kept == 0 {
		return fmt.Sprintf("no body matches %q: none is kept for this tab yet (a call keeps those of the documents, fetches and XHRs it began)", e.Key)
	}
	return fmt.Sprintf("no body matches %q among the tab's %d kept (its documents', fetches' and XHRs' of the last calls): give a part of the URL, or a request's id", e.Key, e.Kept)
}
