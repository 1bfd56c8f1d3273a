package runner

import (
	"context"
	"reflect"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/chrome"
	"github.com/cdpskill/cdpskill/fleet"
	"github.com/cdpskill/cdpskill/keeper"
	"github.com/cdpskill/cdpskill/page"
	"github.com/cdpskill/cdpskill/tab"
	"github.com/cdpskill/cdpskill/tabs"
)

// env is what a step's executor is given of its call, and all it is
// given: the tab it acts on, where its files go, the environment, and
// sinks for what the call reports beside the step's output. Only steps
// flagged holdsTabs get the call's tab table.
type env struct {
	// tab is the call's tab; nil before one is attached (a needsTab step
	// always has one).
	tab    *tab.Tab
	files  capture.Files
	getenv chrome.Env
	// warn adds to the call's warnings; what concerns the step's output
	// is the output's own warning.
	warn func(format string, args ...any)
	// unsaved notes a file the step could not write and what it cost.
	unsaved func(name string, err error)
	// secret keeps a value the agent typed out of the --debug log.
	secret func(value string)
	// acted, when set, is called once the step has acted: the report's
	// screenshot may start then.
	acted func()
	// tabs opens, switches and lists the call's tabs (holdsTabs steps).
	tabs tabTable
	// keep reaches the keepers of the call's browsers; nil: none can be
	// started.
	keep *keeper.Client
}

// tabTable is the call's tabs as the steps that hold them see them.
type tabTable interface {
	registry() *tabs.Registry
	// current is the call's tab now: a step that attached one sees it.
	current() *tab.Tab
	// connection is the call's browser connection; nil before one.
	connection() *tab.Browser
	connect(ctx context.Context, ep chrome.Endpoint, headless *bool, autoLaunch bool) (*tab.Browser, error)
	// create makes a browser on a fleet server and connects to it.
	create(ctx context.Context, srv fleet.Server) (*tab.Browser, error)
	// attach makes target the call's tab; arrivedAt says where it was.
	attach(ctx context.Context, target tab.Target) error
	arrivedAt(url string, doc float64)
	// letGo lets the call's tab go when it is targetID.
	letGo(targetID string)
	// visit tells the keeper of the browser at ep that the call ran there
	// (starting one for a Chrome the call launched, whose websocket URL
	// launched is).
	visit(ctx context.Context, ep chrome.Endpoint, launched string)
}

// output is what an executor returns: the value the agent reads as the
// step's output, nil when the step has nothing to say, and a warning
// about it.
type output struct {
	value   any
	warning string
}

// value is the output of a domain function's result, with the warning
// of an action's result (dom.Note).
func value[T any](v T, err error) (output, error) {
	out := output{value: v}
	if n, ok := any(v).(interface{ StepWarning() string }); ok && present(v) {
		out.warning = n.StepWarning()
	}
	return out, err
}

// present: v says something; a nil pointer, map or slice says nothing.
func present(v any) bool {
	if v == nil {
		return false
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice:
		return !rv.IsNil()
	}
	return true
}

func (e *env) page() *page.Page {
	if e.tab == nil {
		return nil
	}
	return e.tab.Page
}

func (e *env) alias() string {
	if e.tab == nil {
		return ""
	}
	return e.tab.Alias
}

func (e *env) console() *capture.Console {
	if e.tab == nil {
		return nil
	}
	return e.tab.Console
}

// writeArtifact writes data to path, privately, and returns path; on
// failure the call notes it (unsaved) and returns "", and the output
// stays inline or its field is left out.
func (e *env) writeArtifact(path string, data []byte) string {
	if err := e.files.Temp.WriteFile(path, data); err != nil {
		e.unsaved(fileName(path), err)
		return ""
	}
	return path
}

// attach makes target the call's tab, and the step's from then on.
func (e *env) attach(ctx context.Context, target tab.Target) error {
	err := e.tabs.attach(ctx, target)
	e.tab = e.tabs.current()
	return err
}

// env is the call as the runner's own work sees it: its tab table
// included.
func (c *Call) env() *env {
	return &env{
		tab: c.tab, files: c.files, getenv: c.getenv,
		warn: c.warn, unsaved: c.unsaved, secret: c.keepSecret, tabs: c, keep: c.keep,
	}
}

// stepEnv is the call as def's executor sees it; acted as env.acted.
func (c *Call) stepEnv(def *step, acted func()) *env {
	e := c.env()
	e.acted = acted
	if !def.has(holdsTabs) {
		e.tabs = nil
	}
	return e
}

// The Call is the tab table of the steps that hold tabs.

func (c *Call) registry() *tabs.Registry          { return c.tabs }
func (c *Call) current() *tab.Tab                 { return c.tab }
func (c *Call) connection() *tab.Browser          { return c.browser }
func (c *Call) arrivedAt(url string, doc float64) { c.startURL, c.startDoc = url, doc }

func (c *Call) letGo(targetID string) {
	if s := c.sess(); s != nil && s.TargetID == targetID {
		// An early screenshot still being written would put a file back
		// into the history closeTab removes.
		c.early.abandon()
		c.early = nil
		c.detach()
	}
}

// keepSecret keeps value out of the --debug log.
func (c *Call) keepSecret(value string) {
	if value != "" {
		c.secrets = append(c.secrets, value)
	}
}
