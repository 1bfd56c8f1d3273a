package page_test

import (
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/testbrowser"
	"github.com/cdpskill/cdpskill/page"
)

// ExposeClickHandlers, sent once per document, reaches the next
// document.
func TestExposeClickHandlersPerDocument(t *testing.T) {
	s := browser.NewTab(t)
	ctx := navCtx(t, 30*time.Second)
	srv := testbrowser.Serve(t, "testdata")
	p := page.New(s)
	if err := (proto.RuntimeEnable{}).Do(ctx, s); err != nil {
		t.Fatal(err)
	}
	p.RuntimeEnabled()
	testbrowser.Navigate(t, s, srv.URL+"/nav-a.html")
	exposed := func(w string) bool {
		t.Helper()
		var v bool
		if err := p.Main().CallJS(ctx, "() => Object.prototype.hasOwnProperty.call("+w+", '__cdpskill_onclick')", &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	page.ExposeClickHandlers(ctx, p)
	if !exposed("window") {
		t.Fatal("not exposed to the document")
	}
	page.ExposeClickHandlers(ctx, p) // the same document: nothing to send
	testbrowser.Navigate(t, s, srv.URL+"/nav-b.html")
	page.ExposeClickHandlers(ctx, p)
	if !exposed("window") {
		t.Error("not exposed to the next document")
	}
}
