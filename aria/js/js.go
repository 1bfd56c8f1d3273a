// Package js holds the JavaScript of package aria, one function expression
// per file, and composes the page calls from them.
//
// Modules are factories (inpage's roles.js and places.js, and states.js, refs.js,
// walk.js, view.js, render.js, hash.js; context.js, scope.js, elsewhere.js and
// boxes.js only where they are used); entry points (snapshot.js, search.js, query.js, report.js,
// fingerprint.js, describe.js, marks.js) take a lib object of those factories as their first
// argument; onscreen.js takes none, since it answers what snapshot.js left.
package js

import (
	_ "embed"

	"github.com/cdpskill/cdpskill/inpage"
)

var (
	//go:embed states.js
	states string
	//go:embed refs.js
	refs string
	//go:embed walk.js
	walk string
	//go:embed view.js
	view string
	//go:embed render.js
	render string
	//go:embed hash.js
	hash string
	//go:embed context.js
	context string
	//go:embed scope.js
	scope string
	//go:embed elsewhere.js
	elsewhere string
	//go:embed boxes.js
	boxes string

	//go:embed snapshot.js
	snapshot string
	//go:embed search.js
	search string
	//go:embed query.js
	query string
	//go:embed report.js
	report string
	//go:embed fingerprint.js
	fingerprint string
	//go:embed onscreen.js
	onscreen string
	//go:embed describe.js
	describe string
	//go:embed marks.js
	marks string
)

var all = []inpage.Module{
	{Name: "roles", Src: inpage.Roles}, {Name: "places", Src: inpage.Places}, {Name: "states", Src: states}, {Name: "refs", Src: refs}, {Name: "walk", Src: walk}, {Name: "view", Src: view}, {Name: "render", Src: render}, {Name: "hash", Src: hash},
}

var (
	contexts = inpage.Module{Name: "context", Src: context}
	scopes   = inpage.Module{Name: "scope", Src: scope}
	away     = inpage.Module{Name: "elsewhere", Src: elsewhere}
	boxed    = inpage.Module{Name: "boxes", Src: boxes}
)

// The page calls of package aria.
var (
	Snapshot = inpage.Lazy(func() string {
		return inpage.Compose(snapshot, append(all[:len(all):len(all)], contexts, scopes)...)
	})
	Search = inpage.Lazy(func() string { return inpage.Compose(search, all...) })
	Query  = inpage.Lazy(func() string { return inpage.Compose(query, all...) })
	Report = inpage.Lazy(func() string {
		return inpage.Compose(report, append(all[:len(all):len(all)], contexts, scopes, away, boxed)...)
	})
	Fingerprint = inpage.Lazy(func() string { return inpage.Compose(fingerprint, inpage.Module{Name: "hash", Src: hash}) })
	// Describe needs only what refs and names are made of.
	Describe = inpage.Lazy(func() string {
		return inpage.Compose(describe, inpage.Module{Name: "roles", Src: inpage.Roles},
			inpage.Module{Name: "places", Src: inpage.Places}, inpage.Module{Name: "refs", Src: refs})
	})
	// Marks needs what the walk and refs are made of, not the rendering.
	Marks = inpage.Lazy(func() string {
		return inpage.Compose(marks, inpage.Module{Name: "roles", Src: inpage.Roles}, inpage.Module{Name: "places", Src: inpage.Places},
			inpage.Module{Name: "states", Src: states}, inpage.Module{Name: "refs", Src: refs},
			inpage.Module{Name: "walk", Src: walk}, inpage.Module{Name: "view", Src: view}, boxed)
	})
	// OnScreen takes no library: what it answers was made by Snapshot.
	OnScreen = func() string { return onscreen }
)
