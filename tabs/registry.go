// Package tabs is the table of tabs that outlives each short cdpskill
// process: the registry file of aliases (t1, t2, ...) shared by every
// process on the machine under a file lock, and the per-tab lock that
// makes two calls on one tab take turns.
package tabs

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/chrome"
	"github.com/cdpskill/cdpskill/internal/private"
)

// The tab registry gives tabs short aliases (t1, t2, ...) that outlive the
// short cdpskill process which created them (SPEC 5, 18.7). It is one JSON
// file shared by every process on the machine, so each read-modify-write
// holds an inter-process lock and lands by temp file + rename: a reader
// without the lock always sees a whole file, old or new.

// DefaultRegistryLockTimeout bounds the wait for the registry lock.
const DefaultRegistryLockTimeout = 5 * time.Second

// maxRegistryFile caps what is read; a real registry is a few KB, and a
// larger file is treated as damaged rather than read into memory whole.
const maxRegistryFile = 8 << 20

// RegistryPath is the registry in temp: $TMPDIR/cdp-skill-tabs.json.
func RegistryPath(temp private.Temp) string {
	return filepath.Join(temp.Path(), "cdp-skill-tabs.json")
}

// DefaultRegistryPath is the process's RegistryPath.
func DefaultRegistryPath() string { return RegistryPath("") }

// Entry is what an alias stands for.
type Entry struct {
	TargetID string `json:"targetId"`
	Host     string `json:"host"`
	Port     int    `json:"port"`
	// EndpointURL is the remote endpoint the tab was reached through
	// (chrome.Endpoint.URL), kept whole, token and all, so a later call
	// with only the alias dials it again; Host and Port are then the
	// URL's. The file is private to this user, and the URL is never
	// printed.
	EndpointURL string `json:"endpoint,omitempty"`
	// Provider is the fleet the browser is on (chrome.Endpoint.Provider);
	// EndpointURL is then the browser's own address there, which holds no
	// token: each call takes it from its environment (package fleet).
	Provider string `json:"provider,omitempty"`
	// ProviderSession and ProviderAPI are a REST provider's session id
	// and API base URL (chrome.Endpoint.Session, API), which release the
	// browser: no token, which each call takes from its environment.
	// ProviderExpires is when its life there ends (chrome.Endpoint.Expires).
	ProviderSession string    `json:"providerSession,omitempty"`
	ProviderAPI     string    `json:"providerApi,omitempty"`
	ProviderExpires time.Time `json:"providerExpires,omitzero"`
	// BrowserWS caches the browser's websocket URL so a call can skip the
	// /json/version round trip; a stale one just costs that round trip.
	BrowserWS string `json:"browserWs,omitempty"`
	// SnapshotID and ElementID are the tab's ref counters (s{N}e{M}),
	// kept here as well as in the page so that a new document never
	// reissues a ref an earlier document's snapshot handed out.
	SnapshotID int `json:"snapshotId,omitempty"`
	ElementID  int `json:"elementId,omitempty"`
	// Frame is the frame the agent switched the tab to (SPEC 13.2), so
	// later calls run there too; empty is the top document.
	Frame string `json:"frame,omitempty"`
	// Sites are the domains whose site profile, or the request to write
	// one, the tab's calls have reported (SPEC 15.3), space-separated:
	// each is told once per tab.
	Sites string `json:"sites,omitempty"`

	// extra keeps, as a compact JSON object, the fields this build does
	// not know, so a rewrite by an older cdpskill does not drop what a
	// newer one stored. A string keeps Entry comparable with ==.
	extra string
}

// Endpoint is the Chrome the entry's target lives in.
func (e Entry) Endpoint() chrome.Endpoint {
	return chrome.Endpoint{Host: e.Host, Port: e.Port, URL: e.EndpointURL, Provider: e.Provider, Session: e.ProviderSession, API: e.ProviderAPI, Expires: e.ProviderExpires}.WithDefaults()
}

// Registry is a handle on a registry file. It holds no state of its own
// between calls, so one value may be shared by goroutines, and separate
// processes coordinate through the file's lock.
type Registry struct {
	path string
	// session is the session whose registry this is; "" is the default.
	session string
	// temp is the temp directory the file and its lock are checked
	// against (internal/private).
	temp private.Temp

	// OnCorrupt, when set, is told each time a damaged file (bad JSON,
	// truncation, invalid entries) is found and rebuilt. The operation that
	// found it still succeeds, on the entries that could be salvaged. The
	// error is a *CorruptRegistryError. It is called without the lock held.
	OnCorrupt func(error)

	// LockTimeout bounds the wait for the lock; zero means
	// DefaultRegistryLockTimeout.
	LockTimeout time.Duration

	// lock is the inter-process lock; nil means platformLock. Tests swap in
	// exclLock to exercise the portable protocol on unix too.
	lock lockFunc
}

// OpenRegistry returns a handle on the registry at path (DefaultRegistryPath
// when empty). It touches no file: a missing file is an empty registry.
func OpenRegistry(path string) *Registry { return OpenRegistryIn("", path) }

// OpenRegistryIn is OpenRegistry in the temp directory temp: path empty is
// its RegistryPath.
func OpenRegistryIn(temp private.Temp, path string) *Registry {
	if path == "" {
		path = RegistryPath(temp)
	}
	return &Registry{path: path, temp: temp}
}

// Register returns the alias of targetID on ep, assigning the next one if
// the target has none there yet. ep's empty fields mean localhost:9222.
func (r *Registry) Register(targetID string, ep chrome.Endpoint) (string, error) {
	if targetID == "" {
		return "", errors.New("tab registry: cannot register an empty target id")
	}
	ep = ep.WithDefaults()
	var alias string
	err := r.mutate(func(st *registryState) (bool, error) {
		if a, ok := st.aliasOf(targetID, &ep); ok {
			alias = a
			return false, nil
		}
		var err error
		alias, err = st.add(Entry{TargetID: targetID, Host: ep.Host, Port: ep.Port, EndpointURL: ep.URL, Provider: ep.Provider, ProviderSession: ep.Session, ProviderAPI: ep.API, ProviderExpires: ep.Expires})
		return err == nil, err
	})
	if err != nil {
		return "", err
	}
	return alias, nil
}

// Resolve looks aliasOrID up first as an alias, then as a registered target
// id (on any endpoint; the lowest alias wins if several). found is false for
// anything else, which the caller may use as a raw target id on the default
// endpoint (SPEC 18.7).
func (r *Registry) Resolve(aliasOrID string) (alias string, e Entry, found bool, err error) {
	err = r.view(func(st *registryState) {
		if ent, ok := st.tabs[aliasOrID]; ok {
			alias, e, found = aliasOrID, ent, true
			return
		}
		if a, ok := st.aliasOf(aliasOrID, nil); ok {
			alias, e, found = a, st.tabs[a], true
		}
	})
	return alias, e, found, err
}

// Remove forgets alias. Removing an alias that is not there is not an
// error: closeTab may race another process closing the same tab.
func (r *Registry) Remove(alias string) error {
	return r.mutate(func(st *registryState) (bool, error) {
		if _, ok := st.tabs[alias]; !ok {
			return false, nil
		}
		delete(st.tabs, alias)
		return true, nil
	})
}

// Update changes alias's entry in place through fn, under the lock.
func (r *Registry) Update(alias string, fn func(*Entry)) error {
	return r.mutate(func(st *registryState) (bool, error) {
		e, ok := st.tabs[alias]
		if !ok {
			return false, &UnknownAliasError{Alias: alias}
		}
		fn(&e)
		e, err := normaliseEntry(e)
		if err != nil {
			return false, fmt.Errorf("tab registry: update %s: %w", alias, err)
		}
		st.tabs[alias] = e
		return true, nil
	})
}

// List returns a copy of every entry by alias.
func (r *Registry) List() (map[string]Entry, error) {
	var out map[string]Entry
	err := r.view(func(st *registryState) {
		out = make(map[string]Entry, len(st.tabs))
		for a, e := range st.tabs {
			out[a] = e
		}
	})
	return out, err
}

// Prune drops the entries on ep whose target is not among the live ones
// list returns, and returns their aliases, lowest first. Entries on other
// endpoints are left alone: their Chrome was not asked. Only entries
// registered before list is called may go: a tab another process opens
// and registers while the list is taken is missing from it, yet alive.
func (r *Registry) Prune(ep chrome.Endpoint, list func() (map[string]bool, error)) ([]string, error) {
	ep = ep.WithDefaults()
	known := map[string]string{}
	if err := r.view(func(st *registryState) {
		for a, e := range st.tabs {
			known[a] = e.TargetID
		}
	}); err != nil {
		return nil, err
	}
	live, err := list()
	if err != nil {
		return nil, err
	}
	var removed []string
	err = r.mutate(func(st *registryState) (bool, error) {
		for _, a := range st.aliases() {
			e := st.tabs[a]
			if chrome.SameEndpoint(e.Endpoint(), ep) && known[a] == e.TargetID && !live[e.TargetID] {
				delete(st.tabs, a)
				removed = append(removed, a)
			}
		}
		return len(removed) > 0, nil
	})
	if err != nil {
		return nil, err
	}
	return removed, nil
}

// UnknownAliasError means an alias that is not in the registry.
type UnknownAliasError struct{ Alias string }

func (e *UnknownAliasError) Error() string {
	return fmt.Sprintf("no tab is registered as %q", e.Alias)
}

// CorruptRegistryError reports a registry file that could not be read as
// written and was rebuilt from what survived.
type CorruptRegistryError struct {
	Path     string
	Problems []string // what was wrong, one line each
	Kept     int      // entries that survived into the rebuilt file
	NextID   int64    // the rebuilt file's next alias number
}

func (e *CorruptRegistryError) Error() string {
	const show = 3
	probs := e.Problems
	more := ""
	if len(probs) > show {
		more = fmt.Sprintf("; and %d more", len(probs)-show)
		probs = probs[:show]
	}
	return fmt.Sprintf("tab registry %s was damaged (%s%s); rebuilt with %d entries, next alias t%d",
		e.Path, strings.Join(probs, "; "), more, e.Kept, e.NextID)
}

// view runs fn on the current state, without the lock where the platform
// allows (the atomic rename means a reader sees a whole file). A damaged
// file is rebuilt under the lock first, so it is reported and rewritten
// once however many readers see it.
func (r *Registry) view(fn func(*registryState)) error {
	readOnly := func(st *registryState) (bool, error) {
		fn(st)
		return false, nil
	}
	if !lockFreeReads {
		return r.mutate(readOnly)
	}
	st, corrupt, err := r.load()
	if err != nil {
		return err
	}
	if corrupt == nil {
		fn(st)
		return nil
	}
	return r.mutate(readOnly)
}

// mutate runs fn on the current state under the lock and writes the result
// when fn reports a change without error, or when the file needed a
// rebuild. fn's error is returned as is.
func (r *Registry) mutate(fn func(*registryState) (changed bool, err error)) error {
	corrupt, err := r.lockedMutate(fn)
	if corrupt != nil && r.OnCorrupt != nil {
		r.OnCorrupt(corrupt)
	}
	return err
}

func (r *Registry) lockedMutate(fn func(*registryState) (bool, error)) (*CorruptRegistryError, error) {
	lock := r.lock
	if lock == nil {
		lock = platformLock
	}
	timeout := r.LockTimeout
	if timeout <= 0 {
		timeout = DefaultRegistryLockTimeout
	}
	unlock, err := lock(r.temp, r.path+".lock", timeout)
	if err != nil {
		return nil, err
	}
	defer unlock()
	st, corrupt, err := r.load()
	if err != nil {
		return nil, err
	}
	changed, ferr := fn(st)
	if corrupt != nil || (changed && ferr == nil) {
		if err := r.write(st); err != nil {
			return corrupt, err
		}
	}
	return corrupt, ferr
}

// load reads and parses the file; a missing file is an empty registry.
// A link or another user's file there is refused, never read: it could
// send this user's calls to a browser of someone else's choosing.
func (r *Registry) load() (*registryState, *CorruptRegistryError, error) {
	data, err := r.temp.ReadFile(r.path, maxRegistryFile)
	if errors.Is(err, fs.ErrNotExist) {
		return newRegistryState(), nil, nil
	}
	if err != nil {
		return nil, nil, err // a refusal names the file; a read error is the system's, with the path
	}
	st, problems := parseRegistry(data)
	if len(problems) == 0 {
		return st, nil, nil
	}
	return st, &CorruptRegistryError{Path: r.path, Problems: problems, Kept: len(st.tabs), NextID: st.nextID}, nil
}

// write replaces the file atomically: a private temp file in the same
// directory (rename is only atomic within one file system), synced, then
// renamed.
func (r *Registry) write(st *registryState) error {
	data, err := st.encode()
	if err != nil {
		return fmt.Errorf("tab registry: encode: %w", err)
	}
	return r.temp.WriteFileSync(r.path, data)
}
