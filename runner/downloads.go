package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/cdpskill/cdpskill/capture"
)

// lateDownloadWait bounds the wait, after the captures, for the downloads
// begun after the last step ended (a script's click on a download link
// starts one after its pageFunction returned).
const lateDownloadWait = 2 * time.Second

// renewDownloads repeats the download settings before a step acts on the
// tab: any cdpskill process that ended since put Chrome back to its
// default. A failure only means the file takes a detour (see capture).
func (c *Call) renewDownloads(ctx context.Context, def *step) {
	if c.downloads() == nil || c.page() == nil || !def.has(needsTab) {
		return
	}
	_ = c.downloads().Renew(ctx)
}

// takeDownloads adds to sr the downloads the step began, waiting for them
// within the step's time (ctx). late: they began after the step ended.
func (c *Call) takeDownloads(ctx context.Context, sr *StepResult, late bool) {
	if c.downloads() == nil || c.page() == nil || c.dead() {
		return
	}
	t := c.downloads().Take(ctx, c.page())
	sr.Downloads = append(sr.Downloads, t.Downloads...)
	for _, w := range t.Warnings {
		sr.addWarning(w)
	}
	for _, d := range t.Downloads {
		if d.State == capture.DownloadInProgress {
			sr.addWarning(unfinished(d, late))
		}
	}
}

// unfinished words a download still in progress when its wait ended.
func unfinished(d capture.Download, late bool) string {
	got := fmt.Sprintf("%d", d.Bytes)
	if d.TotalBytes > 0 {
		got += fmt.Sprintf(" of %d", d.TotalBytes)
	}
	where := "in the background"
	if d.Path != "" {
		where = "and saves it as " + d.Path
	}
	if late {
		return fmt.Sprintf("download %q began after the step ended and was still in progress when the call ended (%s bytes); Chrome goes on with it %s", d.Filename, got, where)
	}
	return fmt.Sprintf("download %q was still in progress when the step's time ran out (%s bytes); Chrome goes on with it %s; to wait for a download, give the step a longer \"timeout\"", d.Filename, got, where)
}

// lateDownloads reports with the last step the downloads begun after it
// ended, during the captures: its action most likely started them.
func (c *Call) lateDownloads(ctx context.Context, res *Result) {
	if len(res.Steps) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, lateDownloadWait)
	defer cancel()
	c.takeDownloads(ctx, &res.Steps[len(res.Steps)-1], true)
}
