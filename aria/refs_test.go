package aria_test

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/aria"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/page"
)

var refRE = regexp.MustCompile(`\[ref=(s\d+e\d+)\]`)

func refsIn(yaml string) []string {
	var out []string
	for _, m := range refRE.FindAllStringSubmatch(yaml, -1) {
		out = append(out, m[1])
	}
	return out
}

// eval runs a one-line expression in the page.
func eval(t *testing.T, p *page.Page, expr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if _, err := p.Evaluate(ctx, proto.RuntimeEvaluate{Expression: expr}); err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
}

type refState struct {
	SnapshotID int      `json:"snapshotId"`
	ElementID  int      `json:"elementId"`
	DocFloor   int      `json:"docFloor"`
	Size       int      `json:"size"`
	MetaSize   int      `json:"metaSize"`
	Problems   []string `json:"problems"`
}

// checkRefs runs testdata/refcheck.js and fails on any broken rule of the
// ref contract.
func checkRefs(t *testing.T, p *page.Page) refState {
	t.Helper()
	src, err := os.ReadFile("testdata/refcheck.js")
	if err != nil {
		t.Fatal(err)
	}
	var st refState
	if err := p.CallJS(t.Context(), string(src), &st); err != nil {
		t.Fatal(err)
	}
	for _, pr := range st.Problems {
		t.Error(pr)
	}
	return st
}

// TestRefNumbering follows refs across snapshots of one document: existing
// elements keep their refs, agent-facing snapshots start a new s{N},
// internal ones hand out refs under the current N.
func TestRefNumbering(t *testing.T) {
	p := open(t, "refs.html")
	first := snap(t, p, aria.Options{})
	if first.SnapshotID != "s1" {
		t.Fatalf("first snapshot id = %q, want s1", first.SnapshotID)
	}
	want1 := []string{"s1e1", "s1e2", "s1e3", "s1e4", "s1e5", "s1e6"}
	if got := refsIn(first.YAML); !slices.Equal(got, want1) || first.Refs != len(want1) {
		t.Fatalf("first refs = %v (Refs=%d), want %v\n%s", got, first.Refs, want1, first.YAML)
	}

	eval(t, p, `document.getElementById('app').insertAdjacentHTML('beforeend', '<button>Added</button>')`)
	second := snap(t, p, aria.Options{})
	if second.SnapshotID != "s2" {
		t.Errorf("second snapshot id = %q, want s2", second.SnapshotID)
	}
	if got, want := refsIn(second.YAML), append(want1, "s2e7"); !slices.Equal(got, want) {
		t.Errorf("second refs = %v, want %v\n%s", got, want, second.YAML)
	}

	eval(t, p, `document.getElementById('app').insertAdjacentHTML('beforeend', '<a href="/c">C</a>')`)
	internal := snap(t, p, aria.Options{Internal: true})
	if internal.SnapshotID != "s2" {
		t.Errorf("internal snapshot id = %q, want s2 (internal snapshots do not bump)", internal.SnapshotID)
	}
	if got := refsIn(internal.YAML); got[len(got)-1] != "s2e8" {
		t.Errorf("internal snapshot's new ref = %v, want s2e8 last", got)
	}

	plain := snap(t, p, aria.Options{Mode: aria.ModePlain})
	if plain.SnapshotID != "" || plain.Refs != 0 || len(refsIn(plain.YAML)) != 0 {
		t.Errorf("plain snapshot has refs or an id: %+v", plain)
	}

	third := snap(t, p, aria.Options{})
	if third.SnapshotID != "s3" {
		t.Errorf("third snapshot id = %q, want s3", third.SnapshotID)
	}
	if got := refsIn(third.YAML); len(got) != 8 || got[7] != "s2e8" {
		t.Errorf("third refs = %v, want the 8 refs already given", got)
	}

	st := checkRefs(t, p)
	if st.SnapshotID != 3 || st.ElementID != 8 || st.Size != 8 || st.MetaSize != 8 {
		t.Errorf("in-page state = %+v, want snapshot 3, element 8, 8 refs with meta", st)
	}
}

// TestRefKeptAfterRemovalFromMap: a ref deleted from the map (say by a
// cleanup in dom) is given back to the same element, not renumbered.
func TestRefKeptAfterRemovalFromMap(t *testing.T) {
	p := open(t, "refs.html")
	snap(t, p, aria.Options{})
	eval(t, p, `window.__ariaRefs.delete('s1e1')`)
	got := refsIn(snap(t, p, aria.Options{}).YAML)
	if got[0] != "s1e1" {
		t.Errorf("refs after delete = %v, want s1e1 back first", got)
	}
	checkRefs(t, p)
}

// TestRefMetaNames: the meta records role and name for re-resolution; an
// unnamed clickable element is recorded under its text.
func TestRefMetaNames(t *testing.T) {
	p := open(t, "refs.html")
	snap(t, p, aria.Options{})
	type meta struct{ Selector, Role, Name string }
	for ref, want := range map[string]meta{
		"s1e6": {Role: "textbox", Name: "Query"},
		"s1e5": {Role: "generic", Name: "Pointer"},
		"s1e2": {Role: "button", Name: "Save again"},
	} {
		var got meta
		if err := p.CallJS(t.Context(), `function (ref) { return window.__ariaRefMeta.get(ref); }`, &got, ref); err != nil {
			t.Fatal(err)
		}
		if got.Role != want.Role || got.Name != want.Name || got.Selector == "" {
			t.Errorf("meta of %s = %+v, want %s %q with a selector", ref, got, want.Role, want.Name)
		}
	}

	// A later snapshot refreshes the meta of a ref it reuses.
	eval(t, p, `document.querySelector('#app > button').textContent = 'Saved'`)
	snap(t, p, aria.Options{})
	var name string
	if err := p.CallJS(t.Context(), `function () { return window.__ariaRefMeta.get('s1e1').name; }`, &name); err != nil {
		t.Fatal(err)
	}
	if name != "Saved" {
		t.Errorf("meta name of s1e1 after rename = %q, want Saved", name)
	}
}

// preserveRefs:false hands out new refs for everything and forgets the
// old ones; numbers never come back.
func TestPreserveRefsFalse(t *testing.T) {
	p := open(t, "refs.html")
	first := snap(t, p, aria.Options{})
	no := false
	fresh := snap(t, p, aria.Options{PreserveRefs: &no})
	got := refsIn(fresh.YAML)
	if fresh.SnapshotID != "s2" || len(got) != first.Refs || got[0] != fmt.Sprintf("s2e%d", first.Refs+1) {
		t.Fatalf("fresh refs = %v (first had %d)\n%s", got, first.Refs, fresh.YAML)
	}
	var known bool
	eval(t, p, `window.__known = window.__ariaRefs.has('s1e1')`)
	if err := p.CallJS(t.Context(), "() => window.__known", &known); err != nil || known {
		t.Fatalf("s1e1 still known after preserveRefs:false (err %v)", err)
	}
}
