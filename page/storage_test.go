package page_test

import (
	"errors"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/page"
)

func storageOp(t *testing.T, p *page.Page, area string, ops page.StorageOps) *page.StorageResult {
	t.Helper()
	res, err := page.Storage(navCtx(t, 5*time.Second), p, area, ops)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestStorageGetSetRemoveClear(t *testing.T) {
	p, _ := envPage(t, "env-plain.html")
	for _, area := range []string{"local", "session"} {
		res := storageOp(t, p, area, page.StorageOps{Clear: true, Set: map[string]string{"a": "1", "b": `{"x":2}`}, Get: []string{"a", "zz"}})
		if *res.Cleared < 0 || *res.Set != 2 || *res.Items["a"] != "1" || res.Items["zz"] != nil {
			t.Errorf("%s set+get: %+v", area, res)
		}
		all := storageOp(t, p, area, page.StorageOps{GetAll: true})
		if *all.Count != 2 || *all.Items["b"] != `{"x":2}` {
			t.Errorf("%s getAll: %+v", area, all)
		}
		rm := storageOp(t, p, area, page.StorageOps{Remove: []string{"a", "missing"}, GetAll: true})
		if *rm.Removed != 1 || *rm.Count != 1 {
			t.Errorf("%s remove: removed %d, %d left", area, *rm.Removed, *rm.Count)
		}
		cl := storageOp(t, p, area, page.StorageOps{Clear: true, GetAll: true})
		if *cl.Cleared != 1 || *cl.Count != 0 {
			t.Errorf("%s clear: %+v", area, cl)
		}
	}
	// The two areas are separate, and the page sees what was set.
	storageOp(t, p, "local", page.StorageOps{Set: map[string]string{"k": "local"}})
	storageOp(t, p, "session", page.StorageOps{Set: map[string]string{"k": "session"}})
	if got := navEval[string](t, p, "localStorage.k + '/' + sessionStorage.k"); got != "local/session" {
		t.Errorf("page sees %s", got)
	}
}

func TestStorageUnavailable(t *testing.T) {
	p := page.New(browser.NewTab(t)) // about:blank: an opaque origin
	_, err := page.Storage(navCtx(t, 5*time.Second), p, "local", page.StorageOps{GetAll: true})
	var se *page.StorageError
	if !errors.As(err, &se) {
		t.Errorf("got %v", err)
	}
	t.Log(err)
	var pe *invalid.Option
	if _, err := page.Storage(navCtx(t, 5*time.Second), p, "cookies", page.StorageOps{}); !errors.As(err, &pe) {
		t.Errorf("bad area: %v", err)
	}
}
