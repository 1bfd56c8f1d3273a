package diff

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Changes is the changes field of a result (SPEC 14.2): a one-sentence
// summary, then the lines added, removed and moved and the fields changed.
type Changes struct {
	Summary string   `json:"summary"`
	Added   []string `json:"added,omitempty"`
	Removed []string `json:"removed,omitempty"`
	// InView and OutOfView replace Added and Removed after a scroll: most
	// of what it brings or takes away is still on the page.
	InView    []string `json:"inView,omitempty"`
	OutOfView []string `json:"outOfView,omitempty"`
	Moved     []string `json:"moved,omitempty"`
	Changed   []Change `json:"changed,omitempty"`
	// Elsewhere is what the call put on the page out of view, which the
	// screens compared cannot show: `below, in region "Response": "201 …"`.
	Elsewhere []string `json:"elsewhere,omitempty"`
}

// summaryIDs is how many refs or roles a summary names per part.
const summaryIDs = 5

// Report sums d up for the agent, the summary starting with what the
// call did ("Clicked"); limit caps each list (0: no cap), while the
// summary counts everything: the elements added, removed or moved (an
// element with what is inside it is one: a to-do's row, not its
// checkbox, text and button), then the changed ones by what happened to
// them. It is nil when nothing changed.
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
	parts = append(parts, counted(d.Added, added), counted(d.Removed, removed), counted(d.Moved, "moved"))
	parts = append(parts, changeParts(d.Changed)...)
	c := &Changes{Summary: strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), ". ") + "."}
	came, went := &c.Added, &c.Removed
	if d.scrolled {
		came, went = &c.InView, &c.OutOfView
	}
	for _, n := range telling(d.Added, limit) {
		*came = append(*came, n.Line)
	}
	for _, n := range telling(d.Removed, limit) {
		*went = append(*went, n.Line)
	}
	for _, n := range capped(d.Moved, limit) {
		c.Moved = append(c.Moved, n.movedLine())
	}
	c.Changed = capped(d.Changed, limit)
	return c
}

// telling is the lines a capped list of elements shows: all when they
// fit, else the most telling in page order: alerts and live messages,
// then text and named elements, then bare structure (a `list` or
// `listitem` line that reads only through the lines under it).
func telling(nodes []Node, limit int) []Node {
	if limit <= 0 || len(nodes) <= limit {
		return nodes
	}
	rank := func(n *Node) int {
		switch {
		case notices[n.Role]:
			return 0
		case n.Name != "" || n.HasText || n.Role == "text":
			return 1
		}
		return 2
	}
	order := make([]int, len(nodes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return rank(&nodes[a]) - rank(&nodes[b]) })
	order = order[:limit]
	slices.Sort(order)
	out := make([]Node, limit)
	for i, j := range order {
		out[i] = nodes[j]
	}
	return out
}

// notices are the roles of the messages a page shows the user.
var notices = map[string]bool{"alert": true, "alertdialog": true, "status": true, "log": true}

// Away is a change out of view (aria.Away): the side of the screen it is
// on, the region it is in, and what it reads.
type Away struct{ Side, Region, Text string }

// WithElsewhere adds to c (nil: nothing changed on screen) what the call
// put on the page out of view, as lines (`below, in region "Response":
// "201 …"`), and says so in the summary: `2 out of view: below (region
// "Response", main "Items")`.
func (c *Changes) WithElsewhere(action string, away []Away) *Changes {
	if len(away) == 0 {
		return c
	}
	if c == nil {
		c = &Changes{Summary: action + "."}
	}
	var sides []string
	regions := map[string][]string{}
	for _, a := range away {
		if _, ok := regions[a.Side]; !ok {
			sides = append(sides, a.Side)
		}
		regions[a.Side] = append(regions[a.Side], a.Region)
		c.Elsewhere = append(c.Elsewhere, fmt.Sprintf("%s, in %s: %s", a.Side, a.Region, quote(a.Text)))
	}
	parts := make([]string, len(sides))
	for i, side := range sides {
		parts[i] = side + " (" + strings.Join(regions[side], ", ") + ")"
	}
	c.Summary += fmt.Sprintf(" %d out of view: %s.", len(away), strings.Join(parts, "; "))
	return c
}

func capped[T any](s []T, limit int) []T {
	if limit > 0 && len(s) > limit {
		return s[:limit]
	}
	return s
}

// counted is "2 added (listitem "Call mom", s1e9)": the elements at the
// top of the lines (their parent is not among them), named; "" for none.
func counted(nodes []Node, what string) string {
	var names []string
	for i := range nodes {
		if nodes[i].top {
			names = append(names, nodes[i].summaryName())
		}
	}
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf("%d %s%s", len(names), what, ids(names))
}

// items are the roles of the elements a list holds alike, named in a
// summary by what they read as.
var items = map[string]bool{"listitem": true, "row": true, "option": true, "treeitem": true, "article": true,
	"gridcell": true, "cell": true, "menuitem": true, "tab": true}

// summaryName names an element in a summary: its ref, else its role and
// its name, or for an item (a row, a list item) what it reads as.
func (n *Node) summaryName() string {
	switch {
	case n.Ref != "":
		return n.Ref
	case n.Name != "":
		return n.Role + " " + quote(cutName(n.Name))
	case n.reads != "" && (items[n.Role] || n.Role == "text"):
		return n.Role + " " + quote(cutName(n.reads))
	}
	return n.Role
}

// movedLine is a moved element's line: its lines below it are not
// listed, so an element that reads only through them shows what it reads
// as, the way a lone text shows (`listitem: "Pay rent"`); one now under
// another parent says which (`(now in list "Done")`).
func (n *Node) movedLine() string {
	line := n.Line
	if n.Name == "" && n.Ref == "" && !n.HasText && n.reads != "" {
		line += ": " + quote(n.reads)
	}
	if n.into != "" {
		line += " (now in " + n.into + ")"
	}
	return line
}

// cutName keeps a summary's names short.
func cutName(s string) string {
	const most = 40
	if r := []rune(s); len(r) > most {
		return string(r[:most-1]) + "…"
	}
	return s
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
	"readonly": {true: "made read-only", false: "made editable"},
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
