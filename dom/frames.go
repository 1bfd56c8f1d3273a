package dom

import (
	"context"
	_ "embed"

	"github.com/cdpskill/cdpskill/page"
)

//go:embed js/has-ref.js
var hasRefFn string

// FrameOfRef finds the frame, other than p's current one, whose window
// holds ref: a snapshot taken inside a frame, or of a cross-origin frame's
// content, hands out refs that live there. ok is false when no frame has
// it. The frame may be the top document (ParentID ""); p.Enter takes it
// either way.
func FrameOfRef(ctx context.Context, p *page.Page, ref string) (frame *page.Frame, ok bool, err error) {
	return searchFrames(ctx, p, func(fp *page.Page) (bool, error) {
		var has bool
		err := fp.CallJS(ctx, hasRefFn, &has, ref)
		return has, err
	})
}

// searchFrames asks found of every frame of the tab but p's current one,
// in tree order, and returns the first that says yes (SPEC 13.3). A frame
// that cannot be asked (gone, still loading) is skipped.
func searchFrames(ctx context.Context, p *page.Page, found func(*page.Page) (bool, error)) (*page.Frame, bool, error) {
	list, err := p.Frames(ctx)
	if err != nil {
		return nil, false, err
	}
	for _, f := range list.Frames {
		if f.ID == list.CurrentFrameID {
			continue
		}
		fp := p.Top()
		fp.Enter(f)
		if yes, err := found(fp); err == nil && yes {
			return f, true, nil
		} else if ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
	}
	return nil, false, nil
}

// present reports whether t names an element in p's current frame now,
// without waiting.
func present(ctx context.Context, p *page.Page, t Target) (bool, error) {
	token := page.Token()
	res, err := check(ctx, p, ActionRequest{Target: t, Action: ActionClick}, token, true)
	if err != nil {
		return false, err
	}
	if res.Status == "ok" {
		release(ctx, p, &Element{token: token})
		return true, nil
	}
	return false, nil
}

// enterFrameWith switches p, for one action, to the first frame where t
// is when it is not in the current one. restore puts p back unless the
// action navigated the top document, which ends every frame.
func enterFrameWith(ctx context.Context, p *page.Page, t Target) (entered *page.Frame, restore func(), err error) {
	restore = func() {}
	if here, err := present(ctx, p, t); err != nil || here {
		return nil, restore, err
	}
	f, ok, err := searchFrames(ctx, p, func(fp *page.Page) (bool, error) { return present(ctx, fp, t) })
	if err != nil || !ok {
		return nil, restore, err
	}
	saved, navs := p.Frame, p.Navigations()
	p.Enter(f)
	return f, func() {
		if p.Navigations() == navs {
			p.Frame = saved
		}
	}, nil
}
