package profiles

import (
	"path/filepath"
	"strings"
	"testing"
)

// Whatever an agent or a page's URL gives, a profile name that Normalize
// accepts names one file directly inside the store: no separator, no
// parent, no hidden file, and normalizing it again changes nothing.
func FuzzNormalize(f *testing.F) {
	for _, seed := range []string{"example.com", "https://www.Example.com:8080/x", "../../etc", "/etc/passwd", "a/b", "..",
		"", "\x00", "127.0.0.1_8766", "xn--bcher-kva.example", "..com", ".hidden", "a..b", "http://[::1]:9222/", "C:\\x"} {
		f.Add(seed)
	}
	store := Store{Dir: "/store"}
	f.Fuzz(func(t *testing.T, in string) {
		name, err := Normalize(in)
		if err != nil {
			return
		}
		if name == "" || strings.ContainsAny(name, `/\`+"\x00") || strings.HasPrefix(name, ".") || strings.Contains(name, "..") {
			t.Fatalf("Normalize(%q) = %q", in, name)
		}
		if filepath.Dir(store.Path(name)) != store.Dir {
			t.Fatalf("Normalize(%q) = %q leaves the store: %s", in, name, store.Path(name))
		}
		if again, err := Normalize(name); err != nil || again != name {
			t.Fatalf("Normalize(%q) = %q, again %q (%v)", in, name, again, err)
		}
	})
}
