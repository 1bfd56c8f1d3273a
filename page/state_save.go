package page

import (
	"context"
	"fmt"
	"math"
	"net/url"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
)

// SaveOptions say what SaveState saves beside cookies and localStorage.
type SaveOptions struct {
	// SessionStorage saves the tab's sessionStorage of the origins its
	// page shows: it is the tab's own, so that of an origin it left can
	// only be read by going back.
	SessionStorage bool
	// IndexedDB saves each origin's IndexedDB databases, as Playwright's
	// storageState({indexedDB: true}) does.
	IndexedDB bool
}

// SaveState reads the state of the tab's browser context: every cookie
// of the context (a session's, or the default one) and the localStorage
// (and, as opt asks, IndexedDB and sessionStorage) of every origin the
// tab shows or showed: its page's and its same-site frames', read
// through the frames, and those of the other pages of its history, read
// in a scratch tab of the context (see readLeft). An origin with nothing
// stored is left out, as Playwright does.
func SaveState(ctx context.Context, p *Page, opt SaveOptions) (*State, error) {
	st := &State{Origins: []OriginState{}}
	var err error
	if st.Cookies, err = savedCookies(ctx, p); err != nil {
		return nil, err
	}
	shown, err := shownOrigins(ctx, p)
	if err != nil {
		return nil, err
	}
	for _, f := range shown {
		// cdpskill's world: the site's scripts cannot stand in the way.
		fp := &Page{S: p.S, fs: p.frameState()}
		fp.Enter(f.frame)
		o, err := readOrigin(ctx, fp, f.origin, opt)
		if err != nil {
			return nil, err
		}
		st.add(o)
	}
	left, err := leftOrigins(ctx, p, shown)
	if err != nil {
		return nil, err
	}
	if len(left) > 0 {
		opt.SessionStorage = false // another tab's is its own
		if err := readLeft(ctx, p, left, opt, st); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// add keeps o when it holds anything.
func (st *State) add(o OriginState) {
	if !o.empty() {
		st.Origins = append(st.Origins, o)
	}
}

// savedCookies are every cookie of the tab's browser context, as
// Playwright writes them.
func savedCookies(ctx context.Context, p *Page) ([]StateCookie, error) {
	res, err := proto.NetworkGetAllCookies{}.Do(ctx, p.S)
	if err != nil {
		return nil, fmt.Errorf("cookies: %w", err)
	}
	out := []StateCookie{}
	for _, c := range res.Cookies {
		sc := StateCookie{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path, Expires: -1,
			HTTPOnly: c.HTTPOnly, Secure: c.Secure, SameSite: c.SameSite}
		if !c.Session && c.Expires > 0 {
			sc.Expires = math.Round(c.Expires)
		}
		if sc.SameSite == "" {
			sc.SameSite = "Lax" // Chrome's default, and what Playwright writes for it
		}
		if k := c.PartitionKey; k != nil {
			sc.PartitionKey, sc.CrHasCrossSiteAncestor = k.TopLevelSite, &k.HasCrossSiteAncestor
		}
		out = append(out, sc)
	}
	return out, nil
}

// shownOrigin is an origin a frame of the tab shows, and that frame.
type shownOrigin struct {
	origin string
	frame  *Frame
}

// shownOrigins are the top frame's origin and its first-party frames',
// out-of-process ones too: Chrome reaches an origin's storage only
// through the session that renders a frame on it. A third-party frame's
// storage is partitioned under the top site, which the format cannot
// say.
func shownOrigins(ctx context.Context, p *Page) ([]shownOrigin, error) {
	frames, err := p.Frames(ctx)
	if err != nil {
		return nil, err
	}
	var out []shownOrigin
	seen := map[string]bool{}
	var top string
	for _, f := range frames.Frames {
		o, err := stateOrigin(f.origin)
		if f.ParentID == "" {
			top = o
		}
		if err == nil && !seen[o] && sameSite(o, top) {
			out = append(out, shownOrigin{o, f})
			seen[o] = true
		}
	}
	return out, nil
}

// leftOrigins are the http(s) origins of the pages of the tab's history
// (Page.getNavigationHistory) that no frame shows now, in the order of
// the history: each is a page the tab showed, so its storage is first
// party. What they stored is still in the browser context; no
// bookkeeping across calls is needed to know them.
func leftOrigins(ctx context.Context, p *Page, shown []shownOrigin) ([]string, error) {
	h, err := proto.PageGetNavigationHistory{}.Do(ctx, p.S)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	seen := map[string]bool{}
	for _, f := range shown {
		seen[f.origin] = true
	}
	var out []string
	for _, e := range h.Entries {
		u, err := url.Parse(e.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			continue
		}
		if o := u.Scheme + "://" + u.Host; !seen[o] {
			out = append(out, o)
			seen[o] = true
		}
	}
	return out, nil
}

// readLeft reads the storage of origins the tab left into st. Chrome
// reaches an origin's storage only through a frame on it, and the tab
// must stay on its page, so a scratch tab of the browser context opens
// each origin with every request answered by an empty page, as
// Playwright does: none of the site's scripts runs, and the tab is
// closed after.
func readLeft(ctx context.Context, p *Page, origins []string, opt SaveOptions, st *State) error {
	s, done, err := scratchTab(ctx, p)
	if err != nil {
		return err
	}
	defer done()
	v, err := startBlankVisits(ctx, s)
	if err != nil {
		return fmt.Errorf("a tab to read storage in: %w", err)
	}
	defer v.quit()
	for _, origin := range origins {
		if err := v.visit(ctx, origin); err != nil {
			return fmt.Errorf("storage of %s, which the tab showed before: %w", origin, err)
		}
		sp := New(s).Main() // the empty page: no script of the site's there
		o, err := readOrigin(ctx, sp, origin, opt)
		sp.Close()
		if err != nil {
			return err
		}
		st.add(o)
	}
	return nil
}

// readOrigin reads origin's storage through fp, a page on a frame of
// it.
func readOrigin(ctx context.Context, fp *Page, origin string, opt SaveOptions) (OriginState, error) {
	o := OriginState{Origin: origin}
	var err error
	s := fp.EvalSession()
	if o.LocalStorage, err = storageItems(ctx, s, origin, true); err != nil {
		return o, err
	}
	if opt.SessionStorage {
		if o.SessionStorage, err = storageItems(ctx, s, origin, false); err != nil {
			return o, err
		}
	}
	if opt.IndexedDB {
		if o.IndexedDB, err = readIndexedDB(ctx, fp, origin); err != nil {
			return o, err
		}
	}
	return o, nil
}

// storageItems reads origin's localStorage (local) or sessionStorage
// through s, the session rendering a frame on it.
func storageItems(ctx context.Context, s *cdp.Session, origin string, local bool) ([]StorageItem, error) {
	res, err := proto.DOMStorageGetDOMStorageItems{StorageID: proto.StorageID{SecurityOrigin: origin, IsLocalStorage: local}}.Do(ctx, s)
	if err != nil {
		return nil, fmt.Errorf("%s of %s: %w", areaName(local), origin, err)
	}
	items := []StorageItem{}
	for _, kv := range res.Entries {
		if len(kv) == 2 {
			items = append(items, StorageItem{Name: kv[0], Value: kv[1]})
		}
	}
	return items, nil
}

func areaName(local bool) string {
	if local {
		return "localStorage"
	}
	return "sessionStorage"
}
