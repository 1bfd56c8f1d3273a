package aria

import (
	"context"
	"math"

	"github.com/cdpskill/cdpskill/page"
)

// searchSealed extends a search with includeFrames into the frames below
// p's that its in-page code could not enter (cross-origin ones, out of
// process or not): each is searched in its own context, nested ones in
// turn, its refs numbered above every ref so far. Paths start with the
// frame; boxes and the near point are the tab's coordinates. A frame that
// cannot be searched is skipped.
func searchSealed(ctx context.Context, p *page.Page, opts SearchOptions, out *SearchResult) error {
	list, err := p.Frames(ctx)
	if err != nil {
		return err
	}
	var walk func(id, prefix string) error
	walk = func(id, prefix string) error {
		for _, f := range list.SealedBelow(id) {
			fp := p.Top()
			fp.Enter(f)
			label := prefix + frameLabel(ctx, fp, f) + " > "
			if err := searchOne(ctx, fp, opts, label, out); err != nil {
				if ctx.Err() != nil {
					return err
				}
				continue
			}
			if err := walk(f.ID, label); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(list.CurrentFrameID, "")
}

// searchOne searches the document fp evaluates in and adds what it found
// to out.
func searchOne(ctx context.Context, fp *page.Page, opts SearchOptions, label string, out *SearchResult) error {
	dx, dy, err := fp.FrameOffset(ctx, false)
	if err != nil {
		return err
	}
	o := opts
	o.SnapshotFloor, o.ElementFloor = out.LastSnapshot, out.LastElement
	if o.Near != nil {
		n := *o.Near
		n.X, n.Y = n.X-dx, n.Y-dy
		o.Near = &n
	}
	res, err := searchDoc(ctx, fp, o)
	if err != nil {
		return err
	}
	out.LastSnapshot = max(out.LastSnapshot, res.LastSnapshot)
	out.LastElement = max(out.LastElement, res.LastElement)
	out.MatchCount += res.MatchCount
	out.SearchedElements += res.SearchedElements
	for _, m := range res.Matches {
		if len(out.Matches) >= opts.limit() {
			break
		}
		m.Path = label + m.Path
		if m.Box != nil {
			b := *m.Box
			b.X += int(math.Round(dx))
			b.Y += int(math.Round(dy))
			m.Box = &b
		}
		out.Matches = append(out.Matches, m)
	}
	return nil
}

// frameLabel names a frame in a match's path: by its name, else its
// document's title, else its URL.
func frameLabel(ctx context.Context, fp *page.Page, f *page.Frame) string {
	name := f.Name
	if name == "" {
		_ = fp.CallJS(ctx, "() => document.title", &name)
	}
	if name == "" {
		name = f.URL
	}
	return "document " + quote(name)
}
