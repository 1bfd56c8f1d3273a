package page

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/xcontext"
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
// about:blank. When any part fails, what it set is taken away again: the
// cookies, each key (back to its old value, if it had one) and each
// database it made where there was none; a database it replaced stays
// replaced.
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
		// No half of a login: the cookies go too, even when the step's
		// time is what ran out.
		rctx, cancel := xcontext.Detached(ctx, rollbackWait)
		defer cancel()
		if uerr := unsetCookies(rctx, p, st.Cookies); uerr != nil {
			return done, fmt.Errorf("%w; and its cookies stay set: %w", err, uerr)
		}
		done.Cookies = 0
		return done, err
	}
	return done, nil
}

// rollbackWait bounds taking back what a failed load set.
const rollbackWait = 5 * time.Second

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

// originSet is what loadStorage set in an origin, to take it back: each
// key's old value per area (true: localStorage), nil where it had none,
// and the databases it made where there were none.
type originSet struct {
	origin  string
	keys    map[bool]map[string]*string
	created []string
}

// loadStorage sets each origin's storage; when one fails, it takes back
// what it set in all of them.
func loadStorage(ctx context.Context, p *Page, origins []OriginState, done *LoadedState) (err error) {
	v, err := startBlankVisits(ctx, p.S)
	if err != nil {
		return fmt.Errorf("storage: %w", err)
	}
	var set []*originSet
	defer func() {
		if err != nil {
			err = undoStorage(ctx, p, v, set, err)
			done.Origins = 0
		}
		// The tab leaves the empty pages even when the step's time ran out.
		ectx, cancel := xcontext.Detached(ctx, rollbackWait)
		defer cancel()
		if eerr := v.end(ectx); err == nil && eerr != nil {
			err = fmt.Errorf("storage: %w", eerr)
		}
	}()
	for _, o := range origins {
		origin, _ := stateOrigin(o.Origin)
		if err := v.visit(ctx, origin); err != nil {
			return fmt.Errorf("storage of %s: %w", origin, err)
		}
		rec := &originSet{origin: origin, keys: map[bool]map[string]*string{}}
		set = append(set, rec)
		if err := setItems(ctx, p, rec, true, o.LocalStorage); err != nil {
			return err
		}
		if err := setItems(ctx, p, rec, false, o.SessionStorage); err != nil {
			return err
		}
		if len(o.IndexedDB) > 0 {
			// The empty page's own world: none of the site's scripts is there.
			if rec.created, err = writeIndexedDB(ctx, p.Top().Main(), origin, o.IndexedDB); err != nil {
				return err
			}
		}
		done.Origins++
	}
	return nil
}

// setItems sets items in an area of rec's origin, noting first what each
// key held.
func setItems(ctx context.Context, p *Page, rec *originSet, local bool, items []StorageItem) error {
	if len(items) == 0 {
		return nil
	}
	had, err := storageItems(ctx, p.S, rec.origin, local)
	if err != nil {
		return err
	}
	old := map[string]*string{}
	for _, it := range items {
		old[it.Name] = nil
	}
	for _, it := range had {
		if _, ok := old[it.Name]; ok {
			old[it.Name] = &it.Value
		}
	}
	rec.keys[local] = old
	for _, it := range items {
		set := proto.DOMStorageSetDOMStorageItem{StorageID: proto.StorageID{SecurityOrigin: rec.origin, IsLocalStorage: local}, Key: it.Name, Value: it.Value}
		if err := set.Do(ctx, p.S); err != nil {
			return fmt.Errorf("%s of %s: %w", areaName(local), rec.origin, err)
		}
	}
	return nil
}

// undoStorage takes back what loadStorage set, last origin first, and
// says so beside cause, the failure that made it.
func undoStorage(ctx context.Context, p *Page, v *blankVisits, set []*originSet, cause error) error {
	ctx, cancel := xcontext.Detached(ctx, rollbackWait)
	defer cancel()
	for i := len(set) - 1; i >= 0; i-- {
		if err := set[i].undo(ctx, p, v); err != nil {
			return fmt.Errorf("%w; and what it set in %d origins stays set: %w", cause, i+1, err)
		}
	}
	return fmt.Errorf("%w; none of the file was left set", cause)
}

func (rec *originSet) undo(ctx context.Context, p *Page, v *blankVisits) error {
	if err := v.visit(ctx, rec.origin); err != nil {
		return err
	}
	for local, keys := range rec.keys {
		id := proto.StorageID{SecurityOrigin: rec.origin, IsLocalStorage: local}
		for k, old := range keys {
			var err error
			if old != nil {
				err = proto.DOMStorageSetDOMStorageItem{StorageID: id, Key: k, Value: *old}.Do(ctx, p.S)
			} else {
				err = proto.DOMStorageRemoveDOMStorageItem{StorageID: id, Key: k}.Do(ctx, p.S)
			}
			if err != nil {
				return fmt.Errorf("%s of %s: %w", areaName(local), rec.origin, err)
			}
		}
	}
	if len(rec.created) > 0 {
		return deleteIndexedDB(ctx, p.Top().Main(), rec.origin, rec.created)
	}
	return nil
}
