package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cdpskill/cdpskill/capture"
	"github.com/cdpskill/cdpskill/chrome"
	"github.com/cdpskill/cdpskill/keeper"
)

// recordSteps record what a tab does across calls: a performance trace,
// a video. The browser's keeper holds the recording between calls
// (keeper/record.go).
var recordSteps = []step{
	defineFiles("record", `{trace: "t.json"|true, video: "v.gif"|true} | "stop"`,
		`a trace, a GIF; across calls`,
		needsTab, decodeRecord, runRecord).
		out(`{recording, trace?, video?, limit} | {trace?, video?: {path, size, seconds, frames?}}`).
		also(`{"record":{"trace":"trace.json"}}`, "trace", "tracing", "startTracing", "performance", "startRecording").
		also(`{"record":{"video":"video.gif"}}`, "video", "recordVideo", "screencast", "startScreencast").
		also(`{"record":"stop"}`, "stopTracing", "stopRecording", "stopScreencast", "endTrace"),
}

// recordParams start a recording (Trace, Video) or stop the tab's.
type recordParams struct {
	Trace json.RawMessage `json:"trace"`
	Video json.RawMessage `json:"video"`

	stop bool
	// trace and video are where they go, absolute; auto (true) picks a
	// path in the per-tab directory when the step runs.
	trace, video recordPath
}

// recordPath is a file to record into: a path, or one to pick.
type recordPath struct {
	path string
	auto bool
}

func (r recordPath) wanted() bool { return r.auto || r.path != "" }

const recordForms = `{"record":{"trace":"trace.json"}}, {"record":{"video":"video.gif"}}, both, or {"record":"stop"}`

func decodeRecord(raw json.RawMessage, files capture.Files) (recordParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *recordParams) error {
		if s, ok := asString(raw); ok && s == "stop" {
			p.stop = true
			return nil
		}
		return paramErrorf("takes %s", recordForms)
	})
	if err != nil || p.stop {
		return p, err
	}
	if p.trace, err = decodeRecordPath(files, "trace", p.Trace, ".json"); err != nil {
		return p, err
	}
	if p.video, err = decodeRecordPath(files, "video", p.Video, ".gif"); err != nil {
		return p, err
	}
	if !p.trace.wanted() && !p.video.wanted() {
		return p, paramErrorf("say what to record: %s", recordForms)
	}
	return p, nil
}

// decodeRecordPath reads "trace" or "video": a path, true for one in the
// per-tab directory, false or nothing for none. ext is the one format
// written.
func decodeRecordPath(files capture.Files, name string, raw json.RawMessage, ext string) (recordPath, error) {
	if len(raw) == 0 {
		return recordPath{}, nil
	}
	if b, ok := asBool(raw); ok {
		return recordPath{auto: b}, nil
	}
	s, ok := asString(raw)
	if !ok || s == "" {
		return recordPath{}, paramErrorf(`%q is a file's path or true, got %s`, name, jsonKind(raw))
	}
	if got := strings.ToLower(filepath.Ext(s)); got != "" && got != ext {
		what := "Chrome's JSON trace, which DevTools and Perfetto open"
		if name == "video" {
			what = "an animated GIF, which browsers and image viewers play"
		}
		return recordPath{}, paramErrorf(`the %s is %s: name it %s, not %s`, name, what, ext, got)
	}
	err := resolveOutputPath(files, &s, ext)
	return recordPath{path: s}, err
}

func runRecord(ctx context.Context, e *env, p recordParams) (output, error) {
	if p.stop {
		out, err := e.stopRecording(ctx, e.tab.Browser.Endpoint, e.alias(), e.tab.Session.TargetID)
		if errors.Is(err, keeper.ErrNotRecording) {
			return output{}, newError(Execution, `tab %s is not recording: start one with {"record":{"trace":"trace.json"}} or {"record":{"video":"video.gif"}}`, e.alias())
		}
		return out, err
	}
	if e.keep == nil || e.keep.Exe == nil {
		// A recording that ended with the call would give the agent no
		// trace of what a later call did, and no word until the stop.
		return output{}, newError(Execution, "record needs cdpskill's keeper, which holds the recording between calls, and this process cannot start one")
	}
	target, dir := e.tab.Session.TargetID, e.recordingDir(e.alias())
	if started, what, ok := e.keep.Recording(dir, target); ok {
		return output{}, newError(Execution, `tab %s has a recording (%s) from %s that was not stopped: stop it first with {"record":"stop"}`,
			e.alias(), strings.Join(what, ", "), started.Local().Format("15:04:05"))
	}
	spec := keeper.RecordSpec{Trace: p.trace.path, Video: p.video.path, Dir: dir, Label: e.label()}
	if p.trace.auto {
		spec.Trace = e.files.NextPath(e.alias(), "trace", "json")
	}
	if p.video.auto {
		spec.Video = e.files.NextPath(e.alias(), "video", "gif")
	}
	note, err := e.keep.Record(ctx, e.tab.Browser.Endpoint, e.files.Session, target, spec)
	if note != "" {
		e.warn("%s", note)
	}
	if err != nil {
		return output{}, newError(Execution, "could not start recording: %v", err)
	}
	out := recordingOutput{Trace: spec.Trace, Video: spec.Video, Limit: keeper.Duration(keeper.RecordLimit)}
	if spec.Trace != "" {
		out.Recording = append(out.Recording, "trace")
	}
	if spec.Video != "" {
		out.Recording = append(out.Recording, "video")
	}
	return output{value: out}, nil
}

// recordingOutput is what a recording that started records, and where.
type recordingOutput struct {
	Recording []string `json:"recording"`
	Trace     string   `json:"trace,omitempty"`
	Video     string   `json:"video,omitempty"`
	Limit     string   `json:"limit"`
}

// recordedOutput is what a recording left; what it could not keep is the
// step's warning.
type recordedOutput struct {
	Trace *keeper.RecordedFile `json:"trace,omitempty"`
	Video *keeper.RecordedFile `json:"video,omitempty"`
}

// stopRecording ends the recording of target, the tab alias of the
// browser at ep, and writes its files.
func (e *env) stopRecording(ctx context.Context, ep chrome.Endpoint, alias, target string) (output, error) {
	k := e.keep
	if k == nil { // a recording's files are there to read all the same
		k = &keeper.Client{Temp: e.files.Temp}
	}
	rec, err := k.StopRecording(ctx, ep, e.files.Session, target, e.recordingDir(alias))
	if err != nil {
		return output{}, err
	}
	out := output{warning: rec.StepWarning()}
	if rec.Trace != nil || rec.Video != nil {
		out.value = recordedOutput{Trace: rec.Trace, Video: rec.Video}
	}
	return out, nil
}

// recordingLeft says what the recording of tab alias left, when it ended
// on its own and no stop told it: a tab that closed has no call that
// could stop it.
func (c *Call) recordingLeft(alias string) string {
	rec := keeper.TakeEnded(c.files.Temp, c.files.TabFile(alias, ".recording"))
	if rec == nil {
		return ""
	}
	var told []string
	for _, f := range []*keeper.RecordedFile{rec.Trace, rec.Video} {
		if f != nil {
			told = append(told, fmt.Sprintf("%s (%d bytes, %gs)", f.Path, f.Size, f.Seconds))
		}
	}
	if len(told) > 0 {
		told[0] = "wrote " + told[0]
	}
	return "its recording " + strings.Join(append(told, rec.Notes...), "; ")
}

// recordingDir is the directory of tab alias's recording.
func (e *env) recordingDir(alias string) string { return e.files.TabFile(alias, ".recording") }

// label names the call's tab for the keeper's status: its alias, a
// session's as session/alias.
func (e *env) label() string {
	if e.files.Session != "" {
		return e.files.Session + "/" + e.alias()
	}
	return e.alias()
}
