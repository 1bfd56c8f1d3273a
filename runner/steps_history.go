package runner

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cdpskill/cdpskill/capture"
)

// historySteps read and keep the tab's history: each earlier call's
// screenshot and full snapshot, and what the call did (history.go).
var historySteps = []step{
	define("history", `true | {limit (10)}`,
		"",
		needsTab, decodeHistoryList, runHistory).out(`{total, dir?, calls?: [{n, at, url, summary, error?, screenshot?, snapshot?}]}`).
		also(`{"history":true}`, "screenshots", "listScreenshots", "artifacts", "listArtifacts"),
	defineFiles("keepArtifacts", `"dir" | {dir}`,
		"",
		needsTab, decodeKeepArtifacts, runKeepArtifacts).out(`{dir, calls, files, bytes}`).
		also(`{"keepArtifacts":"…"}`, "saveArtifacts", "keepScreenshots", "exportArtifacts"),
}

// historyListed is how many calls history lists unless told.
const historyListed = 10

// --- history

type historyListParams struct {
	Limit int `json:"limit"`
}

func decodeHistoryList(raw json.RawMessage) (historyListParams, error) {
	p, err := decodeInto(raw, trueOnly[historyListParams])
	if err == nil && p.Limit < 0 {
		err = paramErrorf(`"limit" must be positive`)
	}
	return p, err
}

// historyOutput lists the newest calls of the tab's history; their files
// are named in dir, given once.
type historyOutput struct {
	Total int                    `json:"total"`
	Dir   string                 `json:"dir,omitempty"`
	Calls []capture.HistoryEntry `json:"calls,omitempty"`
}

func runHistory(_ context.Context, e *env, p historyListParams) (output, error) {
	entries, err := e.files.ReadHistory(e.alias())
	if err != nil {
		return output{}, err
	}
	out := historyOutput{Total: len(entries)}
	if len(entries) == 0 {
		return output{value: out}, nil
	}
	limit := p.Limit
	if limit == 0 {
		limit = historyListed
	}
	out.Dir = e.files.HistoryDir(e.alias())
	out.Calls = entries[max(0, len(entries)-limit):]
	for i := range out.Calls {
		out.Calls[i].Bytes = 0 // the bound's, not the agent's
	}
	return output{value: out}, nil
}

// --- keepArtifacts

type keepArtifactsParams struct {
	Dir string `json:"dir"`
}

// decodeKeepArtifacts takes the directory from the working directory, a
// bare name too: what is kept is taken out of the temp directory, not
// put beside the tab's files as a bare screenshot name is.
func decodeKeepArtifacts(raw json.RawMessage, files capture.Files) (keepArtifactsParams, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *keepArtifactsParams) error {
		if s, ok := asString(raw); ok {
			p.Dir = s
			return nil
		}
		return paramErrorf(`expected a directory such as "./evidence" or {dir}, got %s`, jsonKind(raw))
	})
	if err != nil {
		return p, err
	}
	if p.Dir == "" {
		return p, paramErrorf(`name the directory to copy the tab's history into, e.g. {"keepArtifacts":"./evidence"}`)
	}
	if p.Dir, err = files.Abs(p.Dir); err != nil {
		return p, paramErrorf("%v", err)
	}
	return p, nil
}

func runKeepArtifacts(_ context.Context, e *env, p keepArtifactsParams) (output, error) {
	kept, err := e.files.KeepHistory(e.alias(), p.Dir)
	if err != nil {
		return output{value: kept}, err
	}
	if kept.Calls == 0 {
		return output{value: kept, warning: fmt.Sprintf("tab %s has no history yet: a call that changes the page leaves its screenshot and snapshot in it", e.alias())}, nil
	}
	return output{value: kept}, nil
}
