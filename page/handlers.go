package page

import (
	"context"

	"github.com/cdpskill/cdpskill/inpage"
)

// ExposeClickHandlers lets the helper world see the onclick handlers the
// page assigned from script (inpage/handlers.js), once per document. It
// is best-effort: a page that broke its own events only hides them.
// The script is sent once per document (a frame added to the document
// later is not reached, as the script skips a document it served), every
// time when the session does not report its contexts.
func ExposeClickHandlers(ctx context.Context, p *Page) {
	key := p.document()
	if key != "" && p.served(key, false) {
		return
	}
	if p.Main().CallJS(ctx, inpage.ClickHandlers, nil) == nil && key != "" {
		p.served(key, true)
	}
}
