package keeper

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/private"
)

// A recording is a tab's performance trace, a video of what it shows, or
// both: one call's record step starts it, a later call's stop ends it and
// writes its files. Chrome keeps a trace and a screencast only for the
// session that started them, and a call's session ends with the call, so
// the keeper starts them on a session of its own and holds them between
// calls; while one runs the keeper stays. The tab's recording directory
// (RecordSpec.Dir) holds recording.json, what was asked and, once it
// ended, what it left, and the video's frames as they come (video.go):
// a recording that ended on its own (its limit, its tab closed, its
// keeper exited) is told to the call that stops it, and one whose keeper
// died still leaves its video.

// RecordLimit is how long a recording runs at most: it ends then, and
// its files are written.
const RecordLimit = 10 * time.Minute

// recordLimit is RecordLimit, but in tests of a keeper in their process.
var recordLimit = RecordLimit

// RecordSpec is a call's record request: start recording a tab, or Stop.
type RecordSpec struct {
	Stop bool `json:"stop,omitempty"`
	// Trace and Video are where the trace and the video go, absolute;
	// "" records none.
	Trace string `json:"trace,omitempty"`
	Video string `json:"video,omitempty"`
	// Dir is the tab's recording directory.
	Dir string `json:"dir"`
	// Label names the tab for chromeStatus: its alias, a session's as
	// session/alias.
	Label string `json:"label,omitempty"`
	// Wait is how long, in ms, a stop may take to write the files.
	Wait int `json:"wait,omitempty"`
}

// Recorded is what a recording left: its files, and what it could not
// keep, and why.
type Recorded struct {
	Trace *RecordedFile `json:"trace,omitempty"`
	Video *RecordedFile `json:"video,omitempty"`
	Notes []string      `json:"notes,omitempty"`
}

// StepWarning is what the agent is told beside the files.
func (r *Recorded) StepWarning() string { return strings.Join(r.Notes, "; ") }

// RecordedFile is a file a recording wrote.
type RecordedFile struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
	// Seconds is how long it covers.
	Seconds float64 `json:"seconds"`
	// Frames is how many frames the video shows.
	Frames int `json:"frames,omitempty"`
}

// recordState is recording.json: the recording asked for, and once it
// ended, what it left.
type recordState struct {
	Target  string    `json:"target"`
	Label   string    `json:"label,omitempty"`
	Started time.Time `json:"started"`
	Trace   string    `json:"trace,omitempty"`
	Video   string    `json:"video,omitempty"`
	// PID is the keeper's that holds it.
	PID    int       `json:"pid"`
	Result *Recorded `json:"result,omitempty"`
}

func statePath(dir string) string { return filepath.Join(dir, "recording.json") }

func readState(temp private.Temp, dir string) (recordState, bool) {
	data, err := temp.ReadFile(statePath(dir), 1<<16)
	var st recordState
	if err != nil || json.Unmarshal(data, &st) != nil || st.Target == "" {
		return recordState{}, false
	}
	return st, true
}

func writeState(temp private.Temp, dir string, st recordState) error {
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return temp.WriteFile(statePath(dir), data)
}

// what names what the recording records.
func (st recordState) what() []string {
	var what []string
	if st.Trace != "" {
		what = append(what, "trace")
	}
	if st.Video != "" {
		what = append(what, "video")
	}
	return what
}

// --- the keeper's side

// recorder holds the keeper's recordings; it has its own lock, as a stop
// writes files for a while, and holds up no other request.
type recorder struct {
	k  *keeper
	mu sync.Mutex
	// tabs are the recordings by target id; nil while one starts.
	tabs map[string]*recording
}

func newRecorder(k *keeper) *recorder { return &recorder{k: k, tabs: map[string]*recording{}} }

// running tells whether a recording runs, or starts.
func (r *recorder) running() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.tabs) > 0
}

// labels name the recordings for chromeStatus.
func (r *recorder) labels() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, rec := range r.tabs {
		if rec != nil {
			out = append(out, fmt.Sprintf("%s (%s since %s)", rec.st.Label, strings.Join(rec.st.what(), ", "),
				rec.st.Started.Local().Format(time.TimeOnly)))
		}
	}
	slices.Sort(out)
	return out
}

// answer answers a call's record request.
func (r *recorder) answer(ctx context.Context, req request) reply {
	spec := req.Record
	if spec == nil || req.Target == "" || spec.Dir == "" {
		return reply{Failure: &Failure{Message: "keeper: a record request names a tab and its directory"}}
	}
	if spec.Stop {
		return r.stop(ctx, req.Target, time.Duration(spec.Wait)*time.Millisecond)
	}
	// Within a hold's time from the request, the wait for the keeper's
	// lock included: a call that waits past askWait takes it for hung.
	bctx, cancel := context.WithDeadline(ctx, time.Now().Add(holdWait))
	defer cancel()
	if f := r.reserve(req.Target, spec); f != nil {
		return reply{Failure: f}
	}
	rec, err := r.begin(bctx, req.Target, req.Session, *spec)
	r.mu.Lock()
	if err != nil {
		delete(r.tabs, req.Target)
	} else {
		r.tabs[req.Target] = rec
	}
	r.mu.Unlock()
	if err != nil {
		r.k.log.Printf("tab %s: cannot record: %v", spec.Label, err)
		return reply{Failure: failure(err)}
	}
	r.k.log.Printf("records tab %s (%s)", spec.Label, strings.Join(rec.st.what(), ", "))
	return reply{}
}

// reserve holds target's place for a recording, unless it records, or
// Chrome's one trace is taken, or the keeper is exiting: a tick that
// found nothing to hold made it so, and its successor records.
func (r *recorder) reserve(target string, spec *RecordSpec) *Failure {
	r.k.mu.Lock()
	defer r.k.mu.Unlock()
	if r.k.exiting {
		return &Failure{Message: "keeper: exiting", Exiting: true}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if rec, ok := r.tabs[target]; ok {
		if rec == nil {
			return &Failure{Message: "a recording of this tab is starting"}
		}
		return &Failure{Message: fmt.Sprintf(`the tab has been recording (%s) since %s: stop it first with {"record":"stop"}`,
			strings.Join(rec.st.what(), ", "), rec.st.Started.Local().Format(time.TimeOnly))}
	}
	for _, rec := range r.tabs {
		if spec.Trace != "" && rec != nil && rec.st.Trace != "" {
			return &Failure{Message: fmt.Sprintf(`Chrome records one trace at a time, and tab %s is recording one: `+
				`stop it first ({"tab":%q,"steps":[{"record":"stop"}]}), or record only the video here`, rec.st.Label, alias(rec.st.Label))}
		}
	}
	r.tabs[target] = nil
	return nil
}

// alias is a label's alias, a session's aside.
func alias(label string) string { return label[strings.LastIndexByte(label, '/')+1:] }

// stop ends target's recording and answers what it left; none when the
// keeper holds none there (it ended on its own, or another keeper held
// it).
func (r *recorder) stop(ctx context.Context, target string, wait time.Duration) reply {
	r.mu.Lock()
	rec := r.tabs[target]
	r.mu.Unlock()
	if rec == nil {
		return reply{}
	}
	sctx, cancel := context.WithTimeout(ctx, max(wait, time.Second))
	defer cancel()
	return reply{Recorded: rec.end(sctx, "")}
}

// endAll ends every recording as the keeper exits, why, and writes what
// it can.
func (r *recorder) endAll(why string) {
	r.mu.Lock()
	var recs []*recording
	for _, rec := range r.tabs {
		if rec != nil {
			recs = append(recs, rec)
		}
	}
	r.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for _, rec := range recs {
		wg.Go(func() { rec.end(ctx, "cdpskill's keeper exited ("+why+")") })
	}
	wg.Wait()
}

// recording is one tab's, on the keeper's own session to it.
type recording struct {
	r       *recorder
	st      recordState
	dir     string
	session string // the call's session, whose idle clock an end restarts
	s       *cdp.Session
	// trace is the trace under way; frames keeps the video's frames.
	trace  *capture.Trace
	frames *frameKeeper
	// quit ends the frame loop, which closes framed once it kept the
	// last; gone is closed when the tab or Chrome went away.
	quit   context.CancelFunc
	framed chan struct{}
	gone   chan struct{}
	// goneWith is what went, the tab or Chrome.
	goneWith string

	once   sync.Once
	done   chan struct{}
	result *Recorded
}

// begin starts recording target as spec says, on a session of its own.
func (r *recorder) begin(bctx context.Context, target, session string, spec RecordSpec) (*recording, error) {
	conn := r.k.browser.Conn
	info, err := proto.TargetGetTargetInfo{TargetID: target}.Do(bctx, conn.Browser())
	if err != nil || info.TargetInfo.Type != "page" {
		return nil, errors.New("keeper: the tab is not among its browser's tabs")
	}
	temp := r.k.cfg.Temp
	_ = os.RemoveAll(framesDir(spec.Dir)) // a recording before, whose stop never came
	if err := temp.Dir(framesDir(spec.Dir)); err != nil {
		return nil, err
	}
	s, err := proto.Attach(bctx, conn, target)
	if err != nil {
		return nil, err
	}
	rec := &recording{r: r, dir: spec.Dir, session: session, s: s, framed: make(chan struct{}), gone: make(chan struct{}), done: make(chan struct{}),
		st: recordState{Target: target, Label: spec.Label, Started: time.Now(), Trace: spec.Trace, Video: spec.Video, PID: os.Getpid()}}
	if err := rec.startAll(bctx); err != nil {
		_ = proto.Detach(context.WithoutCancel(bctx), s)
		return nil, err
	}
	go rec.watch()
	return rec, nil
}

// startAll starts the trace and the screencast, and records that it did.
func (rec *recording) startAll(ctx context.Context) error {
	if rec.st.Trace != "" {
		var err error
		if rec.trace, err = capture.StartTrace(ctx, rec.s); err != nil {
			return err
		}
	}
	fctx, quit := context.WithCancel(context.Background())
	rec.quit = quit
	if rec.st.Video == "" {
		close(rec.framed)
	} else {
		rec.frames = &frameKeeper{temp: rec.r.k.cfg.Temp, dir: framesDir(rec.dir), start: rec.st.Started}
		l := rec.s.Listen(proto.EventPageScreencastFrame)
		err := proto.PageStartScreencast{Format: "jpeg", Quality: 70, MaxWidth: 800, MaxHeight: 800, EveryNthFrame: 1}.Do(ctx, rec.s)
		if err != nil {
			l.Close()
			quit()
			rec.endTrace(ctx)
			return err
		}
		go rec.keepFrames(fctx, l)
	}
	if err := writeState(rec.r.k.cfg.Temp, rec.dir, rec.st); err != nil {
		quit()
		rec.endTrace(ctx)
		return err
	}
	return nil
}

// endTrace ends a trace no one will read.
func (rec *recording) endTrace(ctx context.Context) {
	if rec.trace != nil {
		rec.trace.Abandon(ctx)
	}
}

// keepFrames acknowledges and keeps the screencast's frames until quit,
// and then those Chrome sent before it stopped.
func (rec *recording) keepFrames(ctx context.Context, l *cdp.Listener) {
	defer close(rec.framed)
	defer l.Close()
	for {
		ev, err := l.Next(ctx) // what is queued comes first, quit or not
		if err != nil {
			break
		}
		var f proto.PageScreencastFrame
		if json.Unmarshal(ev.Params, &f) != nil {
			continue
		}
		actx, cancel := context.WithTimeout(context.Background(), time.Second)
		_ = proto.PageScreencastFrameAck{SessionID: f.SessionID}.Do(actx, rec.s)
		cancel()
		ms := int64(f.Metadata.Timestamp * 1000)
		if ms <= 0 {
			ms = ev.At.UnixMilli()
		}
		rec.frames.add(f.Data, ms)
	}
	rec.frames.flush()
}

// watch ends the recording on its own: at its limit, or when its tab or
// Chrome goes.
func (rec *recording) watch() {
	conn := rec.s.Conn()
	detached := conn.Listen("", proto.EventTargetDetachedFrom)
	defer detached.Close()
	lctx, stop := context.WithCancel(context.Background())
	defer stop()
	gone := make(chan struct{})
	go func() {
		for {
			ev, err := detached.Next(lctx)
			if err != nil {
				return // the connection closed (conn.Done says so), or the watch ended
			}
			if gjson.GetBytes(ev.Params, "sessionId").String() == rec.s.ID {
				close(gone)
				return
			}
		}
	}()
	limit := time.NewTimer(recordLimit)
	defer limit.Stop()
	var why string
	select {
	case <-rec.done:
		return
	case <-limit.C:
		why = fmt.Sprintf("it reached its limit of %s", Duration(recordLimit))
	case <-gone:
		why = fmt.Sprintf("the tab closed at %s", time.Now().Local().Format(time.TimeOnly))
		rec.goneWith = "the tab"
		close(rec.gone)
	case <-conn.Done():
		why = fmt.Sprintf("Chrome went away at %s", time.Now().Local().Format(time.TimeOnly))
		rec.goneWith = "Chrome"
		close(rec.gone)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rec.end(ctx, why)
	rec.r.k.visited(request{Session: rec.session}) // the idle clocks count from its end
}

// end ends the recording, once, and writes its files; why says why it
// ended on its own, "" for a call's stop.
func (rec *recording) end(ctx context.Context, why string) *Recorded {
	rec.once.Do(func() {
		rec.result = rec.finish(ctx, why)
		close(rec.done)
	})
	return rec.result
}

func (rec *recording) finish(ctx context.Context, why string) *Recorded {
	ended := time.Now()
	res := &Recorded{}
	if why != "" {
		res.Notes = append(res.Notes, "the recording ended before its stop: "+why)
	}
	alive := func() bool {
		select {
		case <-rec.gone:
			return false
		default:
			return true
		}
	}
	cctx, cancel := context.WithTimeout(ctx, holdWait)
	defer cancel()
	if rec.st.Video != "" && alive() {
		_ = proto.PageStopScreencast{}.Do(cctx, rec.s) // its reply follows the frames it sent
	}
	rec.quit()
	<-rec.framed
	if rec.st.Trace != "" {
		if alive() {
			f, notes := rec.saveTrace(ctx, ended)
			res.Trace, res.Notes = f, append(res.Notes, notes...)
		} else {
			res.Notes = append(res.Notes, "the trace went with "+rec.goneWith+": Chrome keeps a trace only for the session that started it")
		}
	}
	if alive() { // in its own time: the stop's may be spent
		dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		_ = proto.Detach(dctx, rec.s)
		cancel()
	}
	if rec.st.Video != "" {
		res.Video, res.Notes = rec.saveVideo(ctx, ended, res.Notes)
	}
	rec.st.Result = res
	if err := writeState(rec.r.k.cfg.Temp, rec.dir, rec.st); err != nil {
		rec.r.k.log.Printf("tab %s: %v", rec.st.Label, err)
	}
	rec.r.mu.Lock()
	delete(rec.r.tabs, rec.st.Target)
	rec.r.mu.Unlock()
	if why == "" {
		why = "asked"
	}
	rec.r.k.log.Printf("stopped recording tab %s (%s)", rec.st.Label, why)
	return res
}

// saveVideo writes the video of the frames kept, adding to notes what
// was cut, and lets the frames go.
func (rec *recording) saveVideo(ctx context.Context, ended time.Time, notes []string) (*RecordedFile, []string) {
	if rec.frames.cut != "" {
		notes = append(notes, rec.frames.cut)
	}
	if err := rec.frames.err; err != nil {
		notes = append(notes, fmt.Sprintf("the video stops at its last frame kept: %v", err))
	}
	v, more, err := writeVideo(ctx, rec.r.k.cfg.Temp, rec.dir, rec.st.Video, ended)
	if err != nil {
		more = append(more, fmt.Sprintf("the video could not be written: %v", err))
	}
	_ = os.RemoveAll(framesDir(rec.dir))
	return v, append(notes, more...)
}

// saveTrace ends the trace and streams it from Chrome into its file.
func (rec *recording) saveTrace(ctx context.Context, ended time.Time) (*RecordedFile, []string) {
	saved, err := rec.trace.Save(ctx, rec.r.k.cfg.Temp, rec.st.Trace)
	if err != nil {
		return nil, []string{err.Error()}
	}
	var notes []string
	if saved.Full {
		notes = append(notes, fmt.Sprintf("Chrome's trace buffer (%d MB) filled, so the trace misses what came after", capture.TraceBufferKB>>10))
	}
	fi, err := os.Stat(rec.st.Trace)
	if err != nil {
		return nil, append(notes, fmt.Sprintf("the trace: %v", err))
	}
	secs := roundSeconds(ended.Sub(rec.st.Started).Seconds())
	return &RecordedFile{Path: rec.st.Trace, Size: fi.Size(), Seconds: secs}, notes
}
