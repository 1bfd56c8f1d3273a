// Package profiles keeps what agents learn about sites (SPEC 15): one
// markdown file per domain under ~/.cdp-skill/sites, read when a tab
// arrives at the domain and written by the agent. Domain names are
// normalised before they touch the file system, and a name that would
// leave the directory is refused.
package profiles

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/cdpskill/cdpskill/internal/private"
)

// MaxSize bounds a profile: it is read into every first call on a domain.
const MaxSize = 64 << 10

// maxName keeps a profile's file name, and its temporary file's, within
// what file systems allow (255 bytes).
const maxName = 200

// DomainError is a domain that cannot name a profile.
type DomainError struct {
	Domain string
	Reason string
}

func (e *DomainError) Error() string {
	return fmt.Sprintf("domain %q %s", e.Domain, e.Reason)
}

// Normalize turns what an agent or a URL gives into a profile's name
// (SPEC 15.2): a URL's host and port, lower case, without "www." or a
// fully qualified name's root dot, with every character other than
// letters, digits, "." and "-" made "_". Paths, NUL and names that are
// only dots or underscores are refused. A name it gives, it gives again.
func Normalize(domain string) (string, error) {
	d := strings.TrimSpace(domain)
	if strings.Contains(d, "://") {
		u, err := url.Parse(d)
		if err != nil || u.Host == "" {
			return "", &DomainError{domain, "is not a URL with a host"}
		}
		d = u.Host
	}
	switch {
	case d == "":
		return "", &DomainError{domain, "is empty"}
	case strings.ContainsRune(d, 0):
		return "", &DomainError{domain, "contains a NUL byte"}
	case strings.ContainsAny(d, `/\`):
		return "", &DomainError{domain, `is a path, not a domain (give "example.com")`}
	case len(d) > maxName:
		return "", &DomainError{domain, fmt.Sprintf("is longer than %d characters", maxName)}
	}
	// A fully qualified name's root dot and any www. in front name the
	// same site as the name without them.
	d = strings.TrimSuffix(strings.ToLower(d), ".")
	for strings.HasPrefix(d, "www.") {
		d = d[len("www."):]
	}
	var b strings.Builder
	for _, r := range d {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	out := b.String()
	if strings.Trim(out, "._") == "" || strings.HasPrefix(out, ".") || strings.HasSuffix(out, ".") || strings.Contains(out, "..") {
		return "", &DomainError{domain, "does not name a site"}
	}
	return out, nil
}

// DomainOf is the profile name of an http(s) URL's site; false for other
// schemes (file:, data:, about:, chrome-error:) and unreadable URLs.
func DomainOf(rawURL string) (string, bool) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", false
	}
	d, err := Normalize(u.Host)
	return d, err == nil
}

// Store is a directory of profiles.
type Store struct{ Dir string }

// DefaultStore is ~/.cdp-skill/sites, home from getenv (HOME, else
// USERPROFILE); without a home there is no store.
func DefaultStore(getenv func(string) string) (Store, error) {
	home := getenv("HOME")
	if home == "" {
		home = getenv("USERPROFILE")
	}
	if home == "" || !filepath.IsAbs(home) {
		return Store{}, errors.New("no home directory for site profiles: set HOME")
	}
	return Store{Dir: filepath.Join(home, ".cdp-skill", "sites")}, nil
}

// Path is where a normalised domain's profile lives.
func (s Store) Path(domain string) string { return filepath.Join(s.Dir, domain+".md") }

// Read returns a normalised domain's profile; found is false when there
// is none. A profile grown past MaxSize by hand is cut there, and says so.
func (s Store) Read(domain string) (content string, found bool, err error) {
	f, err := os.Open(s.Path(domain))
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", false, nil
	case err != nil:
		return "", false, fmt.Errorf("read the site profile of %s: %w", domain, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return "", false, fmt.Errorf("read the site profile of %s: %w", domain, err)
	}
	if len(data) > MaxSize {
		data = append(data[:MaxSize], fmt.Sprintf("\n… (cut at %d bytes: the profile is longer; keep it short)", MaxSize)...)
	}
	return string(data), true, nil
}

// Write replaces a normalised domain's profile atomically (a temporary
// file renamed over it), 0600 in a directory made 0700, and returns its
// path. The error names the file.
func (s Store) Write(domain, content string) (string, error) {
	path := s.Path(domain)
	if err := private.WriteFile(path, []byte(content)); err != nil {
		return "", err
	}
	return path, nil
}
