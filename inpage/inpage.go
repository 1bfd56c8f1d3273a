// Package inpage holds the in-page JavaScript modules every package that
// runs code in the page shares: roles and accessible names (SPEC 7.1), and
// the selectors shown to the agent for an element. It imports nothing, so
// page, dom, aria and query all reach it downward, and it composes their
// page calls from one-function-per-file sources.
package inpage

import (
	_ "embed"
	"strings"
	"sync"
)

var (
	//go:embed roles.js
	roles string
	//go:embed editors.js
	editors string
	// Roles is function ariaRoles(): the roles and accessible names of
	// elements, with no other dependency; its editor field is
	// ariaEditors(R), the code editors and custom text inputs.
	Roles = "function () { const R = (" + strings.TrimSpace(roles) + ")(); R.editor = (" + strings.TrimSpace(editors) + ")(R); return R; }"
	// Places is function ariaPlaces(R): where an element sits, in words
	// (the text of its row), for contexts and refs.
	//go:embed places.js
	Places string
	// Selectors is function cssSelectors(): the selectors shown to the
	// agent for an element.
	//go:embed selectors.js
	Selectors string
	// ClickHandlers is function exposeClickHandlers(), run in the page's
	// own world: it lets Roles see onclick handlers assigned from script.
	//go:embed handlers.js
	ClickHandlers string
)

// Module is one factory as an entry point sees it: lib[Name].
type Module struct {
	Name, Src string
}

// Compose returns one function expression that calls entry with
// {name: factory, …} and then its own arguments.
func Compose(entry string, modules ...Module) string {
	var b strings.Builder
	b.WriteString("function () {\n  const lib = {")
	for i, m := range modules {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n    " + m.Name + ": (" + strings.TrimSpace(m.Src) + ")")
	}
	b.WriteString("\n  };\n  return (" + strings.TrimSpace(entry) + ")(lib, ...arguments);\n}")
	return b.String()
}

// Lazy builds a page call's source the first time it is used: the
// compositions run to tens of kilobytes each, and a call uses a few of
// them, so building them all as the process starts would cost every call.
func Lazy(build func() string) func() string { return sync.OnceValue(build) }

// Bind returns a one-argument function expression that calls op with the
// helper object helpers builds from the roles, selectors and places
// modules, and the argument: the composition of packages dom and query,
// whose operations are op(helpers(R, cssSelectors(), ariaPlaces(R)),
// args) with R = ariaRoles().
func Bind(helpers, op string) string {
	return "function (a) { const R = (" + strings.TrimSpace(Roles) + ")(); return (" + strings.TrimSpace(op) + ")((" +
		strings.TrimSpace(helpers) + ")(R, (" + strings.TrimSpace(Selectors) + ")(), (" + strings.TrimSpace(Places) + ")(R)), a); }"
}

// WithSelectors returns a function expression that calls fn with the
// selectors module and then its own arguments.
func WithSelectors(fn string) string {
	return "function () { return (" + strings.TrimSpace(fn) + ")((" + strings.TrimSpace(Selectors) + ")(), ...arguments); }"
}
