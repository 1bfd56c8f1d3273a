package aria_test

import (
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/aria"
	"github.com/cdpskill/cdpskill/internal/testbrowser"
	"github.com/cdpskill/cdpskill/page"
)

func TestSinceUnchanged(t *testing.T) {
	p := open(t, "form.html")
	first := snap(t, p, aria.Options{})
	res := snap(t, p, aria.Options{Since: first.SnapshotID})
	if !res.Unchanged || res.SnapshotID != "s1" || res.YAML != "" {
		t.Fatalf("since s1 on an unchanged page = %+v", res)
	}
	if next := snap(t, p, aria.Options{}); next.SnapshotID != "s2" {
		t.Errorf("an unchanged answer used up a snapshot number: next is %s", next.SnapshotID)
	}
	// An id the page never issued is a change: the snapshot is taken.
	if res := snap(t, p, aria.Options{Since: "s99"}); res.Unchanged || res.SnapshotID != "s3" {
		t.Errorf("since s99 = %+v, want a new snapshot s3", res)
	}
	// Plain snapshots have no id to compare with.
	if res := snap(t, p, aria.Options{Since: "s3", Mode: aria.ModePlain}); res.Unchanged || res.YAML == "" {
		t.Errorf("plain since = %+v, want a snapshot", res)
	}
}

// TestSinceComparesGivenID (issue 3 lesson): since compares with the
// snapshot it names, not with the latest one.
func TestSinceComparesGivenID(t *testing.T) {
	p := open(t, "refs.html")
	s1 := snap(t, p, aria.Options{})
	eval(t, p, `document.getElementById('app').insertAdjacentHTML('beforeend', '<p>More</p>')`)
	s2 := snap(t, p, aria.Options{})
	if res := snap(t, p, aria.Options{Since: s2.SnapshotID}); !res.Unchanged {
		t.Errorf("since %s (the latest) = %+v, want unchanged", s2.SnapshotID, res)
	}
	res := snap(t, p, aria.Options{Since: s1.SnapshotID})
	if res.Unchanged || !strings.Contains(res.YAML, "More") || res.SnapshotID != "s3" {
		t.Errorf("since %s (before the change) = %+v, want a new snapshot s3", s1.SnapshotID, res)
	}
}

// TestSinceSeesChanges: each kind of change a snapshot would show makes
// the page changed, including the ones that mutate no DOM.
func TestSinceSeesChanges(t *testing.T) {
	changes := map[string]string{
		"text":           `document.querySelector('label').firstChild.data = 'Login '`,
		"attribute":      `document.querySelector('button').setAttribute('aria-pressed', 'false')`,
		"value (script)": `document.getElementById('user').value = 'grace'`,
		"checked":        `document.querySelector('[name=news]').checked = true`,
		"hidden":         `document.querySelector('fieldset').style.display = 'none'`,
		"scroll":         `window.scrollTo(0, 200)`,
		"url":            `history.pushState(null, '', '?page=2')`,
	}
	for name, js := range changes {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := open(t, "form.html")
			eval(t, p, `document.body.style.minHeight = '3000px'`)
			s := snap(t, p, aria.Options{})
			eval(t, p, js)
			if res := snap(t, p, aria.Options{Since: s.SnapshotID}); res.Unchanged {
				t.Errorf("after %s: unchanged", js)
			}
		})
	}
}

// TestCounterFloors is the navigation case of issue 3: a fresh document
// numbers its snapshots and refs above the tab's counters, and records
// where its own numbering began.
func TestCounterFloors(t *testing.T) {
	s := browser.NewTab(t)
	srv := testbrowser.Serve(t, "testdata")
	testbrowser.Navigate(t, s, srv.URL+"/refs.html")
	p := page.New(s)
	first := snap(t, p, aria.Options{})
	if first.LastSnapshot != 1 || first.LastElement != 6 {
		t.Fatalf("counters after the first snapshot: %d/%d, want 1/6", first.LastSnapshot, first.LastElement)
	}

	testbrowser.Navigate(t, s, srv.URL+"/refs.html?again")
	res := snap(t, p, aria.Options{SnapshotFloor: first.LastSnapshot, ElementFloor: first.LastElement})
	if res.SnapshotID != "s2" || refsIn(res.YAML)[0] != "s2e7" || res.LastElement != 12 {
		t.Fatalf("after navigation: id %s, refs %v, last element %d; want s2, s2e7…, 12", res.SnapshotID, refsIn(res.YAML), res.LastElement)
	}
	if st := checkRefs(t, p); st.DocFloor != 6 {
		t.Errorf("__ariaDocFloor = %d, want 6", st.DocFloor)
	}

	// Floors below the page's counters change nothing; internal snapshots
	// number under the current id.
	res = snap(t, p, aria.Options{Internal: true, SnapshotFloor: 1, ElementFloor: 3})
	if res.SnapshotID != "s2" || res.LastElement != 12 {
		t.Errorf("low floors: %+v", res)
	}
	if st := checkRefs(t, p); st.DocFloor != 6 {
		t.Errorf("__ariaDocFloor moved to %d", st.DocFloor)
	}

	// Higher floors (the tab numbered refs on a later document, then came
	// back to this one) lift the counters, and keep this document's refs.
	res = snap(t, p, aria.Options{SnapshotFloor: 9, ElementFloor: 40})
	if res.SnapshotID != "s10" || refsIn(res.YAML)[0] != "s2e7" {
		t.Errorf("high floors: id %s, refs %v; want s10 with the old refs", res.SnapshotID, refsIn(res.YAML))
	}
	eval(t, p, `document.getElementById('app').insertAdjacentHTML('beforeend', '<button>New</button>')`)
	if res := snap(t, p, aria.Options{}); !strings.Contains(res.YAML, "[ref=s11e41]") {
		t.Errorf("a new ref after high floors:\n%s", res.YAML)
	}
}
