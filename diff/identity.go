package diff

import "slices"

// Matching by what the agent sees: a list's items are all "listitem"
// lines, so beside its ref or uid an element is known by its label, what
// it reads as (its name or text, or its first child's: a to-do's row
// reads "Call mom"). A filtered list then reads as items removed and
// added, a sorted one as items moved, never as items renamed in place.

// listed roles are the items of lists, which a framework may refill.
var listed = map[string]bool{"listitem": true, "row": true, "option": true, "treeitem": true, "article": true}

// kidsOf lists each line's children, in order.
func kidsOf(nodes []Node) [][]int {
	kids := make([][]int, len(nodes))
	for i := range nodes {
		if p := nodes[i].Parent; p >= 0 {
			kids[p] = append(kids[p], i)
		}
	}
	return kids
}

// labelsOf is what each line reads as: its name, its text, its first
// child's label, or the context a flattened view gives it.
func labelsOf(nodes []Node) []string {
	out := make([]string, len(nodes))
	kids := kidsOf(nodes)
	for i := len(nodes) - 1; i >= 0; i-- { // children come after their parent
		n := &nodes[i]
		switch {
		case n.Name != "":
			out[i] = n.Name
		case n.HasText:
			out[i] = n.Text
		default:
			for _, k := range kids[i] {
				if out[k] != "" {
					out[i] = out[k]
					break
				}
			}
			if out[i] == "" {
				out[i] = n.Context
			}
		}
	}
	return out
}

// unreuse takes their identity from the items a framework refilled in
// place: a list's item (one ref or uid on both sides) that now reads as
// another of its look-alikes read before, or whose old label another of
// them reads as now, or that reads otherwise in a list that lost or
// gained items or where others read otherwise too — a list rendered
// without keys puts the second to-do's row into the first <li> when the
// first leaves, and every row's content moves when a filter or a sort
// reorders it. Such an item is not the one it was to the agent, nor is
// anything below it; each gets an alias, so that it pairs by what it
// shows. One item that reads otherwise in a list that kept its members
// is a rename; a status line, a cell or a heading that reads otherwise is
// its text changing. after is copied when any is found.
func unreuse(before, after []Node, bLab, aLab []string, known map[string]int) []Node {
	bPlace := placesOf(before, func(p int) string { return before[p].id() })
	aPlace := placesOf(after, func(p int) string { return after[p].id() })
	read := func(nodes []Node, places, labs []string) map[string]map[string]bool {
		m := map[string]map[string]bool{}
		for i := range nodes {
			k := places[i] + "/" + nodes[i].Role
			if m[k] == nil {
				m[k] = map[string]bool{}
			}
			m[k][labs[i]] = true
		}
		return m
	}
	bRead, aRead := read(before, bPlace, bLab), read(after, aPlace, aLab)
	// churned: places that lost or gained an element of a role.
	churned := map[string]bool{}
	ids := map[string]bool{}
	for i := range after {
		if id := after[i].id(); id != "" {
			ids[id] = true
			if _, ok := known[id]; !ok {
				churned[aPlace[i]+"/"+after[i].Role] = true
			}
		}
	}
	for i := range before {
		if id := before[i].id(); id != "" && !ids[id] {
			churned[bPlace[i]+"/"+before[i].Role] = true
		}
	}
	var relabelled []int
	many := map[string]int{} // relabelled items per place
	for a := range after {
		b, ok := known[after[a].id()]
		if !ok || after[a].id() == "" || !listed[after[a].Role] || bLab[b] == aLab[a] || bPlace[b] != aPlace[a] {
			continue
		}
		relabelled = append(relabelled, a)
		many[aPlace[a]+"/"+after[a].Role]++
	}
	var refilled []int
	for _, a := range relabelled {
		b := known[after[a].id()]
		k := aPlace[a] + "/" + after[a].Role
		if churned[k] || many[k] > 1 || (aLab[a] != "" && bRead[k][aLab[a]]) || (bLab[b] != "" && aRead[k][bLab[b]]) {
			refilled = append(refilled, a)
		}
	}
	if len(refilled) == 0 {
		return after
	}
	after = slices.Clone(after)
	kids := kidsOf(after)
	var alias func(int)
	alias = func(i int) {
		if id := after[i].id(); id != "" && after[i].alias == "" {
			after[i].alias = "~" + id
		}
		for _, k := range kids[i] {
			alias(k)
		}
	}
	for _, a := range refilled {
		alias(a)
	}
	return after
}

// moved lists the elements that changed places: those now under another
// element that was there before too (a card dropped into another list),
// and, of the children of one element, paired on both sides (pairs maps
// each later line to its earlier one), those outside the longest run that
// kept its order. A child of a moved element moved with it and is not
// listed. into holds those of out now under another parent.
func moved(before, after []Node, pairs map[int]int) (out []int, into map[int]bool) {
	into = map[int]bool{}
	groups := map[int][]int{} // after parent -> its paired children, in order
	var order []int
	for a := range after {
		b, ok := pairs[a]
		if !ok {
			continue
		}
		p := after[a].Parent
		bp := -1
		if p >= 0 {
			var paired bool
			if bp, paired = pairs[p]; !paired {
				continue
			}
		}
		if before[b].Parent != bp {
			// Under another element of both snapshots, it moved there;
			// under a new one, it was nested anew.
			if p >= 0 && before[b].Parent >= 0 {
				out = append(out, a)
				into[a] = true
			}
			continue
		}
		if _, seen := groups[p]; !seen {
			order = append(order, p)
		}
		groups[p] = append(groups[p], a)
	}
	for _, p := range order {
		kids := groups[p]
		if len(kids) < 2 {
			continue
		}
		was := make([]int, len(kids))
		for i, a := range kids {
			was[i] = pairs[a]
		}
		keep := increasing(was)
		for i, a := range kids {
			if !keep[i] {
				out = append(out, a)
			}
		}
	}
	slices.Sort(out)
	return out, into
}

// increasing marks a longest run of vals that is in increasing order: a
// patience sort.
func increasing(vals []int) []bool {
	var tails []int // index into vals of the last of each run length
	prev := make([]int, len(vals))
	for i, v := range vals {
		j, _ := slices.BinarySearchFunc(tails, v, func(t, v int) int { return vals[t] - v })
		prev[i] = -1
		if j > 0 {
			prev[i] = tails[j-1]
		}
		if j == len(tails) {
			tails = append(tails, i)
		} else {
			tails[j] = i
		}
	}
	keep := make([]bool, len(vals))
	if len(tails) > 0 {
		for i := tails[len(tails)-1]; i >= 0; i = prev[i] {
			keep[i] = true
		}
	}
	return keep
}
