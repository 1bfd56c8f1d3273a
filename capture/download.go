package capture

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/private"
	"github.com/cdpskill/cdpskill/internal/xcontext"
	"github.com/cdpskill/cdpskill/page"
)

// Downloads are saved in DownloadsDir under their suggested names, made
// unique. Chrome's download settings are a browser context's (a session's,
// or the default one's) and last only as long as the connection that made
// them: when any cdpskill process ends, Chrome goes back to its default,
// saving into ~/Downloads (cancelling them in a session's context), and
// another agent may point them at its own directory meanwhile. So nothing here
// relies on where a file was meant to land. Chrome writes each download
// named by its id (allowAndName) and says where it put it once it is done
// (Browser.downloadProgress's filePath); the file is then moved from there
// to its name. Download events go to every connection that asked for them,
// so a download is the call's only when the frame that began it is in the
// call's tab, or is a tab it opened (a target=_blank link to an attachment
// opens a tab that downloads and closes).
//
// A navigation in one of the tab's frames may turn into a download, which
// Chrome tells only once the response is in: a script's click on a link
// returns at once, and the download begins after the step. So Take also
// waits, a short while, for the navigations begun in the tab's frames to
// commit or to become downloads.

// Download states, as reported.
const (
	DownloadCompleted  = "completed"
	DownloadInProgress = "in-progress"
	DownloadCanceled   = "canceled"
)

// Download is one file a step downloaded. Field order is output order.
type Download struct {
	URL string `json:"url"`
	// Filename is the file's name in Path; for a download that is not
	// done, the name the server or page suggested.
	Filename string `json:"filename"`
	// Path is where the file is, or for one in progress where Chrome
	// will finish it (named by its download id); empty when unknown.
	Path string `json:"path,omitempty"`
	// Bytes is the file's size; for one not done, what had arrived.
	Bytes int64 `json:"bytes"`
	// TotalBytes is the expected size of a download in progress, when
	// the server said.
	TotalBytes int64  `json:"totalBytes,omitempty"`
	State      string `json:"state"`
}

// Budgets of the few calls a Take makes besides its wait, so that a step
// whose time ran out still reports its downloads.
const (
	downloadFlushBudget = time.Second
	downloadOwnerBudget = 2 * time.Second
	// navDownloadMax bounds the wait for a navigation to commit or become
	// a download; stoppedDownloadMax the wait for the download once the
	// frame stopped loading without a new document (Chrome says a
	// download began just after; a 204 or a canceled navigation never
	// does).
	navDownloadMax     = 2 * time.Second
	stoppedDownloadMax = 200 * time.Millisecond
)

// Downloads follows the downloads of one browser connection. Like
// Console, it queues events and folds them in when asked (Take); only a
// Relay's follower runs beside the call, delivering the keeper's.
type Downloads struct {
	conn *cdp.Conn
	// context is the browser context whose downloads are followed; empty
	// is the default one.
	context string
	dir     string
	temp    private.Temp
	l       *cdp.Listener
	// seen holds every download begun since the watch started, by guid.
	seen map[string]*download
	// openers maps each tab created since to the tab that opened it
	// (Target.targetCreated, heard while target discovery is on).
	openers map[string]string
	// owned caches, by tab and frame id, whether the frame is the tab's.
	owned map[string]bool
	// fresh are the tab's downloads begun since the last Take.
	fresh []*download
	// navs are the tab's frames whose navigation may yet become a
	// download, each with when to stop waiting for it.
	navs map[string]time.Time
	// newDocument: the tab's main frame committed a new document since
	// the step began, so its frames' loads are that page's, not
	// downloads to wait for.
	newDocument bool
	// stepAt is when the step began (Renew): navigations begun before
	// are not its own.
	stepAt time.Time
	// told: the watch told Chrome where to save downloads, and no step
	// has begun since.
	told bool
	// relay, when set, brings the browser's download events from another
	// connection, which holds the download settings (WatchRelayed).
	relay Relay
}

// Relay brings the browser's download events, heard on another
// connection to the browser (a keeper's, which holds the download
// settings), to the call's connection (cdp.Conn.Deliver): a tab's own
// websocket hears of none in the tabs the tab opens.
type Relay interface {
	// Renew sets the download settings again.
	Renew(ctx context.Context) error
	// Flush delivers every event Chrome sent before it.
	Flush(ctx context.Context) error
	Close()
}

type download struct {
	guid, url, suggested string
	ours                 bool
	state                string // Chrome's: inProgress, completed, canceled
	received, total      int64
	filePath             string // where Chrome says it put the finished file
	// path is where the finished file was moved; saveErr says why it
	// could not be.
	path    string
	saveErr error
}

// navEvents are the tabs' navigation events, which may become downloads.
var navEvents = []string{
	proto.EventPageFrameStartedNavigating, proto.EventPageFrameNavigated, proto.EventPageNavigatedWithinDocument,
	proto.EventPageFrameStoppedLoading, proto.EventPageFrameDetached,
}

// downloadEvents are the browser's download and target events and the
// tabs' navigation events.
var downloadEvents = append([]string{
	proto.EventBrowserDownloadWillBegin, proto.EventBrowserDownloadProgress, proto.EventTargetCreated,
}, navEvents...)

// WatchDownloads tells Chrome to save the downloads of browserContext
// (empty: the default context) into DownloadsDir, named by their download
// ids, and to report them on conn.
func (f Files) WatchDownloads(ctx context.Context, conn *cdp.Conn, browserContext string) (*Downloads, error) {
	dir, err := f.Abs(f.DownloadsDir())
	if err == nil {
		err = f.Temp.Dir(dir)
	}
	if err != nil {
		return nil, err
	}
	d := &Downloads{
		conn: conn, context: browserContext, dir: dir, temp: f.Temp,
		l:    conn.ListenAll(downloadEvents...),
		seen: map[string]*download{}, openers: map[string]string{}, owned: map[string]bool{},
		navs: map[string]time.Time{},
	}
	if err := d.tell(ctx); err != nil {
		d.Close()
		return nil, err
	}
	d.told = true
	return d, nil
}

// WatchRelayed follows the downloads r brings to conn; r's end holds the
// download settings, saving them in DownloadsDir.
func (f Files) WatchRelayed(conn *cdp.Conn, r Relay) (*Downloads, error) {
	dir, err := f.Abs(f.DownloadsDir())
	if err == nil {
		err = f.Temp.Dir(dir)
	}
	if err != nil {
		return nil, err
	}
	return &Downloads{
		conn: conn, dir: dir, temp: f.Temp, relay: r, told: true,
		l:    conn.ListenAll(downloadEvents...),
		seen: map[string]*download{}, openers: map[string]string{}, owned: map[string]bool{},
		navs: map[string]time.Time{},
	}, nil
}

// Renew tells Chrome again where to save downloads, in case another
// process's end sent it back to its default since: a step that is about
// to act sends its downloads here rather than through ~/Downloads. The
// first step after the watch began needs no telling again: the watch
// just did.
func (d *Downloads) Renew(ctx context.Context) error {
	d.newDocument, d.stepAt = false, time.Now()
	if d.told {
		d.told = false
		return nil
	}
	return d.tell(ctx)
}

func (d *Downloads) tell(ctx context.Context) error {
	if d.relay != nil {
		return d.relay.Renew(ctx)
	}
	return proto.BrowserSetDownloadBehavior{
		Behavior: "allowAndName", DownloadPath: d.dir, EventsEnabled: true, BrowserContextID: d.context,
	}.Do(ctx, d.conn.Browser())
}

// Conn is the connection the watch listens on.
func (d *Downloads) Conn() *cdp.Conn { return d.conn }

// Close stops listening. Chrome ends the download settings with the
// connection that set them.
func (d *Downloads) Close() {
	if d.relay != nil {
		d.relay.Close()
	}
	d.l.Close()
}

// Taken is what a Take found: the downloads and, for those that ended
// but not saved, what the agent should know.
type Taken struct {
	Downloads []Download
	Warnings  []string
}

// Take reports the downloads p's tab began since the last Take. It waits,
// until ctx ends, for them to finish, and moves each finished one to its
// name in DownloadsDir. One still in progress is left to Chrome, which
// finishes it under its download id after the call; it is not reported
// again.
func (d *Downloads) Take(ctx context.Context, p *page.Page) Taken {
	// A reply follows every event Chrome sent before it: after the flush,
	// the downloads begun so far are queued.
	fctx, cancel := xcontext.Detached(ctx, downloadFlushBudget)
	_, _ = proto.BrowserGetVersion{}.Do(fctx, d.conn.Browser())
	if d.relay != nil {
		_ = d.relay.Flush(fctx) // a relay gone only delays what it brings
	}
	cancel()
	for _, ev := range d.l.Drain() {
		d.apply(ctx, p, ev)
	}
	// Navigations that begin while Take waits are waited for too, but
	// never past navDownloadMax from now.
	navsEnd := time.Now().Add(navDownloadMax)
	for {
		wctx, cancel := d.waitFor(ctx, navsEnd)
		if wctx == nil {
			break
		}
		ev, err := d.l.Next(wctx)
		cancel()
		if err == nil {
			d.apply(ctx, p, ev)
		} else if ctx.Err() != nil || wctx.Err() == nil {
			break // the step's time is up, or the connection is gone
		}
	}
	if d.relay != nil {
		// The wait is given up: what the keeper heard last comes first.
		fctx, cancel := xcontext.Detached(ctx, downloadFlushBudget)
		_ = d.relay.Flush(fctx)
		cancel()
		for _, ev := range d.l.Drain() {
			d.apply(ctx, p, ev)
		}
	}
	clear(d.navs)
	var t Taken
	for _, dl := range d.fresh {
		r, w := d.report(dl)
		t.Downloads = append(t.Downloads, r)
		if w != "" {
			t.Warnings = append(t.Warnings, w)
		}
	}
	d.fresh = nil
	return t
}

// waitFor says how long Take waits for the next event: within ctx while
// a download of this Take is in progress, else until the last navigation
// that may become one has had its time, and never past navsEnd; nil when
// nothing is awaited.
func (d *Downloads) waitFor(ctx context.Context, navsEnd time.Time) (context.Context, context.CancelFunc) {
	for _, dl := range d.fresh {
		if dl.state == "inProgress" {
			return context.WithCancel(ctx)
		}
	}
	now := time.Now()
	if !now.Before(navsEnd) {
		return nil, nil
	}
	var last time.Time
	for frame, until := range d.navs {
		if now.After(until) {
			delete(d.navs, frame)
		} else if until.After(last) {
			last = until
		}
	}
	if last.IsZero() {
		return nil, nil
	}
	if last.After(navsEnd) {
		last = navsEnd
	}
	return context.WithDeadline(ctx, last)
}

// apply folds one event in: the browser's, or the navigation events of
// p's own session.
func (d *Downloads) apply(ctx context.Context, p *page.Page, ev cdp.Event) {
	if slices.Contains(navEvents, ev.Method) {
		if ev.SessionID == p.S.ID {
			d.applyNav(ev, p.S.TargetID)
		}
		return
	}
	if ev.SessionID != "" {
		return
	}
	switch ev.Method {
	case proto.EventTargetCreated:
		var e proto.TargetCreated
		if json.Unmarshal(ev.Params, &e) == nil && e.TargetInfo.OpenerID != "" {
			d.openers[e.TargetInfo.TargetID] = e.TargetInfo.OpenerID
		}
	case proto.EventBrowserDownloadWillBegin:
		var e proto.BrowserDownloadWillBegin
		if json.Unmarshal(ev.Params, &e) != nil || e.GUID == "" || d.seen[e.GUID] != nil {
			return
		}
		delete(d.navs, e.FrameID)
		dl := &download{guid: e.GUID, url: e.URL, suggested: e.SuggestedFilename, state: "inProgress"}
		d.seen[e.GUID] = dl
		if d.owns(ctx, p, e.FrameID) {
			dl.ours = true
			d.fresh = append(d.fresh, dl)
		}
	case proto.EventBrowserDownloadProgress:
		var e proto.BrowserDownloadProgress
		if json.Unmarshal(ev.Params, &e) != nil {
			return
		}
		dl := d.seen[e.GUID]
		if dl == nil || dl.state != "inProgress" {
			return // begun before the watch, or already over
		}
		dl.state, dl.received, dl.total, dl.filePath = e.State, int64(e.ReceivedBytes), int64(e.TotalBytes), e.FilePath
		if dl.ours && dl.state == "completed" && d.isFresh(dl) {
			d.save(dl)
		}
	}
}

// applyNav follows the navigations of the tab's frames that may become
// downloads; main is the tab's main frame.
func (d *Downloads) applyNav(ev cdp.Event, main string) {
	var e struct {
		FrameID        string `json:"frameId"`
		NavigationType string `json:"navigationType"`
		Frame          struct {
			ID       string `json:"id"`
			ParentID string `json:"parentId"`
		} `json:"frame"`
	}
	if json.Unmarshal(ev.Params, &e) != nil {
		return
	}
	switch ev.Method {
	case proto.EventPageFrameStartedNavigating:
		child := e.FrameID != main
		ours := !ev.At.Before(d.stepAt) && !(child && d.newDocument)
		if ours && e.NavigationType != "sameDocument" && e.NavigationType != "historySameDocument" {
			d.navs[e.FrameID] = ev.At.Add(navDownloadMax)
		}
	case proto.EventPageFrameStoppedLoading:
		if until, ok := d.navs[e.FrameID]; ok && until.After(ev.At.Add(stoppedDownloadMax)) {
			d.navs[e.FrameID] = ev.At.Add(stoppedDownloadMax)
		}
	case proto.EventPageFrameNavigated:
		delete(d.navs, e.Frame.ID)
		if e.Frame.ParentID == "" {
			d.newDocument = true
			clear(d.navs)
		}
	default: // within the document, or the frame is gone
		delete(d.navs, e.FrameID)
	}
}

func (d *Downloads) isFresh(dl *download) bool {
	for _, f := range d.fresh {
		if f == dl {
			return true
		}
	}
	return false
}

// owns tells whether frame, which began a download, is p's tab, a frame
// in it, or a tab it opened. Anything it cannot place is not the call's:
// another agent's download must never be claimed.
func (d *Downloads) owns(ctx context.Context, p *page.Page, frame string) bool {
	tab := p.S.TargetID
	if frame == tab || d.openers[frame] == tab {
		return true
	}
	key := tab + "/" + frame
	if v, ok := d.owned[key]; ok {
		return v
	}
	ctx, cancel := xcontext.Detached(ctx, downloadOwnerBudget)
	defer cancel()
	var mine bool
	info, err := proto.TargetGetTargetInfo{TargetID: frame}.Do(ctx, d.conn.Browser())
	if err == nil && info.TargetInfo.Type == "page" {
		mine = info.TargetInfo.OpenerID == tab
	} else {
		_, err = p.FindFrame(ctx, frame)
		mine = err == nil
	}
	d.owned[key] = mine
	return mine
}

// save moves a finished download to its name in the downloads directory.
func (d *Downloads) save(dl *download) {
	src := dl.filePath
	if src == "" {
		src = filepath.Join(d.dir, dl.guid)
	}
	dst, err := moveUnique(d.temp, src, d.dir, FileName(dl.suggested))
	if err != nil {
		dl.saveErr = err
		return
	}
	dl.path = dst
	if fi, err := os.Stat(dst); err == nil {
		dl.received = fi.Size()
	}
}

// report renders dl, with a warning when it ended but not saved. One in
// progress has the path Chrome will finish it at, when the part it wrote
// is there: another agent may have sent it elsewhere.
func (d *Downloads) report(dl *download) (Download, string) {
	r := Download{URL: dl.url, Filename: FileName(dl.suggested), Bytes: dl.received}
	switch dl.state {
	case "completed":
		r.State = DownloadCompleted
		if dl.path != "" {
			r.Path, r.Filename = dl.path, filepath.Base(dl.path)
			return r, ""
		}
		w := fmt.Sprintf("download %q finished but could not be moved into %s: %v", r.Filename, d.dir, dl.saveErr)
		if src := dl.filePath; src != "" {
			if _, err := os.Stat(src); err == nil {
				r.Path = src
				w += "; it is at " + src
			}
		}
		return r, w
	case "canceled":
		r.State = DownloadCanceled
		return r, fmt.Sprintf("download %q did not finish: Chrome canceled it after %d bytes (the connection broke, or the download was refused)", r.Filename, dl.received)
	}
	r.State, r.TotalBytes = DownloadInProgress, dl.total
	if p := filepath.Join(d.dir, dl.guid); exists(p) || exists(p+".crdownload") {
		r.Path = p
	}
	return r, ""
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// FileName makes a suggested file name safe to use as one: no directory
// separators or control characters, never empty, "." or "..".
func FileName(suggested string) string {
	name := strings.TrimSpace(strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r < 0x20 || r == 0x7f {
			return '_'
		}
		return r
	}, suggested))
	if name == "" || name == "." || name == ".." {
		return "download"
	}
	return name
}

// numbered is the n-th name tried for name: name itself, then
// "name (1).ext", "name (2).ext"… keeping a .tar.* extension whole.
func numbered(name string, n int) string {
	if n == 0 {
		return name
	}
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	if inner := filepath.Ext(stem); strings.EqualFold(inner, ".tar") {
		stem, ext = strings.TrimSuffix(stem, inner), inner+ext
	}
	if stem == "" { // ".env"
		stem, ext = name, ""
	}
	return fmt.Sprintf("%s (%d)%s", stem, n, ext)
}

// maxNumbered bounds the search for a free name.
const maxNumbered = 10000

// moveUnique moves src into dir under name, or the first numbered form of
// it that no file has, and returns the new path. It never overwrites: the
// name is claimed by creating the file exclusively, and src then replaces
// that empty claim, by a rename, or by a copy when src is on another
// file system.
func moveUnique(t private.Temp, src, dir, name string) (string, error) {
	if _, err := os.Stat(src); err != nil {
		return "", err
	}
	for n := 0; n < maxNumbered; n++ {
		dst := filepath.Join(dir, numbered(name, n))
		f, err := t.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		f.Close()
		if err := os.Rename(src, dst); err == nil {
			// Chrome made the file with its own mode; the 0700 directory
			// already keeps it private, so a failed chmod costs nothing.
			_ = os.Chmod(dst, 0o600)
			return dst, nil
		}
		if err := copyOver(t, src, dst); err != nil {
			os.Remove(dst)
			return "", err
		}
		os.Remove(src)
		return dst, nil
	}
	return "", fmt.Errorf("no free name for %s in %s", name, dir)
}

// copyOver copies src's content into dst, which exists.
func copyOver(t private.Temp, src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := t.OpenFile(dst, os.O_WRONLY|os.O_TRUNC)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
