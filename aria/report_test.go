package aria_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cdpskill/cdpskill/aria"
	"github.com/cdpskill/cdpskill/internal/pagetest"
	"github.com/cdpskill/cdpskill/page"
)

func takeReport(t *testing.T, p *page.Page, opts aria.ReportOptions) *aria.Report {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	r, err := aria.TakeReport(ctx, p, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The report's lean view keeps what an agent acts on and what a person
// reads first, on screen only; the full view has the whole page; all
// three share refs and start no snapshot number.
func TestReportViews(t *testing.T) {
	p := open(t, "report.html")
	r := takeReport(t, p, aria.ReportOptions{Viewport: true, Full: true})
	golden(t, "report_lean", r.Lean)
	golden(t, "report_viewport", r.Viewport)
	if strings.Contains(r.Lean, "Archive") || !strings.Contains(r.Full, `heading "Archive"`) {
		t.Errorf("the lean view must hold only the screen, the full one the page:\n%s", r.Full)
	}
	for _, line := range strings.Split(r.Lean, "\n") {
		if m := refRE.FindStringSubmatch(line); m != nil && !strings.Contains(r.Full, "[ref="+m[1]+"]") {
			t.Errorf("ref of %q is not in the full view", line)
		}
	}
	again := takeReport(t, p, aria.ReportOptions{Viewport: true})
	if again.Lean != r.Lean || again.Full != "" {
		t.Errorf("a second report changed the refs:\n%s", again.Lean)
	}
	if s := snap(t, p, aria.Options{}); s.SnapshotID != "s1" {
		t.Errorf("the first agent snapshot after reports is %s, want s1", s.SnapshotID)
	}
}

// What a call's actions put on the page out of view is said with where it
// is and what it reads; what they put on screen is the diff's, what they
// rebuilt as it was is nothing, and a call not named gets nothing.
func TestReportSaysWhatChangedOutOfView(t *testing.T) {
	p := open(t, "report.html")
	ctx := pagetest.Ctx(t)
	if err := page.ArmSettle(ctx, p, "call-1"); err != nil {
		t.Fatal(err)
	}
	pagetest.Eval[any](t, p, `(() => {
		const s = document.createElement('section');
		s.setAttribute('aria-label', 'Results');
		s.textContent = 'Saved as #7';
		document.querySelector('main').append(s);
		document.querySelector('h1').append(' (1 saved)');
		const h = [...document.querySelectorAll('h2')].pop();
		h.replaceWith(h.cloneNode(true)); // rebuilt as it was: no change
	})()`)
	if _, err := page.AwaitQuiet(ctx, p, 33*time.Millisecond, time.Second, page.AfterFrame); err != nil {
		t.Fatal(err)
	}
	r := takeReport(t, p, aria.ReportOptions{Viewport: true, Elsewhere: "call-1"})
	if want := []aria.Away{{Side: "below", Region: `region "Results"`, Text: "Saved as #7"}}; !slices.Equal(r.Elsewhere, want) {
		t.Errorf("elsewhere %q, want %q", r.Elsewhere, want)
	}
	if r := takeReport(t, p, aria.ReportOptions{Viewport: true, Elsewhere: "call-2"}); len(r.Elsewhere) != 0 {
		t.Errorf("another call's report says %q", r.Elsewhere)
	}
}

// Out of view, a clock the page ticks on its own between calls is not the
// action's doing; a message landing below a chat pane's fold is, though
// the pane itself is on screen.
func TestReportElsewhereLeavesTheClockOut(t *testing.T) {
	p := open(t, "report.html")
	ctx := pagetest.Ctx(t)
	pagetest.Eval[any](t, p, `(() => {
		const main = document.querySelector('main');
		main.insertAdjacentHTML('beforeend', '<footer><span id="clock">0</span></footer>');
		main.insertAdjacentHTML('afterbegin', '<section aria-label="Chat" style="height: 60px; overflow: auto"><p style="height: 200px">Hi</p><ul id="msgs"></ul></section>');
		let n = 0;
		setInterval(() => { document.getElementById('clock').textContent = String(++n); }, 20);
	})()`)
	act := func(call, js string) []aria.Away {
		t.Helper()
		if err := page.ArmSettle(ctx, p, call); err != nil {
			t.Fatal(err)
		}
		pagetest.Eval[any](t, p, js)
		if _, err := page.AwaitQuiet(ctx, p, 33*time.Millisecond, 300*time.Millisecond, page.AfterFrame); err != nil {
			t.Fatal(err)
		}
		return takeReport(t, p, aria.ReportOptions{Viewport: true, Elsewhere: call}).Elsewhere
	}
	act("call-1", "0")
	time.Sleep(100 * time.Millisecond) // the clock ticks between the calls
	got := act("call-2", `document.getElementById('msgs').insertAdjacentHTML('beforeend', '<li>New message</li>')`)
	if want := []aria.Away{{Side: "below", Region: `region "Chat"`, Text: "New message"}}; !slices.Equal(got, want) {
		t.Errorf("elsewhere %q, want %q", got, want)
	}
}
