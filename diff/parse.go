// Package diff compares two ARIA snapshots (SPEC 14.1-14.2): what an
// agent's action added to the screen, removed from it and changed on it.
// It reads the snapshots' YAML lines, so it compares any two snapshots
// of one document: the report's viewport before and after a call, or a
// snapshot and the one it is asked to be compared with (since).
//
// Elements with refs are matched by ref. Lines without one (headings,
// status lines, list items, text) are matched by their place: their
// nearest ancestor with a ref or their chain of ancestor roles, and their
// role; within such a group the lines are aligned in order, so a status
// line whose text changed is one change, not a removal and an addition.
package diff

import (
	"encoding/json"
	"strings"
)

// Node is one line of a snapshot.
type Node struct {
	Depth int
	Role  string
	Name  string
	Ref   string
	// UID identifies an element without a ref in the report's snapshots
	// ([uid=N]); it never shows in Line.
	UID string
	// Attrs are the bracketed attributes as written, the ref excepted.
	Attrs []string
	// Context is where a flattened view says a control sits (` in "Buy
	// milk"`): a hint that comes and goes with its look-alikes, so it is
	// shown in Line but never compared.
	Context string
	// Text is what follows ": ": a field's value or an element's only
	// text; HasText tells "" from nothing.
	Text    string
	HasText bool
	// Parent is the index of the enclosing line, -1 at the top.
	Parent int
	// Line is the line as the agent reads it in a change list: no indent,
	// no dash, no trailing colon.
	Line string
	// Inline marks the text line Parse unfolds from an element's only
	// text written after its colon (`listitem: "A"`): the renderer folds
	// a lone text child so, and unfolds it when a sibling arrives, which
	// must not read as a change. Its parent's line shows it.
	Inline bool
	// bare is Line without its context, when it has one.
	bare string
	// alias replaces the ref or uid as the line's identity in a
	// comparison: an element a framework refilled with another row's
	// content is not the element it was (reused).
	alias string
	// reads and top are set on the lines of a Diff: what the line reads
	// as (labelsOf), and whether its parent is not in the same list.
	reads string
	top   bool
	// into is, for a moved element now under another parent, that
	// parent as a summary names it (`list "Doing"`).
	into string
}

// Parse reads a snapshot's YAML into its lines. Comments and lines it
// cannot read are skipped: a diff is a courtesy, never a failure.
func Parse(yaml string) []Node {
	var nodes []Node
	var stack []int // the open line at each depth
	for raw := range strings.SplitSeq(yaml, "\n") {
		n, ok := parseLine(raw)
		if !ok {
			continue
		}
		stack = stack[:min(len(stack), n.Depth)]
		n.Parent = -1
		if len(stack) > 0 {
			n.Parent = stack[len(stack)-1]
		}
		for len(stack) < n.Depth {
			stack = append(stack, n.Parent) // a skipped level keeps its parent
		}
		stack = append(stack, len(nodes))
		nodes = append(nodes, n)
		if n.HasText && !valued[n.Role] && n.Role != "text" {
			nodes[len(nodes)-1].Text, nodes[len(nodes)-1].HasText = "", false
			nodes = append(nodes, Node{Depth: n.Depth + 1, Role: "text", Text: n.Text, HasText: true,
				Parent: len(nodes) - 1, Line: "text: " + quote(n.Text), Inline: true})
		}
	}
	return nodes
}

// quote writes s as the renderer does (JSON, without HTML escaping).
func quote(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// parseLine reads `  - role "name" [attr] [ref=s1e2] in "context": "text"`.
func parseLine(raw string) (Node, bool) {
	trimmed := strings.TrimLeft(raw, " ")
	if !strings.HasPrefix(trimmed, "- ") {
		return Node{}, false
	}
	n := Node{Depth: (len(raw) - len(trimmed)) / 2}
	s := trimmed[2:]
	end := strings.IndexAny(s, " :")
	if end < 0 {
		end = len(s)
	}
	n.Role, s = s[:end], s[end:]
	if n.Role == "" {
		return Node{}, false
	}
	ctx := "" // the context as written, with its " in "
	for {
		s = strings.TrimLeft(s, " ")
		switch {
		case s == "" || s == ":":
			n.Line, n.bare = lineOf(trimmed, n.UID, ctx)
			return n, true
		case s[0] == '"':
			str, rest, ok := quoted(s)
			if !ok {
				return Node{}, false
			}
			n.Name, s = str, rest
		case s[0] == '[':
			attr, rest, ok := bracketed(s)
			if !ok {
				return Node{}, false
			}
			if ref, isRef := strings.CutPrefix(attr, "ref="); isRef {
				n.Ref = ref
			} else if uid, isUID := strings.CutPrefix(attr, "uid="); isUID {
				n.UID = uid
			} else {
				n.Attrs = append(n.Attrs, attr)
			}
			s = rest
		case strings.HasPrefix(s, `in "`) && ctx == "":
			str, rest, ok := quoted(s[3:])
			if !ok {
				return Node{}, false
			}
			n.Context, ctx, s = str, " "+s[:len(s)-len(rest)], rest
		case strings.HasPrefix(s, ": "):
			str, rest, ok := quoted(s[2:])
			if !ok || strings.TrimSpace(rest) != "" {
				return Node{}, false
			}
			n.Text, n.HasText = str, true
			n.Line, n.bare = lineOf(trimmed, n.UID, ctx)
			return n, true
		default:
			return Node{}, false
		}
	}
}

// lineOf is a line as a change list shows it, and without its context
// (ctx, as written) when it has one.
func lineOf(trimmed, uid, ctx string) (line, bare string) {
	line = trimmed[2:]
	if uid != "" {
		line = strings.Replace(line, " [uid="+uid+"]", "", 1)
	}
	line = strings.TrimSuffix(line, ":")
	if ctx != "" {
		bare = strings.Replace(line, ctx, "", 1)
	}
	return line, bare
}

// quoted reads the JSON string s starts with.
func quoted(s string) (string, string, bool) {
	if s == "" || s[0] != '"' {
		return "", s, false
	}
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			var out string
			if json.Unmarshal([]byte(s[:i+1]), &out) != nil {
				return "", s, false
			}
			return out, s[i+1:], true
		}
	}
	return "", s, false
}

// bracketed reads "[key]" or "[key=value]", where value may be a JSON
// string holding "]".
func bracketed(s string) (string, string, bool) {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case ']':
			return s[1:i], s[i+1:], true
		case '"':
			_, rest, ok := quoted(s[i:])
			if !ok || !strings.HasPrefix(rest, "]") {
				return "", s, false
			}
			return s[1 : len(s)-len(rest)], rest[1:], true
		}
	}
	return "", s, false
}

// attr is one bracketed attribute as a field and its value: flags are
// true, "collapsed" is expanded=false, quoted values are unquoted.
func attr(a string) (field string, value any) {
	key, v, hasValue := strings.Cut(a, "=")
	switch {
	case key == "collapsed":
		return "expanded", false
	case !hasValue:
		return key, true
	case strings.HasPrefix(v, `"`):
		if s, _, ok := quoted(v); ok {
			return key, s
		}
	}
	return key, v
}
