package dom

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// refPattern is the shape of an aria ref: snapshot N, element M.
var refPattern = regexp.MustCompile(`^s(\d+)e(\d+)$`)

// IsRef reports whether s is an aria ref such as "s1e4" rather than a CSS
// selector.
func IsRef(s string) bool { return refPattern.MatchString(s) }

// refSnapshot is the "sN" part of a ref, or "".
func refSnapshot(ref string) string {
	m := refPattern.FindStringSubmatch(ref)
	if m == nil {
		return ""
	}
	n, _ := strconv.Atoi(m[1])
	return "s" + strconv.Itoa(n)
}

// Target names the element an action is for. Exactly one of Selector,
// Ref, Label, Text and Selectors is set; with none set the target is the
// focused element.
type Target struct {
	Selector string
	Ref      string
	Label    string
	// Text finds a visible clickable element by its accessible name or
	// text (SPEC 6.4): buttons first, then links, role=button, then other
	// clickables. Within, a CSS selector, limits the search to one subtree.
	Text   string
	Within string
	// Selectors are tried in order; the first that matches a visible
	// element wins (SPEC 6.6).
	Selectors []string
	// Exact makes Label and Text match the whole text, case-sensitively,
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
	case t.Text != "":
		s := fmt.Sprintf("clickable element with text %q", t.Text)
		if t.Within != "" {
			s += fmt.Sprintf(" within %q", t.Within)
		}
		return s
	case len(t.Selectors) > 0:
		q := make([]string, len(t.Selectors))
		for i, s := range t.Selectors {
			q[i] = strconv.Quote(s)
		}
		return "any of selectors " + strings.Join(q, ", ")
	}
	return "the focused element"
}

// SearchTerm is what a human would have searched the page for: the text,
// label or selector(s). A ref says nothing by itself, so it gives "".
func (t Target) SearchTerm() string {
	switch {
	case t.Text != "":
		return t.Text
	case t.Label != "":
		return t.Label
	case t.Selector != "":
		return t.Selector
	case len(t.Selectors) > 0:
		return strings.Join(t.Selectors, " ")
	}
	return ""
}

// targetArg is the target as js/resolve.js reads it.
type targetArg struct {
	Kind   string   `json:"kind"`
	Value  string   `json:"value,omitempty"`
	Values []string `json:"values,omitempty"`
	Within string   `json:"within,omitempty"`
	Exact  bool     `json:"exact,omitempty"`
}

func (t Target) arg() targetArg {
	switch {
	case t.Ref != "":
		return targetArg{Kind: "ref", Value: t.Ref}
	case t.Selector != "":
		return targetArg{Kind: "selector", Value: t.Selector}
	case t.Label != "":
		return targetArg{Kind: "label", Value: t.Label, Exact: t.Exact}
	case t.Text != "":
		return targetArg{Kind: "text", Value: t.Text, Within: t.Within, Exact: t.Exact}
	case len(t.Selectors) > 0:
		return targetArg{Kind: "selectors", Values: t.Selectors}
	}
	return targetArg{Kind: "focused"}
}
