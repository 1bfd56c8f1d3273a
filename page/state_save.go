package page

import (
	"context"
	"fmt"
	"math"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
)

// SaveState reads the state of the tab's browser context: every cookie
// of the context (a session's, or the default one) and the localStorage
// of the tab's page's origin and of its frames' of the same site, and
// with sessionStorage set the tab's sessionStorage of those origins too.
// An origin with nothing stored is left out, as Playwright does.
func SaveState(ctx context.Context, p *Page, sessionStorage bool) (*State, error) {
	res, err := proto.NetworkGetAllCookies{}.Do(ctx, p.S)
	if err != nil {
		return nil, fmt.Errorf("cookies: %w", err)
	}
	st := &State{Cookies: []StateCookie{}, Origins: []OriginState{}}
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
		st.Cookies = append(st.Cookies, sc)
	}
	// The top frame's origin and its first-party frames', out-of-process
	// ones too: Chrome reaches an origin's storage only through the
	// session that renders a frame on it. A third-party frame's storage
	// is partitioned under the top site, which the format cannot say.
	frames, err := p.Frames(ctx)
	if err != nil {
		return nil, err
	}
	var origins []string
	renderer := map[string]*cdp.Session{}
	var top string
	for _, f := range frames.Frames {
		o, err := stateOrigin(f.origin)
		if f.ParentID == "" {
			top = o
		}
		if err == nil && renderer[o] == nil && sameSite(o, top) {
			origins = append(origins, o)
			renderer[o] = f.s
		}
	}
	for _, o := range origins {
		os := OriginState{Origin: o}
		if os.LocalStorage, err = storageItems(ctx, renderer[o], o, true); err != nil {
			return nil, err
		}
		if sessionStorage {
			if os.SessionStorage, err = storageItems(ctx, renderer[o], o, false); err != nil {
				return nil, err
			}
		}
		if len(os.LocalStorage) > 0 || len(os.SessionStorage) > 0 {
			st.Origins = append(st.Origins, os)
		}
	}
	return st, nil
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
