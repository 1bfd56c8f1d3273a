package page

import (
	"context"

	"github.com/cdpskill/cdpskill/inpage"
)

// ExposeClickHandlers lets the helper world see the onclick handlers the
// page assigned from script (inpage/handlers.js), once per document. It
// is best-effort: a page that broke its own events only hides them.
func ExposeClickHandlers(ctx context.Context, p *Page) {
	_ = p.Main().CallJS(ctx, inpage.ClickHandlers, nil)
}
