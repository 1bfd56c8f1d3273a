// Package js holds the JavaScript of package aria, one function expression
// per file, and composes the page calls from them.
//
// Modules are factories (roles.js, states.js, refs.js, walk.js, render.js,
// hash.js);
// entry points (snapshot.js, search.js, query.js, report.js) take a lib object of
// those factories as their first argument. The package imports nothing,
// so package dom may use Roles, the role and accessible-name module, with
// Compose for its own entry points.
package js

import (
	_ "embed"
	"strings"
)

var (
	// Roles is function ariaRoles(): the roles and accessible names of
	// elements (SPEC 7.1), with no other dependency.
	//go:embed roles.js
	Roles string
	// Selectors is function cssSelectors(): the selectors shown to the
	// agent for an element.
	//go:embed selectors.js
	Selectors string
	//go:embed states.js
	states string
	//go:embed refs.js
	refs string
	//go:embed walk.js
	walk string
	//go:embed render.js
	render string
	//go:embed hash.js
	hash string

	//go:embed snapshot.js
	snapshot string
	//go:embed search.js
	search string
	//go:embed query.js
	query string
	//go:embed report.js
	report string
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

// Bind returns a one-argument function expression that calls op with the
// helper object helpers builds from the roles and selectors modules, and
// the argument: the composition of packages dom and query, whose
// operations are op(helpers(ariaRoles(), cssSelectors()), args).
func Bind(helpers, op string) string {
	return "function (a) { return (" + strings.TrimSpace(op) + ")((" + strings.TrimSpace(helpers) +
		")((" + strings.TrimSpace(Roles) + ")(), (" + strings.TrimSpace(Selectors) + ")()), a); }"
}

// WithSelectors returns a function expression that calls fn with the
// selectors module and then its own arguments.
func WithSelectors(fn string) string {
	return "function () { return (" + strings.TrimSpace(fn) + ")((" + strings.TrimSpace(Selectors) + ")(), ...arguments); }"
}

var all = []Module{
	{"roles", Roles}, {"states", states}, {"refs", refs}, {"walk", walk}, {"render", render}, {"hash", hash},
}

// The page calls of package aria.
var (
	Snapshot = Compose(snapshot, all...)
	Search   = Compose(search, all...)
	Query    = Compose(query, all...)
	Report   = Compose(report, all...)
)
