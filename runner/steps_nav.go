package runner

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/internal/suggest"
	"github.com/cdpskill/cdpskill/internal/xcontext"
	"github.com/cdpskill/cdpskill/page"
)

// navSteps move the tab through its history.
var navSteps = []step{
	define("goto", `"url" | {url, waitUntil: commit|domcontentloaded|load|networkidle}`,
		"", needsTab|visual|navigates, decodeGoto, runGoto).out(`{url, status, title}`).did("Navigated").
		also(`{"goto":"…"}`, "navigate", "navigateTo", "visit", "open", "openUrl", "browse"),
	define("reload", `true | {waitUntil}`,
		"", needsTab|visual|navigates, decodeReload, runReload).out(`{url, status, title}`).did("Reloaded").
		also(`{"reload":true}`, "refresh", "reloadPage"),
	define("back", `true`,
		"", needsTab|visual|navigates, decodeHistory, runBack).out(`{url, title?, noHistory?}`).did("Went back").
		also(`{"back":true}`, "goBack", "navigateBack", "historyBack"),
	define("forward", `true`,
		"", needsTab|visual|navigates, decodeHistory, runForward).out(`{url, title?, noHistory?}`).did("Went forward").
		also(`{"forward":true}`, "goForward", "navigateForward", "historyForward"),
}

// waitSteps wait for the page or for time.
var waitSteps = []step{
	define("wait", `"selector" | {selector, hidden, minCount} | {text, caseSensitive} | {textRegex} | {urlContains}`,
		"for an element, text or URL", needsTab, decodeWait, runWait).out(`{count?, url?}`).
		also(`{"wait":"…"}`, "waitFor", "waitForSelector", "waitForElement", "waitForVisible").
		also(`{"wait":{"text":"…"}}`, "waitForText").
		also(`{"wait":{"urlContains":"…"}}`, "waitForUrl", "waitForNavigation"),
	define("sleep", `ms (0-60000)`,
		"pause", 0, decodeSleep, runSleep).
		also(`{"sleep":1000}`, "waitForTimeout", "delay", "pause"),
}

// factSteps read simple facts of the page.
var factSteps = []step{
	define("getUrl", `true`, "", needsTab, decodeTrue("getUrl"), runGetURL).out(`{url}`).
		also(`{"getUrl":true}`, "url", "currentUrl", "location"),
	define("getTitle", `true`, "", needsTab, decodeTrue("getTitle"), runGetTitle).out(`{title}`).
		also(`{"getTitle":true}`, "title", "pageTitle"),
}

var waitUntilValues = []string{"commit", "domcontentloaded", "load", "networkidle"}

func checkWaitUntil(w string) error {
	if w == "" || slices.Contains(waitUntilValues, w) {
		return nil
	}
	msg := "waitUntil must be one of commit, domcontentloaded, load, networkidle"
	if s := suggest.Nearest(w, waitUntilValues); s != "" {
		msg += "; did you mean " + s + "?"
	}
	return paramErrorf("%s (got %q)", msg, w)
}

// --- goto

type gotoParams struct {
	URL       string `json:"url"`
	WaitUntil string `json:"waitUntil"`
}

func decodeGoto(raw json.RawMessage) (gotoParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *gotoParams) error {
		if s, ok := asString(raw); ok {
			p.URL = s
			return nil
		}
		return paramErrorf(`expected a URL or {url, waitUntil}, got %s`, jsonKind(raw))
	})
	if err != nil {
		return p, err
	}
	if p.URL == "" {
		return p, paramErrorf(`"url" is required, e.g. {"goto":"https://example.com"}`)
	}
	if err := checkURL(p.URL); err != nil {
		return p, err
	}
	return p, checkWaitUntil(p.WaitUntil)
}

// checkURL refuses, before Chrome is touched, a URL Chrome cannot show
// in a tab (page.CheckURL).
func checkURL(u string) error {
	var ne *page.NavigationError
	if err := page.CheckURL(u); errors.As(err, &ne) {
		return paramErrorf("%q: %s", u, ne.ErrorText)
	}
	return nil
}

func runGoto(ctx context.Context, e *env, p gotoParams) (output, error) {
	return value(gotoURL(ctx, e, p.URL, p.WaitUntil))
}

func gotoURL(ctx context.Context, e *env, url, waitUntil string) (*page.NavResult, error) {
	return page.Goto(ctx, e.page(), url, waitUntil)
}

// --- reload

type reloadParams struct {
	WaitUntil string `json:"waitUntil"`
}

func decodeReload(raw json.RawMessage) (reloadParams, error) {
	p, err := decodeInto(raw, trueOnly[reloadParams])
	if err == nil {
		err = checkWaitUntil(p.WaitUntil)
	}
	return p, err
}

func runReload(ctx context.Context, e *env, p reloadParams) (output, error) {
	return value(page.Reload(ctx, e.page(), p.WaitUntil))
}

// --- back / forward

type historyParams struct{}

func decodeHistory(raw json.RawMessage) (historyParams, error) {
	return decodeInto(raw, trueOnly[historyParams])
}

func runBack(ctx context.Context, e *env, _ historyParams) (output, error) {
	return value(page.Back(ctx, e.page()))
}

func runForward(ctx context.Context, e *env, _ historyParams) (output, error) {
	return value(page.Forward(ctx, e.page()))
}

// --- wait

type waitParams struct {
	Selector      string `json:"selector"`
	Hidden        bool   `json:"hidden"`
	MinCount      int    `json:"minCount"`
	Text          string `json:"text"`
	CaseSensitive *bool  `json:"caseSensitive"`
	TextRegex     string `json:"textRegex"`
	URLContains   string `json:"urlContains"`
	Timeout       int    `json:"timeout"`
}

func decodeWait(raw json.RawMessage) (waitParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *waitParams) error {
		if s, ok := asString(raw); ok && s != "" {
			p.Selector = s
			return nil
		}
		return paramErrorf(`expected a CSS selector or {selector | text | textRegex | urlContains}, got %s`, jsonKind(raw))
	})
	if err != nil {
		return p, err
	}
	n := 0
	for _, s := range []string{p.Selector, p.Text, p.TextRegex, p.URLContains} {
		if s != "" {
			n++
		}
	}
	switch {
	case n != 1:
		return p, paramErrorf("give exactly one of selector, text, textRegex, urlContains")
	case p.MinCount < 0:
		return p, paramErrorf(`"minCount" must be at least 1`)
	case p.Timeout < 0:
		return p, paramErrorf(`"timeout" must be a positive number of milliseconds`)
	case (p.Hidden || p.MinCount > 0) && p.Selector == "":
		return p, paramErrorf(`"hidden" and "minCount" go with "selector"`)
	case p.CaseSensitive != nil && p.Text == "":
		return p, paramErrorf(`"caseSensitive" goes with "text"`)
	}
	if p.TextRegex != "" {
		if _, err := invalid.Compile("textRegex", p.TextRegex); err != nil {
			return p, paramErrorf("%v", err)
		}
	}
	return p, nil
}

func runWait(ctx context.Context, e *env, p waitParams) (output, error) {
	if p.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(p.Timeout)*time.Millisecond)
		defer cancel()
	}
	res, err := page.Wait(ctx, e.page(), page.WaitCondition{
		Selector: p.Selector, Hidden: p.Hidden, MinCount: p.MinCount,
		Text: p.Text, CaseSensitive: p.CaseSensitive, TextRegex: p.TextRegex, URLContains: p.URLContains,
	})
	if res == nil || *res == (page.WaitResult{}) {
		return output{}, err // met, with nothing more to tell (a text, a hidden element)
	}
	return output{value: res}, err
}

// --- sleep

func decodeSleep(raw json.RawMessage) (time.Duration, error) {
	var ms float64
	if err := json.Unmarshal(raw, &ms); err != nil {
		return 0, paramErrorf("expected a number of milliseconds (0-60000), got %s", jsonKind(raw))
	}
	if ms < 0 || ms > 60000 {
		return 0, paramErrorf("must be between 0 and 60000 ms, got %v", ms)
	}
	return time.Duration(ms * float64(time.Millisecond)), nil
}

func runSleep(ctx context.Context, e *env, d time.Duration) (output, error) {
	return output{}, xcontext.Sleep(ctx, d) // the agent asked for this pause
}

// --- getUrl / getTitle

func runGetURL(ctx context.Context, e *env, _ struct{}) (output, error) {
	var url string
	err := e.page().CallJS(ctx, "() => location.href", &url)
	return output{value: map[string]string{"url": url}}, err
}

func runGetTitle(ctx context.Context, e *env, _ struct{}) (output, error) {
	var title string
	err := e.page().CallJS(ctx, "() => document.title", &title)
	return output{value: map[string]string{"title": title}}, err
}
