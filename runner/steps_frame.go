package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/cdpskill/cdpskill/internal/xcontext"
	"github.com/cdpskill/cdpskill/page"
)

// frameSteps list the tab's frames and switch where steps run.
var frameSteps = []step{
	define("frame", `{list: true} | "iframe-selector" | 0 | "top" | {selector|index|name|frameId}`,
		"list, or switch for later steps and calls",
		needsTab, decodeFrame, runFrame).out(`{frameId, url, name?} | {mainFrameId, currentFrameId, frames}`).
		also(`{"frame":"…"}`, "switchFrame", "switchToFrame", "iframe", "enterFrame", "selectFrame"),
}

type frameParams struct {
	List     bool   `json:"list"`
	Selector string `json:"selector"`
	Index    *int   `json:"index"`
	Name     string `json:"name"`
	FrameID  string `json:"frameId"`
	top      bool
}

func decodeFrame(raw json.RawMessage) (frameParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *frameParams) error {
		if s, ok := asString(raw); ok {
			if s == "top" {
				p.top = true
			} else {
				p.Selector = s
			}
			return nil
		}
		if i, err := strconv.Atoi(string(raw)); err == nil {
			p.Index = &i
			return nil
		}
		return paramErrorf(`expected "iframe-selector", an index, "top", {list: true} or {selector|index|name|frameId}, got %s`, jsonKind(raw))
	})
	if err != nil {
		return p, err
	}
	n := 0
	for _, set := range []bool{p.List, p.Selector != "", p.Index != nil, p.Name != "", p.FrameID != "", p.top} {
		if set {
			n++
		}
	}
	switch {
	case n == 0:
		return p, paramErrorf(`say which frame: "iframe-selector", an index, "top", {name}, {frameId}, or {list: true}`)
	case n > 1:
		return p, paramErrorf(`give one of list, selector, index, name or frameId`)
	case p.Index != nil && *p.Index < 0:
		return p, paramErrorf(`"index" must not be negative, got %d`, *p.Index)
	}
	return p, nil
}

// frameOutput is where steps now run.
type frameOutput struct {
	FrameID     string `json:"frameId"`
	URL         string `json:"url"`
	Name        string `json:"name,omitempty"`
	CrossOrigin bool   `json:"crossOrigin,omitempty"`
}

func runFrame(ctx context.Context, e *env, p frameParams) (output, error) {
	pg := e.page()
	if p.top {
		pg.Enter(nil)
		f, err := pg.FindFrame(ctx, pg.S.TargetID) // a tab's main frame id is its target id
		if err != nil {
			return output{}, err
		}
		return output{value: frameOutput{FrameID: f.ID, URL: f.URL}}, nil
	}
	if p.List {
		return value(pg.Frames(ctx))
	}
	f, err := findFrame(ctx, pg, p)
	if err != nil {
		return output{}, err
	}
	pg.Enter(f)
	out := output{value: frameOutput{FrameID: f.ID, URL: f.URL, Name: f.Name, CrossOrigin: f.CrossOrigin}}
	if f.CrossOrigin {
		out.warning = "this frame is cross-origin: steps now run in its own context, and its page cannot reach the top document; frame \"top\" goes back"
	}
	return out, nil
}

// frameWait bounds the wait for a frame element and its document to
// appear: frames are often added and loaded after the page.
const (
	frameWait = 5 * time.Second
	framePoll = 100 * time.Millisecond
)

// findFrame resolves the step's frame. A selector or index names an
// element of the current frame, waited for briefly; a name is looked for
// among the current frame's children first, then anywhere in the tab.
func findFrame(ctx context.Context, pg *page.Page, p frameParams) (*page.Frame, error) {
	switch {
	case p.FrameID != "":
		return pg.FindFrame(ctx, p.FrameID)
	case p.Name != "":
		list, err := pg.Frames(ctx)
		if err != nil {
			return nil, err
		}
		return frameByName(list, p.Name)
	}
	index := 0
	if p.Index != nil {
		index = *p.Index
	}
	deadline := time.Now().Add(frameWait)
	for {
		id, err := pg.ChildFrameID(ctx, p.Selector, index)
		if err == nil {
			var f *page.Frame
			if f, err = pg.FindFrame(ctx, id); err == nil {
				return f, nil
			}
			err = &page.FrameError{Frame: id, Reason: "its document is not in the frame tree yet"}
		}
		var fe *page.FrameError
		if !errors.As(err, &fe) || time.Now().After(deadline) {
			return nil, err
		}
		if xcontext.Sleep(ctx, framePoll) != nil {
			return nil, err
		}
	}
}

func frameByName(list *page.FrameList, name string) (*page.Frame, error) {
	var anywhere *page.Frame
	for _, f := range list.Frames {
		if f.Name != name {
			continue
		}
		if f.ParentID == list.CurrentFrameID {
			return f, nil
		}
		if anywhere == nil {
			anywhere = f
		}
	}
	if anywhere != nil {
		return anywhere, nil
	}
	var names []string
	for _, f := range list.Frames {
		if f.Name != "" {
			names = append(names, strconv.Quote(f.Name))
		}
	}
	reason := "no frame has that name"
	if len(names) > 0 {
		reason += fmt.Sprintf(" (named frames: %v)", names)
	}
	return nil, &page.FrameError{Frame: strconv.Quote(name), Reason: reason}
}
