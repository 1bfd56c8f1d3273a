package page

import (
	"context"
	_ "embed"
	"fmt"

	"github.com/cdpskill/cdpskill/inpage"
)

//go:embed js/context.js
var pageContextJS string

//go:embed js/framework.js
var frameworkJS string

var contextJS = inpage.Lazy(func() string { return inpage.WithSelectors(pageContextJS) })

// Context is the page context reported after every call (SPEC 14.4).
// Parts that do not apply are nil and vanish from the JSON.
type Context struct {
	URL           string         `json:"url"`
	Title         string         `json:"title,omitempty"`
	Scroll        Scroll         `json:"scroll"`
	Viewport      Viewport       `json:"viewport"`
	ActiveElement *ActiveElement `json:"activeElement,omitempty"`
	Modal         *Modal         `json:"modal,omitempty"`
	// Emulated names the emulation settings in force, when any are
	// (Emulation.Summary).
	Emulated string `json:"emulated,omitempty"`
	// Framework is what the page runs on, when asked and known.
	Framework string `json:"framework,omitempty"`
	// Frame is the frame steps run in, when it is not the top document.
	Frame *CurrentFrame `json:"frame,omitempty"`
	// Doc tells documents apart: the top document's time origin, which a
	// new document (a reload too) changes and a fragment link does not.
	Doc float64 `json:"-"`
	// LayoutWidth is the width the page lays out at, in CSS px, and
	// MetaViewport whether it has a <meta name="viewport">: a mobile
	// screen lays a page without one out 980 px wide.
	LayoutWidth  int  `json:"-"`
	MetaViewport bool `json:"-"`
}

// CurrentFrame names the frame a tab was switched to.
type CurrentFrame struct {
	ID          string `json:"frameId"`
	URL         string `json:"url"`
	Name        string `json:"name,omitempty"`
	CrossOrigin bool   `json:"crossOrigin,omitempty"`
}

// Scroll is the vertical scroll position; Percent is 0 at the top and 100
// at the bottom (0 when the page does not scroll).
type Scroll struct {
	Y       int `json:"y"`
	Percent int `json:"percent"`
}

// Viewport is the layout viewport in CSS pixels. Note explains a width
// other than the emulated screen's.
type Viewport struct {
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Note   string `json:"note,omitempty"`
}

// Box is an element's bounding rectangle in viewport CSS pixels.
type Box struct {
	X      int `json:"x"`
	Y      int `json:"y"`
	Width  int `json:"width"`
	Height int `json:"height"`
}

// ActiveElement is the focused element, when it is not the body.
type ActiveElement struct {
	Tag      string `json:"tag"`
	Selector string `json:"selector"`
	Box      Box    `json:"box"`
	Editable bool   `json:"editable"`
	// Type, Value and Placeholder are set for input and textarea elements,
	// Checked instead of Value for checkboxes and radios. A password's
	// value is masked; long values are cut at 200 characters.
	Type        string  `json:"type,omitempty"`
	Value       *string `json:"value,omitempty"`
	Checked     *bool   `json:"checked,omitempty"`
	Placeholder string  `json:"placeholder,omitempty"`
}

// Modal is the topmost visible dialog: <dialog open>,
// [role=dialog][aria-modal=true] or [role=alertdialog].
type Modal struct {
	// Title comes from aria-label, aria-labelledby or a heading inside,
	// else it is "Dialog".
	Title    string `json:"title"`
	Selector string `json:"selector"`
}

// Framework tells what the top document runs on (js/framework.js), ""
// when it cannot tell.
func Framework(ctx context.Context, p *Page) string {
	var name string
	// The page's globals live in its own world.
	_ = p.Top().Main().CallJS(ctx, frameworkJS, &name) // unknown is no error
	return name
}

// GetContext reads the page context from the main frame in one
// evaluation, wherever p's evaluations currently run; with framework,
// it also tells what the page runs on (a second evaluation, in the
// page's own world, at the same time).
func GetContext(ctx context.Context, p *Page, framework bool) (*Context, error) {
	var read struct {
		Context
		TimeOrigin float64 `json:"timeOrigin"`
		Layout     struct {
			Width int  `json:"width"`
			Meta  bool `json:"meta"`
		} `json:"layout"`
	}
	top := p.Top()
	fw := make(chan string, 1)
	if framework {
		// The page's globals live in its own world.
		go func() { fw <- Framework(ctx, p) }()
	} else {
		fw <- ""
	}
	err := top.CallJS(ctx, contextJS(), &read)
	c := read.Context
	c.Framework = <-fw
	if err != nil {
		return nil, fmt.Errorf("page context: %w", err)
	}
	c.Doc = read.TimeOrigin
	c.LayoutWidth, c.MetaViewport = read.Layout.Width, read.Layout.Meta
	if f := p.Frame; f != nil {
		c.Frame = &CurrentFrame{ID: f.ID, URL: f.URL, Name: f.Name, CrossOrigin: f.CrossOrigin}
		// The frame may have moved on since it was entered.
		var now string
		if p.CallJS(ctx, "() => location.href", &now) == nil && now != "" {
			c.Frame.URL = now
		}
	}
	return &c, nil
}
