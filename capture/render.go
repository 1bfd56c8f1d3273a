package capture

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cdpskill/cdpskill/cdp/proto"
)

// MaxTextLen is the most characters of a message's text the console step
// shows inline; the buffer and the spilled file keep the whole text.
const MaxTextLen = 500

// MaxStoredText bounds a message's text in the buffer. Only a page that
// logs megabytes at once reaches it; it keeps 10,000 such messages from
// exhausting memory.
const MaxStoredText = 100_000

// renderArgs renders a console call's arguments as DevTools prints them:
// printf-style directives in a leading string consume arguments, the rest
// follow separated by spaces.
func renderArgs(args []proto.RemoteObject) string {
	if len(args) == 0 {
		return ""
	}
	parts := make([]string, 0, len(args))
	rest := args
	if args[0].Type == "string" {
		format := stringValue(args[0])
		used := 0
		if strings.Contains(format, "%") {
			format, used = applyFormat(format, args[1:])
		}
		parts = append(parts, format)
		rest = args[1+used:]
	}
	for _, a := range rest {
		parts = append(parts, renderValue(a))
	}
	return strings.Join(parts, " ")
}

// applyFormat substitutes %s %d %i %f %o %O %c in format with args and
// reports how many it consumed. V8 has already converted the arguments of
// numeric directives (3.7 for %d arrives as 3), so each renders as itself.
func applyFormat(format string, args []proto.RemoteObject) (string, int) {
	var b strings.Builder
	used := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			b.WriteByte(c)
			continue
		}
		d := format[i+1]
		switch {
		case d == '%':
			b.WriteByte('%')
			i++
		case strings.IndexByte("sdifoOc", d) < 0 || used == len(args):
			b.WriteByte(c) // not a directive, or nothing left to substitute
		default:
			a := args[used]
			used++
			i++
			switch d {
			case 'c': // CSS styling has no text
			case 'o', 'O':
				b.WriteString(renderNested(a))
			default:
				b.WriteString(renderValue(a))
			}
		}
	}
	return b.String(), used
}

// renderValue renders a top-level argument: strings raw, everything else
// as DevTools writes it.
func renderValue(o proto.RemoteObject) string {
	switch o.Type {
	case "string":
		return stringValue(o)
	case "undefined":
		return "undefined"
	case "number", "bigint", "boolean":
		return primitive(o)
	case "function":
		return renderFunction(o.Description)
	case "object":
		return renderObject(o)
	}
	return o.Description // symbol, and anything V8 adds later
}

// renderNested renders a value as it appears inside an object (%o):
// strings quoted.
func renderNested(o proto.RemoteObject) string {
	if o.Type == "string" {
		return quote(stringValue(o))
	}
	return renderValue(o)
}

func primitive(o proto.RemoteObject) string {
	switch {
	case o.UnserializableValue != "":
		return o.UnserializableValue
	case o.Description != "":
		return o.Description
	}
	return string(o.Value)
}

func stringValue(o proto.RemoteObject) string {
	var s string
	if err := json.Unmarshal(o.Value, &s); err != nil {
		return o.Description
	}
	return s
}

func renderObject(o proto.RemoteObject) string {
	switch o.Subtype {
	case "null":
		return "null"
	case "error":
		return firstLine(o.Description)
	case "node", "regexp", "date":
		return o.Description
	}
	if o.Preview != nil {
		return renderPreview(*o.Preview)
	}
	return collapsed(o.Subtype, o.Description)
}

// collapsed is an object without a preview, never the bare word "Object".
func collapsed(subtype, description string) string {
	switch {
	case description == "Object" || description == "":
		return "{…}"
	case isListSubtype(subtype), subtype == "arraybuffer", subtype == "dataview":
		return description
	}
	return description + " {…}"
}

func isListSubtype(subtype string) bool { return subtype == "array" || subtype == "typedarray" }

func renderPreview(p proto.ObjectPreview) string {
	switch p.Subtype {
	case "null":
		return "null"
	case "error":
		return firstLine(p.Description)
	case "node", "regexp", "date":
		return p.Description
	case "array", "typedarray":
		return renderList(p)
	case "map", "set", "weakmap", "weakset":
		return renderEntries(p)
	case "promise":
		return renderPromise(p)
	}
	prefix := ""
	if p.Description != "Object" && p.Description != "" {
		prefix = p.Description + " " // a class instance: Point {x: 1}
	}
	items := make([]string, 0, len(p.Properties)+1)
	for _, pp := range p.Properties {
		items = append(items, propName(pp.Name)+": "+renderProp(pp))
	}
	return prefix + "{" + joinItems(items, p.Overflow) + "}"
}

// renderList renders arrays and typed arrays; the length is shown only
// when the preview overflowed, since otherwise every element is there.
func renderList(p proto.ObjectPreview) string {
	length, isNamed := listLength(p.Description)
	var items, named []string
	next := 0
	for _, pp := range p.Properties {
		idx, err := strconv.Atoi(pp.Name)
		if err != nil || idx < 0 {
			// Typed arrays preview buffer, byteLength...: noise.
			if p.Subtype == "array" {
				named = append(named, propName(pp.Name)+": "+renderProp(pp))
			}
			continue
		}
		if idx > next {
			items = append(items, "empty × "+strconv.Itoa(idx-next))
		}
		items = append(items, renderProp(pp))
		next = idx + 1
	}
	if !p.Overflow && length > next {
		items = append(items, "empty × "+strconv.Itoa(length-next))
	}
	items = append(items, named...)
	prefix := ""
	switch {
	case !isNamed && p.Overflow:
		prefix = "(" + strconv.Itoa(length) + ") "
	case isNamed:
		prefix = p.Description + " " // NodeList(2), Uint8Array(4)
	}
	return prefix + "[" + joinItems(items, p.Overflow) + "]"
}

// listLength reads N from "Array(N)" or "Uint8Array(N)"; named is false for
// plain arrays, whose "Array" prefix DevTools leaves out.
func listLength(description string) (n int, named bool) {
	name, rest, ok := strings.Cut(description, "(")
	if !ok {
		return 0, description != "Array"
	}
	n, _ = strconv.Atoi(strings.TrimSuffix(rest, ")"))
	return n, name != "Array"
}

func renderEntries(p proto.ObjectPreview) string {
	items := make([]string, 0, len(p.Entries)+1)
	for _, e := range p.Entries {
		v := renderEntryValue(e.Value)
		if e.Key != nil {
			v = renderEntryValue(*e.Key) + " => " + v
		}
		items = append(items, v)
	}
	return p.Description + " {" + joinItems(items, p.Overflow) + "}"
}

func renderPromise(p proto.ObjectPreview) string {
	state, result := "", ""
	for _, pp := range p.Properties {
		switch pp.Name {
		case "[[PromiseState]]":
			state = pp.Value
		case "[[PromiseResult]]":
			result = renderProp(pp)
		}
	}
	if state == "" || state == "pending" || result == "" {
		return "Promise {<" + orDefault(state, "pending") + ">}"
	}
	return "Promise {<" + state + ">: " + result + "}"
}

// renderEntryValue renders a Map or Set entry, whose key and value come
// as whole previews rather than property previews.
func renderEntryValue(p proto.ObjectPreview) string {
	switch p.Type {
	case "string":
		return quote(p.Description)
	case "function":
		return "ƒ"
	case "object":
		return renderPreview(p)
	}
	return p.Description
}

func renderProp(pp proto.PropertyPreview) string {
	if pp.ValuePreview != nil {
		return renderPreview(*pp.ValuePreview)
	}
	switch pp.Type {
	case "string":
		return quote(pp.Value)
	case "function":
		return "ƒ"
	case "accessor":
		return "(...)"
	case "undefined":
		return "undefined"
	case "object":
		switch {
		case pp.Subtype == "null":
			return "null"
		case pp.Subtype == "error":
			return firstLine(pp.Value)
		case pp.Value == "Object":
			return "{…}"
		}
	}
	return pp.Value
}

func joinItems(items []string, overflow bool) string {
	if overflow {
		items = append(items, "…")
	}
	return strings.Join(items, ", ")
}

// propName writes a key as a JavaScript literal would need it.
func propName(name string) string {
	if isIdentifier(name) || strings.HasPrefix(name, "[[") || strings.HasPrefix(name, "Symbol(") {
		return name
	}
	if _, err := strconv.Atoi(name); err == nil {
		return name
	}
	return quote(name)
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || r == '$' || unicode.IsLetter(r) || (i > 0 && unicode.IsDigit(r)) {
			continue
		}
		return false
	}
	return true
}

// quote writes a nested string the DevTools way: single quotes unless the
// string holds one and no double quote.
func quote(s string) string {
	q := "'"
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		q = `"`
	}
	r := strings.NewReplacer(`\`, `\\`, "\n", `\n`, q, `\`+q)
	return q + r.Replace(s) + q
}

// renderFunction shortens a function's source to "ƒ name()"; arrows keep
// their (shortened) source, as DevTools shows them.
func renderFunction(src string) string {
	s := strings.TrimSpace(src)
	if rest, ok := strings.CutPrefix(s, "class"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '{') {
		if name := leadingIdent(strings.TrimSpace(rest)); name != "" {
			return "class " + name
		}
		return "class"
	}
	s = strings.TrimPrefix(s, "async ")
	rest, keyword := strings.CutPrefix(s, "function")
	rest = strings.TrimLeft(rest, " *")
	name := leadingIdent(rest)
	after := strings.TrimSpace(rest[len(name):])
	if keyword || (name != "" && strings.HasPrefix(after, "(")) {
		return "ƒ " + name + "()"
	}
	return truncate(firstLine(src), 60)
}

func leadingIdent(s string) string {
	for i, r := range s {
		if r == '_' || r == '$' || unicode.IsLetter(r) || (i > 0 && unicode.IsDigit(r)) {
			continue
		}
		return s[:i]
	}
	return s
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// truncate cuts s to at most n characters, the last one an ellipsis.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, count := 0, 0
	for i = range s {
		if count == n-1 {
			break
		}
		count++
	}
	return s[:i] + "…"
}
