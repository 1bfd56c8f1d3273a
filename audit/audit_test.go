package audit

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// The vendored build is the version VERSION pins, the one the Makefile
// fetches, and its rule list is what validation and the frames' skips
// rely on.
func TestVendoredAxe(t *testing.T) {
	src, err := axeSource()
	if err != nil {
		t.Fatal(err)
	}
	if head := "/*! axe v" + Version + "\n"; !strings.HasPrefix(src, head) {
		t.Errorf("axe.min.js.gz does not start %q: %q", head, src[:min(len(src), 40)])
	}
	if !strings.Contains(src, "Mozilla Public") {
		t.Error("axe.min.js lost its licence header")
	}
	mk, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(mk), "AXE_VERSION ?= $(shell cat audit/axe/VERSION)") {
		t.Error("the Makefile's axe target no longer reads its version from audit/axe/VERSION")
	}
	if len(Rules) < 50 || !slices.IsSorted(Rules) {
		t.Errorf("rules.txt: %d rules, sorted %v", len(Rules), slices.IsSorted(Rules))
	}
	for _, r := range slices.Concat(ownRules, pageRules, []string{"label", "button-name", "color-contrast", "list"}) {
		if !knownRule(r) {
			t.Errorf("%s is not a rule of axe-core %s", r, Version)
		}
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{}, ""},
		{Options{Root: "main", Rules: []string{"label", "list"}}, ""},
		{Options{Level: "wcag22aa"}, ""},
		{Options{Level: "AA"}, `invalid level "AA": must be one of best-practice, wcag21aa, wcag22aa, wcag2a, wcag2aa`},
		{Options{Level: "wcag2a", Rules: []string{"label"}}, `rules: give "rules" or "level", not both`},
		{Options{Rules: []string{}}, "rules: empty"},
		{Options{Rules: []string{"label", "buton-name"}}, `invalid rule "buton-name": not a rule of axe-core ` + Version + `; did you mean "button-name"?`},
		{Options{Rules: []string{"frame-tested"}}, `invalid rule "frame-tested": is axe's check that it reached the frames itself`},
		{Options{Rules: []string{"contrast-everything"}}, `invalid rule "contrast-everything": not a rule of axe-core ` + Version},
	} {
		err := tc.o.Validate()
		got := ""
		if err != nil {
			got = err.Error()
		}
		if tc.want == "" && got != "" || !strings.HasPrefix(got, tc.want) {
			t.Errorf("%+v: %q, want %q", tc.o, got, tc.want)
		}
	}
}

// The results of the documents merge by rule, the gravest first, each
// listing PerRule elements at most, counting them all.
func TestResultOrder(t *testing.T) {
	a := &auditor{byRule: map[string]*Violation{}, passes: map[string]bool{"a": true}, incomplete: map[string]bool{}}
	for _, v := range []*Violation{
		{Rule: "region", Impact: "moderate", Count: 9},
		{Rule: "list", Impact: "serious", Count: 1},
		{Rule: "label", Impact: "critical", Count: 1},
		{Rule: "color-contrast", Impact: "serious", Count: 4},
		{Rule: "odd", Impact: "", Count: 1},
	} {
		a.order = append(a.order, v)
	}
	var got []string
	for _, v := range a.result().Violations {
		got = append(got, v.Rule)
	}
	if want := []string{"label", "color-contrast", "list", "region", "odd"}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	if r := (&auditor{}).result(); r.Violations == nil {
		t.Error("no violations is nil, which says null, not []")
	}
}
