package tabs

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/chrome"
	"github.com/cdpskill/cdpskill/internal/private"
)

func TestCheckSession(t *testing.T) {
	for _, ok := range []string{"a", "review-42", "Alice.v2_x", "0", strings.Repeat("x", 64)} {
		if err := CheckSession(ok); err != nil {
			t.Errorf("CheckSession(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"", ".", "..", "-x", ".hidden", "_x", "a b", "a/b", `a\b`, "ä", strings.Repeat("x", 65), "x\n"} {
		err := CheckSession(bad)
		var ne *SessionNameError
		if !errors.As(err, &ne) || !strings.Contains(err.Error(), "letters, digits") {
			t.Errorf("CheckSession(%q) = %v, want a *SessionNameError saying what a name is", bad, err)
		}
	}
}

// Each session's aliases are its own: the same alias names a different
// tab in each, and a session's registry knows nothing of the others'
// tabs, by alias or target id.
func TestSessionsHaveTheirOwnAliases(t *testing.T) {
	temp := private.Temp(t.TempDir())
	def, a, b := OpenSession(temp, ""), OpenSession(temp, "a"), OpenSession(temp, "b")
	if def.Session() != "" || a.Session() != "a" {
		t.Errorf("Session() = %q, %q", def.Session(), a.Session())
	}
	if want := filepath.Join(temp.Root(), "sessions", "a", "tabs.json"); a.path != want {
		t.Errorf("session a's registry is %s, want %s", a.path, want)
	}
	if def.path != RegistryPath(temp) {
		t.Errorf("the default session's registry is %s, want %s", def.path, RegistryPath(temp))
	}
	for r, id := range map[*Registry]string{def: idA, a: idB, b: idC} {
		if alias := mustRegister(t, r, id, chrome.Endpoint{}); alias != "t1" {
			t.Errorf("session %q's first alias is %s", r.Session(), alias)
		}
	}
	for r, id := range map[*Registry]string{def: idA, a: idB, b: idC} {
		_, e, found, err := r.Resolve("t1")
		if err != nil || !found || e.TargetID != id {
			t.Errorf("session %q resolves t1 to %v %v %v, want %s", r.Session(), e.TargetID, found, err, id)
		}
	}
	for _, id := range []string{idA, idC} {
		if _, _, found, _ := a.Resolve(id); found {
			t.Errorf("session a resolves another session's target %s", id)
		}
	}
}

func TestSessionContexts(t *testing.T) {
	r := OpenSession(private.Temp(t.TempDir()), "work")
	local := chrome.Endpoint{}
	if _, found, err := r.Context(local); found || err != nil {
		t.Fatalf("a new session has a context: %v %v", found, err)
	}
	if kept, err := r.AddContext(local, "CTX1"); kept != "CTX1" || err != nil {
		t.Fatalf("AddContext = %q, %v", kept, err)
	}
	// A second call that made a context at once keeps the first's.
	if kept, _ := r.AddContext(chrome.Endpoint{Host: "localhost", Port: 9222}, "CTX2"); kept != "CTX1" {
		t.Errorf("a second context on the same browser replaced the first: %q", kept)
	}
	if kept, _ := r.AddContext(remoteEP, "CTX3"); kept != "CTX3" {
		t.Errorf("another browser's context: %q", kept)
	}
	if c, found, _ := r.Context(local); c.ID != "CTX1" || !found {
		t.Errorf("Context(local) = %q %v", c.ID, found)
	}
	t1 := mustRegister(t, r, idA, local)
	t2 := mustRegister(t, r, idB, remoteEP)
	t3 := mustRegister(t, r, idC, local)
	// A context that is not the one recorded is not dropped.
	if dropped, err := r.DropContext(local, "CTX2"); len(dropped) != 0 || err != nil {
		t.Errorf("DropContext of a stale id dropped %v, %v", dropped, err)
	}
	dropped, err := r.DropContext(local, "CTX1")
	if err != nil || !slices.Equal(dropped, []string{t1, t3}) {
		t.Errorf("DropContext dropped %v, %v; want the local tabs %s %s", dropped, err, t1, t3)
	}
	if _, found, _ := r.Context(local); found {
		t.Errorf("the dropped context is still recorded")
	}
	if c, _, _ := r.Context(remoteEP); c.ID != "CTX3" {
		t.Errorf("the other browser's context went too: %q", c.ID)
	}
	if _, _, found, _ := r.Resolve(t2); !found {
		t.Errorf("the other browser's tab went too")
	}
	st := readSound(t, r)
	if len(st.contexts) != 1 || len(st.tabs) != 1 {
		t.Errorf("file holds %v and %v", st.contexts, st.tabs)
	}
}

// A damaged record of contexts costs only itself; the default registry
// writes none.
func TestSessionContextsDamaged(t *testing.T) {
	r, reports := newTestRegistry(t)
	writeRegistryFile(t, r, `{"nextId": 3, "contexts": [{"id": ""}, 7, {"id": "X", "port": 70000}, {"id": "Y"}], "tabs": {}}`)
	if c, found, err := r.Context(chrome.Endpoint{}); c.ID != "Y" || !found || err != nil {
		t.Errorf("Context = %q %v %v, want the sound record Y", c.ID, found, err)
	}
	checkOneReport(t, *reports)
	if got := (*reports)[0].(*CorruptRegistryError).Problems; len(got) != 3 {
		t.Errorf("problems %v, want one per bad record", got)
	}
	writeRegistryFile(t, r, `{"nextId": 3, "contexts": {"id": "Y"}, "tabs": {}}`)
	if _, found, _ := r.Context(chrome.Endpoint{}); found {
		t.Errorf("contexts that are not an array were read")
	}
	writeRegistryFile(t, r, `{"nextId": 3, "contexts": [{"id": "Y"}], "tabs": {"t1": {"targ`)
	if c, _, _ := r.Context(chrome.Endpoint{}); c.ID != "Y" {
		t.Errorf("a file cut in its tabs lost its contexts: %q", c.ID)
	}
	def := OpenSession(private.Temp(t.TempDir()), "")
	mustRegister(t, def, idA, chrome.Endpoint{})
	data, err := os.ReadFile(def.path)
	if err != nil || strings.Contains(string(data), "contexts") {
		t.Errorf("the default registry writes contexts: %s %v", data, err)
	}
}
