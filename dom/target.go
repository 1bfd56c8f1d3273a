package dom

import (
	"fmt"
	"regexp"
)

// refPattern is the shape of an aria ref: snapshot N, element M.
var refPattern = regexp.MustCompile(`^s\d+e\d+$`)

// IsRef reports whether s is an aria ref such as "s1e4" rather than a CSS
// selector.
func IsRef(s string) bool { return refPattern.MatchString(s) }

// Target names the element an action is for. Exactly one of Selector, Ref
// and Label is set; with none set the target is the focused element.
type Target struct {
	Selector string
	Ref      string
	Label    string
	// Exact makes Label match the whole label text, case-sensitively,
	// instead of as a case-insensitive substring.
	Exact bool
}

// ParseTarget reads the string form a step gives: a ref when it looks like
// one, otherwise a CSS selector. "" is the focused element.
func ParseTarget(s string) Target {
	if IsRef(s) {
		return Target{Ref: s}
	}
	return Target{Selector: s}
}

func (t Target) String() string {
	switch {
	case t.Ref != "":
		return "ref " + t.Ref
	case t.Selector != "":
		return fmt.Sprintf("selector %q", t.Selector)
	case t.Label != "":
		return fmt.Sprintf("field labelled %q", t.Label)
	}
	return "the focused element"
}

// targetArg is the target as js/resolve.js reads it.
type targetArg struct {
	Kind  string `json:"kind"`
	Value string `json:"value,omitempty"`
	Exact bool   `json:"exact,omitempty"`
}

func (t Target) arg() targetArg {
	switch {
	case t.Ref != "":
		return targetArg{Kind: "ref", Value: t.Ref}
	case t.Selector != "":
		return targetArg{Kind: "selector", Value: t.Selector}
	case t.Label != "":
		return targetArg{Kind: "label", Value: t.Label, Exact: t.Exact}
	}
	return targetArg{Kind: "focused"}
}
