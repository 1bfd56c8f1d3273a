package page

import (
	"context"
	"fmt"
	"strings"

	"github.com/cdpskill/cdpskill/cdp/proto"
)

// LoadedState is what LoadState set.
type LoadedState struct {
	Cookies int `json:"cookies"`
	Origins int `json:"origins"`
}

// LoadState sets st in the tab's browser context: its cookies all in one
// call, read back, as Chrome drops some unsaid; then each origin's
// localStorage, sessionStorage (the tab's own) and IndexedDB databases
// (each in place of the one of its name), by opening the origin in the
// tab with every request answered by an empty page (Chrome reaches an
// origin's storage only through a frame on it), so that no page of the
// site runs before its storage is there. The tab is then left on
// about:blank. When any part fails, the cookies it set are taken away
// again; origins already set keep their keys and databases.
func LoadState(ctx context.Context, p *Page, st *State) (LoadedState, error) {
	var done LoadedState
	if len(st.Cookies) > 0 {
		set := proto.NetworkSetCookies{Cookies: make([]proto.NetworkSetCookie, len(st.Cookies))}
		for i, c := range st.Cookies {
			sc := proto.NetworkSetCookie{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path,
				HTTPOnly: c.HTTPOnly, Secure: c.Secure, SameSite: c.SameSite, PartitionKey: c.partition()}
			if c.Expires > 0 {
				sc.Expires = c.Expires
			}
			set.Cookies[i] = sc
		}
		if err := set.Do(ctx, p.S); err != nil {
			return done, fmt.Errorf("cookies (none was set): %w", err)
		}
		if err := checkCookiesSet(ctx, p, st.Cookies); err != nil {
			return done, err
		}
		done.Cookies = len(st.Cookies)
	}
	var origins []OriginState
	for _, o := range st.Origins {
		if !o.empty() {
			origins = append(origins, o)
		}
	}
	if len(origins) == 0 {
		return done, nil
	}
	if err := loadStorage(ctx, p, origins, &done); err != nil {
		// No half of a login: the cookies go too.
		if uerr := unsetCookies(ctx, p, st.Cookies); uerr != nil {
			return done, fmt.Errorf("%w; and its cookies stay set: %w", err, uerr)
		}
		done.Cookies = 0
		return done, fmt.Errorf("%w; its cookies were taken away again", err)
	}
	return done, nil
}

// CookiesRefusedError is a state whose cookies Chrome did not all take:
// Network.setCookies drops some (a sameSite None one not secure)
// without a word. Those it took are taken away
// again, so that no half of a login is left.
type CookiesRefusedError struct{ Names []string }

func (e *CookiesRefusedError) Error() string {
	return fmt.Sprintf("Chrome refused the cookies %s, so none of the file's was kept", strings.Join(e.Names, ", "))
}

// checkCookiesSet reads back the cookies just set; when Chrome dropped
// any, it deletes the others.
func checkCookiesSet(ctx context.Context, p *Page, want []StateCookie) error {
	res, err := proto.NetworkGetAllCookies{}.Do(ctx, p.S)
	if err != nil {
		return fmt.Errorf("cookies: %w", err)
	}
	type key struct{ name, domain, path string }
	have := map[key]bool{}
	for _, c := range res.Cookies {
		have[key{c.Name, strings.TrimPrefix(c.Domain, "."), c.Path}] = true
	}
	var refused []string
	for _, c := range want {
		if !have[key{c.Name, strings.TrimPrefix(c.Domain, "."), c.Path}] {
			refused = append(refused, c.Name)
		}
	}
	if len(refused) == 0 {
		return nil
	}
	if err := unsetCookies(ctx, p, want); err != nil {
		return fmt.Errorf("%w (after %w)", err, &CookiesRefusedError{refused})
	}
	return &CookiesRefusedError{refused}
}

// unsetCookies deletes the cookies LoadState set, whether Chrome made
// each a host or a domain cookie.
func unsetCookies(ctx context.Context, p *Page, cookies []StateCookie) error {
	for _, c := range cookies {
		for _, d := range []string{strings.TrimPrefix(c.Domain, "."), "." + strings.TrimPrefix(c.Domain, ".")} {
			if err := (proto.NetworkDeleteCookies{Name: c.Name, Domain: d, Path: c.Path, PartitionKey: c.partition()}).Do(ctx, p.S); err != nil {
				return fmt.Errorf("cookies: %w", err)
			}
		}
	}
	return nil
}

func loadStorage(ctx context.Context, p *Page, origins []OriginState, done *LoadedState) (err error) {
	v, err := startBlankVisits(ctx, p.S)
	if err != nil {
		return fmt.Errorf("storage: %w", err)
	}
	defer func() {
		if eerr := v.end(ctx); err == nil && eerr != nil {
			err = fmt.Errorf("storage: %w", eerr)
		}
	}()
	for _, o := range origins {
		origin, _ := stateOrigin(o.Origin)
		if err := v.visit(ctx, origin); err != nil {
			return fmt.Errorf("storage of %s (%d origins of %d were set): %w", origin, done.Origins, len(origins), err)
		}
		for _, area := range []struct {
			local bool
			items []StorageItem
		}{{true, o.LocalStorage}, {false, o.SessionStorage}} {
			for _, it := range area.items {
				set := proto.DOMStorageSetDOMStorageItem{StorageID: proto.StorageID{SecurityOrigin: origin, IsLocalStorage: area.local}, Key: it.Name, Value: it.Value}
				if err := set.Do(ctx, p.S); err != nil {
					return fmt.Errorf("%s of %s (%d origins of %d were set): %w", areaName(area.local), origin, done.Origins, len(origins), err)
				}
			}
		}
		if len(o.IndexedDB) > 0 {
			// The empty page's own world: none of the site's scripts is there.
			if err := writeIndexedDB(ctx, p.Top().Main(), origin, o.IndexedDB); err != nil {
				return fmt.Errorf("%w (%d origins of %d were set)", err, done.Origins, len(origins))
			}
		}
		done.Origins++
	}
	return nil
}
