package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/cdpskill/cdpskill/chrome"
	"github.com/cdpskill/cdpskill/profiles"
	"github.com/cdpskill/cdpskill/tabs"
)

// profileSteps read and write what agents learned about sites (SPEC 15).
var profileSteps = []step{
	define("readSiteProfile", `"example.com" | {domain}`,
		"", 0, decodeReadProfile, runReadProfile).out(`{found, domain, content?}`),
	define("writeSiteProfile", `{domain, content: "# example.com\n## Quirks\n…"}`,
		"create or replace one (markdown)", holdsTabs, decodeWriteProfile, runWriteProfile).out(`{written, path, domain}`),
}

type profileParams struct {
	Domain  string  `json:"domain"`
	Content *string `json:"content"`
	name    string  // the normalised domain
}

func decodeReadProfile(raw json.RawMessage) (profileParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *profileParams) error {
		if s, ok := asString(raw); ok {
			p.Domain = s
			return nil
		}
		return paramErrorf(`expected a domain such as "example.com" or {domain}, got %s`, jsonKind(raw))
	})
	if err == nil && p.Content != nil {
		err = paramErrorf(`"content" is for writeSiteProfile`)
	}
	if err == nil {
		p.name, err = normalizeDomain(p.Domain)
	}
	return p, err
}

func decodeWriteProfile(raw json.RawMessage) (profileParams, error) {
	p, err := decodeInto[profileParams](raw, nil)
	if err != nil {
		return p, err
	}
	if p.name, err = normalizeDomain(p.Domain); err != nil {
		return p, err
	}
	switch {
	case p.Content == nil || strings.TrimSpace(*p.Content) == "":
		return p, paramErrorf(`"content" is required: the profile's markdown (read it first and merge: this replaces it)`)
	case len(*p.Content) > profiles.MaxSize:
		return p, paramErrorf(`"content" is %d bytes; a profile holds at most %d: keep what saves the next agent time`, len(*p.Content), profiles.MaxSize)
	}
	return p, nil
}

func normalizeDomain(d string) (string, error) {
	if d == "" {
		return "", paramErrorf(`"domain" is required, e.g. "example.com"`)
	}
	name, err := profiles.Normalize(d)
	if err != nil {
		return "", paramErrorf("%v", err)
	}
	return name, nil
}

type profileRead struct {
	Found   bool   `json:"found"`
	Domain  string `json:"domain"`
	Content string `json:"content,omitempty"`
}

func runReadProfile(_ context.Context, e *env, p profileParams) (output, error) {
	store, err := profileStore(e.getenv)
	if err != nil {
		return output{}, err
	}
	content, found, err := store.Read(p.name)
	if err != nil {
		return output{}, err
	}
	return output{value: profileRead{Found: found, Domain: p.name, Content: content}}, nil
}

type profileWritten struct {
	Written bool   `json:"written"`
	Path    string `json:"path"`
	Domain  string `json:"domain"`
}

func runWriteProfile(_ context.Context, e *env, p profileParams) (output, error) {
	store, err := profileStore(e.getenv)
	if err != nil {
		return output{}, err
	}
	path, err := store.Write(p.name, *p.Content)
	if err != nil {
		return output{}, err
	}
	e.toldSite(p.name) // the agent knows what it just wrote
	return output{value: profileWritten{Written: true, Path: path, Domain: p.name}}, nil
}

func profileStore(getenv chrome.Env) (profiles.Store, error) {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	return profiles.DefaultStore(getenv)
}

// ActionRequired is an instruction the agent must follow before going on
// (SPEC 15.3).
type ActionRequired struct {
	Action  string `json:"action"`
	Domain  string `json:"domain"`
	Message string `json:"message"`
}

// siteReport tells the agent, once per tab and domain, what is known
// about the site the tab is on: its profile, or that one must be written.
// Every http(s) site gets it, localhost too.
func (c *Call) siteReport(res *Result) {
	if res.Context == nil || c.alias() == "" {
		return
	}
	domain, ok := profiles.DomainOf(res.Context.URL)
	if !ok {
		return
	}
	_, entry, found, err := c.tabs.Resolve(c.alias())
	if err != nil || !found || slices.Contains(strings.Fields(entry.Sites), domain) {
		return
	}
	store, err := profileStore(c.getenv)
	if err != nil {
		return // no home: nowhere to keep profiles, nothing to ask for
	}
	content, found, err := store.Read(domain)
	if err != nil {
		c.warn("site profile: %v", err)
		return
	}
	if found {
		res.SiteProfile = content
	} else {
		res.ActionRequired = &ActionRequired{Action: "createSiteProfile", Domain: domain, Message: fmt.Sprintf(
			"No site profile for %s yet: before going on, take a snapshot, find how the site is built with pageFunction "+
				"(context.framework may already say), and save what helps the next agent with writeSiteProfile.", domain)}
	}
	c.env().toldSite(domain)
}

// toldSite records that the tab's agent has the domain's profile.
func (e *env) toldSite(domain string) {
	if e.alias() == "" {
		return
	}
	err := e.tabs.registry().Update(e.alias(), func(t *tabs.Entry) {
		if sites := strings.Fields(t.Sites); !slices.Contains(sites, domain) {
			t.Sites = strings.Join(append(sites, domain), " ")
		}
	})
	var gone *tabs.UnknownAliasError
	if err != nil && !errors.As(err, &gone) {
		e.warn("tab registry: %v", err)
	}
}
