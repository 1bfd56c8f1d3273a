package diff

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Changes is the changes field of a result (SPEC 14.2): a one-sentence
// summary, then the lines added and removed and the fields changed.
type Changes struct {
	Summary string   `json:"summary"`
	Added   []string `json:"added,omitempty"`
	Removed []string `json:"removed,omitempty"`
	Changed []Change `json:"changed,omitempty"`
}

// summaryIDs is how many refs or roles a summary names per part.
const summaryIDs = 5

// Report sums d up for the agent, the summary starting with what the
// call did ("Clicked"); limit caps each list (0: no cap), while the
// summary counts everything. It is nil when nothing changed.
func (d *Diff) Report(action string, limit int) *Changes {
	if d == nil || d.Empty() {
		return nil
	}
	parts := []string{action}
	added, removed := "added", "removed"
	if d.scrolled {
		// Most of what a scroll adds or removes is still on the page.
		added, removed = "in view", "out of view"
	}
	if n := len(d.Added); n > 0 {
		parts = append(parts, fmt.Sprintf("%d %s%s", n, added, ids(nodeLabels(d.Added))))
	}
	if n := len(d.Removed); n > 0 {
		parts = append(parts, fmt.Sprintf("%d %s%s", n, removed, ids(nodeLabels(d.Removed))))
	}
	parts = append(parts, changeParts(d.Changed)...)
	c := &Changes{Summary: strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), ". ") + "."}
	for _, n := range capped(d.Added, limit) {
		c.Added = append(c.Added, n.Line)
	}
	for _, n := range capped(d.Removed, limit) {
		c.Removed = append(c.Removed, n.Line)
	}
	c.Changed = capped(d.Changed, limit)
	return c
}

func capped[T any](s []T, limit int) []T {
	if limit > 0 && len(s) > limit {
		return s[:limit]
	}
	return s
}

func nodeLabels(nodes []Node) []string {
	out := make([]string, len(nodes))
	for i := range nodes {
		out[i] = nodes[i].label()
	}
	return out
}

// ids is " (s1e5, s1e6, listitem)": the first few distinct labels,
// refs first, since those are what the agent can act on.
func ids(labels []string) string {
	slices.SortStableFunc(labels, func(a, b string) int { return boolInt(!isRef(a)) - boolInt(!isRef(b)) })
	var uniq []string
	for _, l := range labels {
		if !slices.Contains(uniq, l) {
			uniq = append(uniq, l)
		}
	}
	if len(uniq) == 0 {
		return ""
	}
	more := ""
	if len(uniq) > summaryIDs {
		uniq, more = uniq[:summaryIDs], ", …"
	}
	return " (" + strings.Join(uniq, ", ") + more + ")"
}

// changeParts counts the changed elements by what happened to them, in
// the order the kinds first appear: "1 expanded (s1e3)". An element whose
// name and text both changed counts once.
func changeParts(changes []Change) []string {
	var kinds []string
	who := map[string][]string{}
	counted := map[string]map[*Node]bool{}
	for _, c := range changes {
		k := verb(c)
		if _, ok := who[k]; !ok {
			kinds = append(kinds, k)
			counted[k] = map[*Node]bool{}
		}
		if c.who != nil && counted[k][c.who] {
			continue
		}
		counted[k][c.who] = true
		label := c.Ref
		if label == "" {
			label = c.Role
		}
		who[k] = append(who[k], label)
	}
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = fmt.Sprintf("%d %s%s", len(who[k]), k, ids(who[k]))
	}
	return out
}

// verbs name a state change by its new value.
var verbs = map[string]map[any]string{
	"expanded": {true: "expanded", false: "collapsed"},
	"checked":  {true: "checked", false: "unchecked", "mixed": "partly checked"},
	"selected": {true: "selected", false: "deselected"},
	"disabled": {true: "disabled", false: "enabled"},
	"pressed":  {true: "pressed", false: "released", "mixed": "partly pressed"},
	"invalid":  {true: "invalid", false: "valid"},
}

func verb(c Change) string {
	if v, ok := verbs[c.Field][c.To]; ok {
		return v
	}
	switch c.Field {
	case "name", "text":
		return "text changed"
	}
	return c.Field + " changed"
}

var refRE = regexp.MustCompile(`^s[0-9]+e[0-9]+$`)

func isRef(s string) bool { return refRE.MatchString(s) }

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
