package tabs

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/cdpskill/cdpskill/chrome"
)

// FuzzRegistryLoad feeds arbitrary bytes as the registry file. Loading must
// never panic, must keep nextId above every surviving alias, and must
// produce a file that then reads back cleanly and identically.
func FuzzRegistryLoad(f *testing.F) {
	for _, seed := range []string{
		`{"nextId": 3, "tabs": {"t1": {"targetId": "AB", "host": "localhost", "port": 9222}, "t2": "CD"}}`,
		`{"nextId": 3, "tabs": {"t1": {"targetId": "AB", "ho`,
		`{"nextId": 999999999999999999999, "tabs": {"t999999999999999": "X"}}`,
		`{"nextId": 1e3, "tabs": {"t1": {"targetId": "A", "TARGETID": "B", "extra": [1, {"x": null}]}}}`,
		`{"tabs": {"t1": {"targetId": "\ud800<&>"}, "t01": "Y", "": "Z"}, "nextId": -4}`,
		"\xef\xbb\xbf{}",
		`[[[[[[[[[[[[[[[[[[[[`,
		`null`,
		``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		st, _ := parseRegistry(data)
		if st.nextID < 1 || st.nextID > maxAliasNumber+1 {
			t.Fatalf("nextId %d out of range", st.nextID)
		}
		for a, e := range st.tabs {
			if !IsAlias(a) || aliasNumber(a) >= st.nextID || e.TargetID == "" {
				t.Fatalf("bad survivor %q = %+v with nextId %d", a, e, st.nextID)
			}
		}
		enc, err := st.encode()
		if err != nil {
			t.Fatal(err)
		}
		st2, problems := parseRegistry(enc)
		if len(problems) > 0 {
			t.Fatalf("rebuilt file is damaged: %v\n%s", problems, enc)
		}
		if enc2, _ := st2.encode(); !bytes.Equal(enc, enc2) {
			t.Fatalf("rebuild not stable:\n%s\n%s", enc, enc2)
		}
		checkRegistryOnFile(t, data, st)
	})
}

// checkRegistryOnFile runs the public API over data written as the file.
// parsed is what parseRegistry made of data.
func checkRegistryOnFile(t *testing.T, data []byte, parsed *registryState) {
	r := OpenRegistry(filepath.Join(t.TempDir(), "tabs.json"))
	if err := os.WriteFile(r.path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	list, err := r.List()
	if err != nil || len(list) != len(parsed.tabs) {
		t.Fatalf("List = %d entries, %v; want %d", len(list), err, len(parsed.tabs))
	}
	a, err := r.Register("FUZZ", chrome.Endpoint{})
	exhausted := parsed.nextID > maxAliasNumber
	if exhausted != (err != nil) {
		t.Fatalf("Register = %q, %v with nextId %d", a, err, parsed.nextID)
	}
	if err == nil && aliasNumber(a) < parsed.nextID {
		t.Fatalf("Register handed out %s below nextId %d", a, parsed.nextID)
	}
}
