package keeper

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/chrome"
	"github.com/cdpskill/cdpskill/internal/private"
)

// A call's side of a recording: it asks the keeper to start one and to
// stop it, and reads from the recording's directory what the keeper did
// not answer: a recording that ended on its own, or whose keeper died.

// ErrNotRecording is a stop for a tab that has no recording.
var ErrNotRecording = errors.New("the tab has no recording")

// Record asks the keeper of the browser at ep to record target as spec
// says, starting one if none runs. session is the call's.
func (c *Client) Record(ctx context.Context, ep chrome.Endpoint, session, target string, spec RecordSpec) (note string, err error) {
	if c == nil || c.Exe == nil {
		return "", errNoExe
	}
	rep, _, note, _, err := c.do(ctx, ep, request{Op: "record", Session: session, Target: target, Record: &spec}, true)
	if err != nil {
		return note, err
	}
	if f := rep.Failure; f != nil {
		return note, errors.New(f.Message)
	}
	return note, nil
}

// Recording is when the recording of target, whose directory is dir,
// began, and what it records; ok is false when target has none running
// or left to stop.
func (c *Client) Recording(dir, target string) (started time.Time, what []string, ok bool) {
	st, ok := readState(c.Temp, dir)
	if !ok || st.Target != target {
		return time.Time{}, nil, false
	}
	return st.Started, st.what(), true
}

// StopRecording ends target's recording, whose directory is dir, and
// returns what it left: the keeper's that holds it writes its files. One
// that ended on its own says so; one whose keeper is gone leaves its
// video, from the frames that keeper kept, and no trace. The directory
// goes once told.
func (c *Client) StopRecording(ctx context.Context, ep chrome.Endpoint, session, target, dir string) (*Recorded, error) {
	st, ok := readState(c.Temp, dir)
	if !ok || st.Target != target {
		return nil, ErrNotRecording
	}
	if rec, ok := readRecord(c.Temp, Dir(c.Temp, ep)); ok && rec.Version == protocol {
		wait := stopWait(ctx)
		req := request{Version: protocol, Op: "record", Session: session, Target: target,
			Record: &RecordSpec{Stop: true, Dir: dir, Wait: int(wait.Milliseconds())}}
		rep, err := askWithin(ctx, rec, req, wait+askWait)
		switch {
		case err == nil && rep.Recorded != nil:
			_ = os.RemoveAll(dir)
			return rep.Recorded, nil
		case ctx.Err() != nil:
			return nil, fmt.Errorf("cdpskill's keeper was still writing the recording when the step's time ran out: "+
				"its files will be at %s (give the stop step a longer \"timeout\")", strings.Join(st.paths(), " and "))
		}
	}
	if now, ok := readState(c.Temp, dir); ok && now.Result != nil { // it ended on its own
		_ = os.RemoveAll(dir)
		return now.Result, nil
	}
	res, err := salvage(ctx, c.Temp, dir, st, logPath(Dir(c.Temp, ep)))
	if err == nil {
		_ = os.RemoveAll(dir)
	}
	return res, err
}

// TakeEnded is what the recording whose directory is dir left, when it
// ended on its own (its tab closed) and no stop told it; the directory
// goes, as it is told once.
func TakeEnded(temp private.Temp, dir string) *Recorded {
	st, ok := readState(temp, dir)
	if !ok || st.Result == nil {
		return nil
	}
	_ = os.RemoveAll(dir)
	return st.Result
}

func (st recordState) paths() []string {
	return slices.DeleteFunc([]string{st.Trace, st.Video}, func(p string) bool { return p == "" })
}

// stopWait is how long a stop may take to write the files: the step's
// time, but a moment to answer in.
func stopWait(ctx context.Context) time.Duration {
	wait := 30 * time.Second
	if dl, ok := ctx.Deadline(); ok {
		wait = time.Until(dl) - 500*time.Millisecond
	}
	return max(wait, time.Second)
}

// salvage is what is left of a recording whose keeper is gone: the video
// of the frames it kept, no trace.
func salvage(ctx context.Context, temp private.Temp, dir string, st recordState, log string) (*Recorded, error) {
	why := fmt.Sprintf("cdpskill's keeper that held the recording (pid %d) stopped before it ended (its log: %s)", st.PID, log)
	res := &Recorded{}
	if st.Trace != "" {
		res.Notes = append(res.Notes, why+": the trace was lost with it, as Chrome keeps a trace only for the session that started it")
	}
	if st.Video != "" {
		v, notes, err := writeVideo(ctx, temp, dir, st.Video, time.Time{})
		if err != nil {
			return nil, err
		}
		res.Video = v
		if v != nil {
			notes = append(notes, why+": the video ends at its last frame")
		}
		res.Notes = append(res.Notes, notes...)
	}
	return res, nil
}
