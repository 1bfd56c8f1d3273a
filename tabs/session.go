package tabs

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"time"

	"github.com/cdpskill/cdpskill/chrome"
	"github.com/cdpskill/cdpskill/internal/private"
)

// A session is an agent's own browser context in a shared Chrome
// (Target.createBrowserContext): its own cookies, storage, cache,
// permissions and downloads, and its own aliases. Each session's registry
// is a file of its own, beside the session's per-tab files
// (private.Temp.SessionDir), so an alias is looked up among the session's
// tabs only: t1 of one session is not t1 of another, by construction, and
// sessions do not wait on each other's lock. The registry also records,
// per browser, the session's context there, which later calls find
// again. Without a session, the registry is RegistryPath's and the tabs
// are in Chrome's default context, as they were before sessions.

var sessionName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// CheckSession says what is wrong with a session name, nil when nothing:
// 1 to 64 letters, digits, '.', '_' or '-', the first a letter or digit,
// so that it is a file name and nothing else.
func CheckSession(name string) error {
	if sessionName.MatchString(name) {
		return nil
	}
	return &SessionNameError{Name: name}
}

// SessionNameError is a session name that CheckSession refuses.
type SessionNameError struct{ Name string }

func (e *SessionNameError) Error() string {
	return fmt.Sprintf("%q is not a session name: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit (\"review-42\")", clip(e.Name))
}

// OpenSession returns a handle on session's registry in temp: its
// SessionDir's tabs.json; the default one (RegistryPath) for "". The
// name must have passed CheckSession.
func OpenSession(temp private.Temp, session string) *Registry {
	if session == "" {
		return OpenRegistryIn(temp, "")
	}
	r := OpenRegistryIn(temp, filepath.Join(temp.SessionDir(session), "tabs.json"))
	r.session = session
	return r
}

// Session is the session whose registry r is; "" is the default one.
func (r *Registry) Session() string { return r.session }

// Context is a session's browser context in one browser.
type Context struct {
	ID   string `json:"id"`
	Host string `json:"host"`
	Port int    `json:"port"`
	// EndpointURL is the remote endpoint, as Entry.EndpointURL.
	EndpointURL string `json:"endpoint,omitempty"`
	// Provider is the fleet the browser is on, as Entry.Provider.
	Provider string `json:"provider,omitempty"`
	// ProviderSession and ProviderAPI are as Entry's.
	ProviderSession string    `json:"providerSession,omitempty"`
	ProviderAPI     string    `json:"providerApi,omitempty"`
	ProviderExpires time.Time `json:"providerExpires,omitzero"`
	// Closed says why the context is gone, when cdpskill closed it
	// (CloseContext): the next call that finds it so says this.
	Closed string `json:"closed,omitempty"`
}

// Endpoint is the browser the context is in.
func (c Context) Endpoint() chrome.Endpoint {
	return chrome.Endpoint{Host: c.Host, Port: c.Port, URL: c.EndpointURL, Provider: c.Provider, Session: c.ProviderSession, API: c.ProviderAPI, Expires: c.ProviderExpires}.WithDefaults()
}

// contextOn is the index of the context recorded on ep, or -1.
func (st *registryState) contextOn(ep chrome.Endpoint) int {
	for i, c := range st.contexts {
		if chrome.SameEndpoint(c.Endpoint(), ep) {
			return i
		}
	}
	return -1
}

// Context returns the session's browser context on ep; found is false
// when the session has none there.
func (r *Registry) Context(ep chrome.Endpoint) (c Context, found bool, err error) {
	err = r.view(func(st *registryState) {
		if i := st.contextOn(ep); i >= 0 {
			c, found = st.contexts[i], true
		}
	})
	return c, found, err
}

// CloseContext records that the session's context id on ep was closed,
// and why, for the next call to say; its tabs are kept until that call
// forgets them with it (DropContext).
func (r *Registry) CloseContext(ep chrome.Endpoint, id, why string) error {
	return r.mutate(func(st *registryState) (bool, error) {
		i := st.contextOn(ep)
		if i < 0 || st.contexts[i].ID != id {
			return false, nil
		}
		st.contexts[i].Closed = why
		return true, nil
	})
}

// AddContext records id as the session's context on ep, unless one is
// recorded there already, which it returns instead: of two calls that
// made a context at once, the first to record it wins, and the other
// disposes of its own.
func (r *Registry) AddContext(ep chrome.Endpoint, id string) (string, error) {
	if id == "" {
		return "", errors.New("tab registry: cannot record an empty browser context id")
	}
	ep = ep.WithDefaults()
	kept := id
	err := r.mutate(func(st *registryState) (bool, error) {
		if i := st.contextOn(ep); i >= 0 {
			kept = st.contexts[i].ID
			return false, nil
		}
		st.contexts = append(st.contexts, Context{ID: id, Host: ep.Host, Port: ep.Port, EndpointURL: ep.URL, Provider: ep.Provider, ProviderSession: ep.Session, ProviderAPI: ep.API, ProviderExpires: ep.Expires})
		return true, nil
	})
	return kept, err
}

// DropContext forgets the session's context id on ep, and the tabs
// registered on ep, which went with it; it returns their aliases, lowest
// first. A context another call recorded there since is left alone.
func (r *Registry) DropContext(ep chrome.Endpoint, id string) ([]string, error) {
	var dropped []string
	err := r.mutate(func(st *registryState) (bool, error) {
		i := st.contextOn(ep)
		if i < 0 || st.contexts[i].ID != id {
			return false, nil
		}
		st.contexts = append(st.contexts[:i], st.contexts[i+1:]...)
		for _, a := range st.aliases() {
			if chrome.SameEndpoint(st.tabs[a].Endpoint(), ep) {
				delete(st.tabs, a)
				dropped = append(dropped, a)
			}
		}
		return true, nil
	})
	return dropped, err
}

// parseContexts keeps the valid records of raw, a JSON array, and
// describes the others.
func parseContexts(raw []byte) ([]Context, []string) {
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, []string{"dropped contexts: not an array of contexts"}
	}
	var out []Context
	var problems []string
	for i, item := range list {
		var c Context
		if err := json.Unmarshal(item, &c); err != nil || c.ID == "" {
			problems = append(problems, fmt.Sprintf("dropped context %d: not an object with an id", i+1))
			continue
		}
		e, err := normaliseEntry(Entry{TargetID: c.ID, Host: c.Host, Port: c.Port, EndpointURL: c.EndpointURL})
		if err != nil {
			problems = append(problems, fmt.Sprintf("dropped context %d: %v", i+1, err))
			continue
		}
		c.Host, c.Port, c.EndpointURL = e.Host, e.Port, e.EndpointURL
		out = append(out, c)
	}
	return out, problems
}
