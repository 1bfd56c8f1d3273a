// Package dom finds page elements and acts on them: target resolution (CSS
// selectors, aria refs, form labels, clickable text, the focused element),
// the actionability loop that waits for an element to be ready, click and
// fill over CDP input, what an action did to the tab (navigation, new
// tabs), and the diagnostics of a failed search.
//
// The JavaScript it runs lives in js/. Each operation there is a function
// (h, args) whose first argument is the helper object built by
// js/resolve.js from its modules (js/resolve_*.js); bind pairs the two so
// that one Runtime.evaluate does the whole operation.
package dom

import (
	_ "embed"

	"github.com/cdpskill/cdpskill/inpage"
)

var (
	//go:embed js/resolve.js
	resolveJS string
	//go:embed js/resolve_base.js
	resolveBaseJS string
	//go:embed js/resolve_deep.js
	resolveDeepJS string
	//go:embed js/resolve_reach.js
	resolveReachJS string
	//go:embed js/resolve_text.js
	resolveTextJS string
	//go:embed js/resolve_label.js
	resolveLabelJS string
	//go:embed js/resolve_ref.js
	resolveRefJS string
	//go:embed js/actionable.js
	actionableJS string
	//go:embed js/release.js
	releaseJS string
	//go:embed js/verify_probe.js
	verifyProbeJS string
	//go:embed js/jsclick.js
	jsClickJS string
	//go:embed js/fill_prepare.js
	fillPrepareJS string
	//go:embed js/fill_finish.js
	fillFinishJS string
	//go:embed js/fill_react.js
	fillReactJS string
	//go:embed js/fill_editor.js
	fillEditorJS string
	//go:embed js/checked.js
	checkedJS string
	//go:embed js/settle.js
	settleJS string
	//go:embed js/reveal.js
	revealJS string
	//go:embed js/diagnose.js
	diagnoseJS string
	//go:embed js/still.js
	stillJS string
)

var (
	actionableFn  = bind(actionableJS)
	releaseFn     = bind(releaseJS)
	verifyProbeFn = bind(verifyProbeJS)
	jsClickFn     = bind(jsClickJS)
	fillPrepareFn = bind(fillPrepareJS)
	fillFinishFn  = bind(fillFinishJS)
	fillReactFn   = bind(fillReactJS)
	fillEditorFn  = bind(fillEditorJS)
	checkedFn     = bind(checkedJS)
	settleFn      = bind(settleJS)
	revealFn      = bind(revealJS)
	diagnoseFn    = bind(diagnoseJS)
	stillFn       = bind(stillJS)
)

// helpersJS is the helper object's factory, function (R, S, P): resolve.js
// with the modules it builds on as its lib (inpage.Compose).
var helpersJS = inpage.Lazy(func() string {
	return inpage.Compose(resolveJS,
		inpage.Module{Name: "base", Src: resolveBaseJS},
		inpage.Module{Name: "deep", Src: resolveDeepJS},
		inpage.Module{Name: "reach", Src: resolveReachJS},
		inpage.Module{Name: "text", Src: resolveTextJS},
		inpage.Module{Name: "label", Src: resolveLabelJS},
		inpage.Module{Name: "ref", Src: resolveRefJS})
})

// bind composes an operation with the helpers (inpage.Bind).
func bind(op string) func() string {
	return inpage.Lazy(func() string { return inpage.Bind(helpersJS(), op) })
}

// Point is a position in CSS pixels of the top-level viewport.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}
