package diff

import (
	"encoding/binary"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
)

// Change is one changed field of an element that is in both snapshots:
// by ref, or by role for an element without one (a status line, a
// heading). From or To is nil when the field is absent on that side.
type Change struct {
	Ref   string `json:"ref,omitempty"`
	Role  string `json:"role,omitempty"`
	Field string `json:"field"`
	From  any    `json:"from"`
	To    any    `json:"to"`
	who   *Node  // the element, for counting elements rather than fields
}

// Diff is everything that differs between two snapshots, in document
// order: added lines as in the later one, removed lines as in the earlier,
// moved lines (elements in both whose order among their siblings changed)
// as in the later.
type Diff struct {
	Added   []Node
	Removed []Node
	Moved   []Node
	Changed []Change
	// scrolled: the view moved, so added and removed lines mostly came
	// into it or left it.
	scrolled bool
}

// Empty says nothing differs.
func (d *Diff) Empty() bool {
	return len(d.Added) == 0 && len(d.Removed) == 0 && len(d.Moved) == 0 && len(d.Changed) == 0
}

// Options say how two snapshots relate.
type Options struct {
	// Scrolled: the view moved between them, so lines with no identity
	// (no ref, no uid) that take one another's place are different lines,
	// not one line that changed.
	Scrolled bool
}

// Compare diffs two snapshots' lines: the same element is the same ref or
// uid, unless a framework refilled it with another row's content
// (unreuse); else a twin (the same lines below it); else, where the page
// rebuilt its elements, the element at the same place that reads the same
// (labelsOf), or failing that one in its stead.
func Compare(before, after []Node, opts Options) *Diff {
	d := &Diff{scrolled: opts.Scrolled}
	var added, removed []int
	var changed []indexed
	known := map[string]int{}
	for i := range before {
		if id := before[i].id(); id != "" {
			if _, dup := known[id]; !dup {
				known[id] = i
			}
		}
	}
	bLab, aLab := labelsOf(before), labelsOf(after)
	after = unreuse(before, after, bLab, aLab, known)
	s := sides{before, after, bLab, aLab}
	pairs := map[int]int{} // every later line paired with its earlier one
	seen := map[string]bool{}
	for i := range after {
		a := &after[i]
		id := a.id()
		if id == "" || seen[id] {
			continue
		}
		seen[id] = true
		if b, ok := known[id]; ok {
			pairs[i] = b
			changed = append(changed, indexed{i, fields(&before[b], a, a)})
		} else {
			added = append(added, i)
		}
	}
	for id, i := range known {
		if !seen[id] {
			removed = append(removed, i)
		}
	}
	twins := map[int]int{}
	if !opts.Scrolled {
		removed, added, twins = dropTwins(before, after, removed, added)
		var ch []indexed
		removed, added, ch = pairRebuilt(s, removed, added, twins, pairs)
		changed = append(changed, ch...)
	}
	for a, b := range twins {
		pairs[a] = b
	}
	rm, ad, ch := compareUnnamed(s, twins, !opts.Scrolled, pairs)
	added, removed, changed = append(added, ad...), append(removed, rm...), append(changed, ch...)
	removed, added, ch = ownText(before, after, removed, added, known, twins)
	changed = append(changed, ch...)
	slices.SortStableFunc(changed, func(x, y indexed) int { return x.at - y.at })
	for _, c := range changed {
		d.Changed = append(d.Changed, c.changes...)
	}
	d.Added = lines(after, aLab, added)
	d.Removed = lines(before, bLab, removed)
	if !opts.Scrolled {
		mv, into := moved(before, after, pairs)
		for a := range into {
			p := after[a].Parent
			after[a].into = after[p].Role
			if aLab[p] != "" {
				after[a].into += " " + quote(cutName(aLab[p]))
			}
		}
		d.Moved = lines(after, aLab, mv)
	}
	return d
}

// dropTwins pairs, in document order, each element that left with one
// that arrived at the same depth and reads the same, all its subtree
// too, but for its refs: a framework that rebuilds its DOM replaces
// elements with their twins, which is no change the agent can see.
// twins maps each arrival to the element it stands in for, so that the
// lines below them compare as the lines below one element.
func dropTwins(before, after []Node, removed, added []int) ([]int, []int, map[int]int) {
	slices.Sort(removed)
	slices.Sort(added)
	bKeys, aKeys := twinKeys(before), twinKeys(after)
	twins := map[int]int{}
	// Twins sit under one parent: the same one, or twins themselves
	// (added is in document order, so a parent is paired before its
	// children).
	under := func(nodes []Node, i int, self bool) string {
		p := nodes[i].Parent
		if p < 0 {
			return ""
		}
		if b, ok := twins[p]; ok && !self {
			return before[b].id()
		}
		return nodes[p].id()
	}
	gone := map[string][]int{}
	for _, i := range removed {
		k := under(before, i, true) + "|" + bKeys[i]
		gone[k] = append(gone[k], i)
	}
	paired := map[int]bool{}
	var keep []int
	for _, i := range added {
		k := under(after, i, false) + "|" + aKeys[i]
		if q := gone[k]; len(q) > 0 {
			twins[i], paired[q[0]], gone[k] = q[0], true, q[1:]
			continue
		}
		keep = append(keep, i)
	}
	removed = slices.DeleteFunc(removed, func(i int) bool { return paired[i] })
	return removed, keep, twins
}

// pairRebuilt pairs the elements that left and arrived at one place (the
// same parent, the same role): a framework that re-renders replaces every
// element, the changed ones too, and those can be matched only by place.
// Lines that read the same pair in order wherever they are (a card whose
// text changed below it); lines that differ pair only under a parent the
// page rebuilt, one with twins among its children, since elsewhere a new
// element is news. Each pair joins twins, so its own children compare in
// the next round; it returns the elements left over and the pairs'
// changes. Lines read the same when their content and their labels are
// the same: a rebuilt list's items are all "listitem", but the row that
// reads "Pay rent" is the row that read "Pay rent", wherever it went.
func pairRebuilt(s sides, removed, added []int, twins, idPairs map[int]int) ([]int, []int, []indexed) {
	before, after := s.before, s.after
	var changed []indexed
	partner := func(a int) (int, bool) {
		if b, ok := twins[a]; ok {
			return b, true
		}
		b, ok := idPairs[a]
		return b, ok
	}
	for len(removed) > 0 && len(added) > 0 {
		bPlace := placesOf(before, func(p int) string { return before[p].id() })
		aPlace := placesOf(after, func(p int) string {
			if b, ok := twins[p]; ok {
				return before[b].id()
			}
			return after[p].id()
		})
		// A place is rebuilt when its owner was replaced, or when some of
		// its elements were replaced by twins.
		rebuilt := map[string]bool{}
		for a, b := range twins {
			rebuilt["@"+before[b].id()] = true
			if aPlace[a] == bPlace[b] {
				rebuilt[bPlace[b]] = true
			}
		}
		bg, ag := map[string][]int{}, map[string][]int{}
		free := map[int]bool{} // of after, negated indexes of before
		for _, i := range removed {
			k := bPlace[i] + "/" + before[i].Role
			bg[k] = append(bg[k], i)
			free[-1-i] = true
		}
		for _, i := range added {
			k := aPlace[i] + "/" + after[i].Role
			ag[k] = append(ag[k], i)
			free[i] = true
		}
		gone, came := map[int]bool{}, map[int]bool{}
		pair := func(b, a int) {
			twins[a], gone[b], came[a] = b, true, true
			free[a], free[-1-b] = false, false
			changed = append(changed, indexed{a, fields(&before[b], &after[a], &after[a])})
		}
		var bAll, aAll map[string][]int // every line of a place, lazily
		for k, a := range ag {
			b := bg[k]
			if len(b) == 0 || len(b)*len(a) > maxAlign {
				continue
			}
			// What reads the same pairs, in order or not (a sort
			// moved it); then, where the page rebuilt the place, what
			// is left pairs by place: as many left on each side between
			// two lines paired in order are the same ones, changed. A
			// line left beside a different neighbour is news.
			same := func(i, j int) bool { return s.sameLine(b[i], a[j]) }
			matches := lcs(len(b), len(a), same)
			for _, m := range matches {
				pair(b[m[0]], a[m[1]])
			}
			for x, y := range movedAcross(b, a, matches, same) {
				pair(b[x], a[y])
			}
			if !rebuilt[bPlace[b[0]]] {
				continue
			}
			if bAll == nil {
				bAll, aAll = byPlace(before, bPlace), byPlace(after, aPlace)
			}
			for _, g := range gapsBetween(bAll[k], aAll[k], partner, free) {
				if len(g[0]) == len(g[1]) {
					for x := range g[0] {
						pair(g[0][x], g[1][x])
					}
				}
			}
		}
		if len(came) == 0 {
			// What left one place and arrived at another, read the same
			// and alone to (a card the board rebuilt in another list), is
			// one element that moved; its lines below pair next round.
			for b, a := range across(s, removed, added, partner) {
				pair(b, a)
			}
		}
		if len(came) == 0 {
			break
		}
		removed = slices.DeleteFunc(removed, func(i int) bool { return gone[i] })
		added = slices.DeleteFunc(added, func(i int) bool { return came[i] })
	}
	return removed, added, changed
}

// across pairs, of the elements that left and arrived under an element
// that was there before too (partner: an after line's earlier one), those
// that read the same (sameLine) as no other on either side: the pairs by
// index into before and after. One that arrived in a new element (a
// button wrapped in a new group) is news.
func across(s sides, removed, added []int, partner func(int) (int, bool)) map[int]int {
	key := func(nodes []Node, labs []string, i int) string {
		return nodes[i].Role + "\x00" + nodes[i].refless() + "\x00" + labs[i]
	}
	left, came := map[string][]int{}, map[string][]int{}
	for _, b := range removed {
		k := key(s.before, s.bLab, b)
		left[k] = append(left[k], b)
	}
	for _, a := range added {
		k := key(s.after, s.aLab, a)
		came[k] = append(came[k], a)
	}
	out := map[int]int{}
	for k, as := range came {
		if p := s.after[as[0]].Parent; len(as) == 1 && p >= 0 {
			if _, ok := partner(p); !ok {
				delete(came, k)
			}
		}
	}
	for k, bs := range left {
		if as := came[k]; len(bs) == 1 && len(as) == 1 {
			out[bs[0]] = as[0]
		}
	}
	return out
}

// byPlace groups every line by its place and role, in document order.
func byPlace(nodes []Node, places []string) map[string][]int {
	out := map[string][]int{}
	for i := range nodes {
		k := places[i] + "/" + nodes[i].Role
		out[k] = append(out[k], i)
	}
	return out
}

// gapsBetween splits the unpaired lines of one place (free: an after
// line, or a before line as -1-i) into the runs between the lines paired
// in order on both sides (partner: an after line's earlier one), as
// [before run, after run].
func gapsBetween(bAll, aAll []int, partner func(int) (int, bool), free map[int]bool) [][2][]int {
	posB := make(map[int]int, len(bAll))
	for i, b := range bAll {
		posB[b] = i
	}
	var anchors [][2]int // positions in bAll and aAll
	var order []int
	for ia, a := range aAll {
		if b, ok := partner(a); ok {
			if ib, ok := posB[b]; ok {
				anchors = append(anchors, [2]int{ib, ia})
				order = append(order, ib)
			}
		}
	}
	keep := increasing(order)
	var out [][2][]int
	pb, pa := -1, -1
	cut := func(ib, ia int) {
		var g [2][]int
		for _, b := range bAll[pb+1 : ib] {
			if free[-1-b] {
				g[0] = append(g[0], b)
			}
		}
		for _, a := range aAll[pa+1 : ia] {
			if free[a] {
				g[1] = append(g[1], a)
			}
		}
		if len(g[0])+len(g[1]) > 0 {
			out = append(out, g)
		}
		pb, pa = ib, ia
	}
	for i, an := range anchors {
		if keep[i] {
			cut(an[0], an[1])
		}
	}
	cut(len(bAll), len(aAll))
	return out
}

// ownText makes the only text an element gained or lost a change of that
// element, not a line added or removed: a status line that was empty and
// now says "Saved" changed its text.
func ownText(before, after []Node, removed, added []int, known map[string]int, twins map[int]int) ([]int, []int, []indexed) {
	bOf := map[int]int{} // after element -> the same element before
	for i := range after {
		if b, ok := twins[i]; ok {
			bOf[i] = b
		} else if b, ok := known[after[i].id()]; ok && after[i].id() != "" {
			bOf[i] = b
		}
	}
	aOf := make(map[int]int, len(bOf))
	for a, b := range bOf {
		aOf[b] = a
	}
	texts := func(nodes []Node) map[int]bool {
		m := map[int]bool{}
		for _, n := range nodes {
			if n.Inline {
				m[n.Parent] = true
			}
		}
		return m
	}
	hadText, hasText := texts(before), texts(after)
	var changed []indexed
	change := func(owner *Node, at int, from, to any) {
		c := Change{Ref: owner.Ref, Field: "text", From: from, To: to, who: owner}
		if owner.Ref == "" {
			c.Role = owner.Role
		}
		if valued[owner.Role] {
			c.Field = "value"
		}
		changed = append(changed, indexed{at, []Change{c}})
	}
	added = slices.DeleteFunc(added, func(i int) bool {
		n := &after[i]
		b, ok := bOf[n.Parent]
		if !n.Inline || !ok || hadText[b] {
			return false
		}
		change(&after[n.Parent], n.Parent, nil, n.Text)
		return true
	})
	removed = slices.DeleteFunc(removed, func(i int) bool {
		n := &before[i]
		a, ok := aOf[n.Parent]
		if !n.Inline || !ok || hasText[a] {
			return false
		}
		change(&after[a], a, n.Text, nil)
		return true
	})
	return removed, added, changed
}

// twinKeys are what twins share: depth, and the lines of the element and
// of everything below it, refs taken out (a hash of them).
func twinKeys(nodes []Node) []string {
	kids := kidsOf(nodes)
	sums := make([]uint64, len(nodes))
	keys := make([]string, len(nodes))
	for i := len(nodes) - 1; i >= 0; i-- { // children come after their parent
		h := fnv.New64a()
		h.Write([]byte(nodes[i].refless()))
		for _, k := range kids[i] {
			h.Write(binary.LittleEndian.AppendUint64([]byte{0}, sums[k]))
		}
		sums[i] = h.Sum64()
		keys[i] = strconv.Itoa(nodes[i].Depth) + ":" + strconv.FormatUint(sums[i], 36)
	}
	return keys
}

// refless is the line's content without its ref.
func (n *Node) refless() string {
	line := n.content()
	if n.Ref != "" {
		line = strings.Replace(line, " [ref="+n.Ref+"]", "", 1)
	}
	return line
}

// lines are the nodes at the indexes, in document order, leaving out an
// unfolded text whose element is listed too: its line shows the text.
// Each carries its label, and whether its parent is listed too (top:
// not), for the summary.
func lines(nodes []Node, labs []string, indexes []int) []Node {
	slices.Sort(indexes)
	listed := make(map[int]bool, len(indexes))
	for _, i := range indexes {
		listed[i] = true
	}
	var out []Node
	for _, i := range indexes {
		n := nodes[i]
		if n.Inline && listed[n.Parent] {
			continue
		}
		n.reads, n.top = labs[i], n.Parent < 0 || !listed[n.Parent]
		out = append(out, n)
	}
	return out
}

// sides are the two snapshots compared, each line with its label (what a
// line without a name of its own reads as, labelsOf).
type sides struct {
	before, after []Node
	bLab, aLab    []string
}

// sameLine says whether line b of before and line a of after read the
// same: the same content, and the same label. A rebuilt element's new
// ref is no difference: the page replaced the element, the agent sees
// the same one.
func (s sides) sameLine(b, a int) bool {
	return s.before[b].refless() == s.after[a].refless() && s.bLab[b] == s.aLab[a]
}

// movedAcross pairs, by index into b and a, the lines that read the same
// but are left out of the in-order matches: an item a sort moved. Each
// pairs with the first unmatched one that reads the same.
func movedAcross(b, a []int, matches [][2]int, same func(i, j int) bool) map[int]int {
	usedB, usedA := map[int]bool{}, map[int]bool{}
	for _, m := range matches {
		usedB[m[0]], usedA[m[1]] = true, true
	}
	out := map[int]int{}
	for j := range a {
		if usedA[j] {
			continue
		}
		for i := range b {
			if !usedB[i] && same(i, j) {
				out[i], usedB[i], usedA[j] = j, true, true
				break
			}
		}
	}
	return out
}

// content is what must be equal for two lines without identity to be one
// line: the line without its context, or a text's text (an unfolded
// text's line is rebuilt).
func (n *Node) content() string {
	switch {
	case n.Role == "text":
		return "text\x00" + n.Text
	case n.Context != "":
		return n.bare
	}
	return n.Line
}

// id is a line's identity across snapshots: its ref, else its uid.
func (n *Node) id() string {
	switch {
	case n.alias != "":
		return n.alias
	case n.Ref != "":
		return n.Ref
	case n.UID != "":
		return "#" + n.UID
	}
	return ""
}

// indexed are an element's changes and its place in the later snapshot.
type indexed struct {
	at      int
	changes []Change
}

// compareUnnamed aligns the lines without refs group by group (same
// place, same role): it returns the indexes of the lines left over on
// each side and the changes of the lines it paired.
func compareUnnamed(s sides, twins map[int]int, pair bool, pairs map[int]int) (removed, added []int, changed []indexed) {
	before, after := s.before, s.after
	bg, bOrder := groups(before, func(p int) string { return before[p].id() })
	ag, aOrder := groups(after, func(p int) string {
		if b, ok := twins[p]; ok {
			return before[b].id()
		}
		return after[p].id()
	})
	for _, key := range aOrder {
		rm, ad, aligned := align(s, bg[key], ag[key], pair)
		removed, added = append(removed, rm...), append(added, ad...)
		for _, p := range aligned {
			pairs[p[1]] = p[0]
			a := &after[p[1]]
			owner := a // the text of a line's own, or of a control, is theirs
			if a.Inline || (a.Role == "text" && a.Parent >= 0 && after[a.Parent].Ref != "") {
				owner = &after[a.Parent]
			}
			changed = append(changed, indexed{p[1], fields(&before[p[0]], a, owner)})
		}
	}
	for _, key := range bOrder {
		if _, both := ag[key]; !both {
			removed = append(removed, bg[key]...)
		}
	}
	return removed, added, changed
}

// groups indexes the lines without refs by place and role, and lists the
// keys in the order they first appear; parentID names a line's parent.
func groups(nodes []Node, parentID func(int) string) (map[string][]int, []string) {
	places := placesOf(nodes, parentID)
	out := map[string][]int{}
	var order []string
	for i := range nodes {
		if nodes[i].id() != "" {
			continue
		}
		key := places[i] + "/" + nodes[i].Role
		if _, ok := out[key]; !ok {
			order = append(order, key)
		}
		out[key] = append(out[key], i)
	}
	return out, order
}

// placesOf names where each line sits: its parent's identity, else the
// chain of roles down to it from the nearest ancestor with one.
func placesOf(nodes []Node, parentID func(int) string) []string {
	places := make([]string, len(nodes))
	for i := range nodes {
		if p := nodes[i].Parent; p >= 0 {
			if id := parentID(p); id != "" {
				places[i] = "@" + id
			} else {
				places[i] = places[p] + "/" + nodes[p].Role
			}
		}
	}
	return places
}

// maxAlign bounds the quadratic alignment; longer runs that differ are
// reported as removed and added whole.
const maxAlign = 1 << 20

// align matches two groups' lines by content, in order (a longest common
// subsequence after trimming the common ends). Between two matched lines,
// as many unmatched lines on each side are pairs whose content changed,
// when pair allows; the rest were removed or added.
func align(s sides, b, a []int, pair bool) (removed, added []int, pairs [][2]int) {
	same := func(i, j int) bool { return s.sameLine(b[i], a[j]) }
	lo := 0
	for lo < len(b) && lo < len(a) && same(lo, lo) {
		lo++
	}
	hb, ha := len(b), len(a)
	for hb > lo && ha > lo && same(hb-1, ha-1) {
		hb, ha = hb-1, ha-1
	}
	mb, ma := b[lo:hb], a[lo:ha]
	if len(mb)*len(ma) > maxAlign {
		return mb, ma, nil
	}
	matches := lcs(len(mb), len(ma), func(i, j int) bool { return same(lo+i, lo+j) })
	i, j := 0, 0
	for _, m := range append(matches, [2]int{len(mb), len(ma)}) {
		gb, ga := mb[i:m[0]], ma[j:m[1]]
		if pair && len(gb) == len(ga) {
			for k := range gb {
				pairs = append(pairs, [2]int{gb[k], ga[k]})
			}
		} else {
			removed, added = append(removed, gb...), append(added, ga...)
		}
		i, j = m[0]+1, m[1]+1
	}
	return removed, added, pairs
}

// lcs returns the index pairs of a longest common subsequence.
func lcs(n, m int, same func(i, j int) bool) [][2]int {
	if n == 0 || m == 0 {
		return nil
	}
	t := make([]int32, (n+1)*(m+1))
	at := func(i, j int) *int32 { return &t[i*(m+1)+j] }
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			switch {
			case same(i, j):
				*at(i, j) = *at(i+1, j+1) + 1
			case *at(i+1, j) >= *at(i, j+1):
				*at(i, j) = *at(i+1, j)
			default:
				*at(i, j) = *at(i, j+1)
			}
		}
	}
	var out [][2]int
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case same(i, j):
			out = append(out, [2]int{i, j})
			i, j = i+1, j+1
		case *at(i+1, j) >= *at(i, j+1):
			i++
		default:
			j++
		}
	}
	return out
}

// valued roles show a value after the colon; the others show text.
var valued = map[string]bool{"textbox": true, "searchbox": true, "combobox": true, "spinbutton": true,
	"slider": true, "progressbar": true, "meter": true, "scrollbar": true}

// fields lists what differs between two versions of one line, named by
// its owner's ref or, without one, by its owner's role: the owner is the
// line itself, or for an element's text, the element.
func fields(b, a, owner *Node) []Change {
	var out []Change
	role := ""
	if owner.Ref == "" {
		role = owner.Role
	}
	add := func(field string, from, to any) {
		out = append(out, Change{Ref: owner.Ref, Role: role, Field: field, From: from, To: to, who: owner})
	}
	if b.Role != a.Role {
		add("role", b.Role, a.Role)
	}
	if b.Name != a.Name {
		add("name", orNil(b.Name), orNil(a.Name))
	}
	if b.Text != a.Text || b.HasText != a.HasText {
		field := "text"
		if valued[a.Role] {
			field = "value"
		}
		add(field, textOf(b), textOf(a))
	}
	bs, as := attrs(b), attrs(a)
	for _, k := range attrOrder(b, a) {
		from, to := bs[k], as[k]
		if from == nil {
			from = absent(k)
		}
		if to == nil {
			to = absent(k)
		}
		if from != to {
			add(k, from, to)
		}
	}
	return out
}

func attrs(n *Node) map[string]any {
	m := make(map[string]any, len(n.Attrs))
	for _, a := range n.Attrs {
		k, v := attr(a)
		m[k] = v
	}
	return m
}

// attrOrder is the fields of both lines' attributes, in line order.
func attrOrder(b, a *Node) []string {
	var keys []string
	for _, n := range []*Node{a, b} {
		for _, s := range n.Attrs {
			if k, _ := attr(s); !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	return keys
}

// flags are attributes whose absence means false.
var flags = map[string]bool{"checked": true, "disabled": true, "readonly": true, "selected": true, "pressed": true,
	"required": true, "invalid": true, "cross-origin": true}

func absent(field string) any {
	if flags[field] {
		return false
	}
	return nil
}

func orNil(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func textOf(n *Node) any {
	if !n.HasText {
		return nil
	}
	return n.Text
}
