package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cdpskill/cdpskill/aria"
	"github.com/cdpskill/cdpskill/diff"
	"github.com/cdpskill/cdpskill/dom"
	"github.com/cdpskill/cdpskill/query"
)

// ariaSteps show the page as the agent sees it.
var ariaSteps = []step{
	define("snapshot", `true | {root, detail: full|interactive|summary, mode: ai|plain, since: "s3", viewportOnly, pierceShadow, includeFrames, maxDepth, maxElements, maxNameLength, includeText, inlineLimit, preserveRefs}`,
		"ARIA tree as YAML with refs", needsTab|sized, decodeSnapshot, runSnapshot).out(`{yaml, snapshotId, refCount, truncated?, note?} | {unchanged, snapshotId} | {snapshotId, since, refCount, changes}`).
		also(`{"snapshot":true}`, "ariaSnapshot", "accessibilitySnapshot", "accessibility", "accessibilityTree", "getAccessibilityTree", "a11y", "pageSnapshot"),
	define("snapshotSearch", `"text" | {text, exact, pattern, role, near: {x, y, radius}, limit, context, pierceShadow, includeFrames}`,
		"find elements page-wide without a snapshot", needsTab, decodeSnapshotSearch, runSnapshotSearch).out(`{matches: [{path, role, name, ref}], matchCount, searchedElements, criteria}`).
		also(`{"snapshotSearch":"…"}`, "search", "findText", "searchText", "findByText", "getByText"),
	define("query", `"selector" | {selector, limit, output, clean, metadata} | {role | roles: [...], name, nameExact, nameRegex, checked, disabled, level, countOnly, limit}`,
		"CSS, or role, name and state (refs); not in frames", needsTab, decodeQuery, runQuery).out(`{selector, total, showing, results: [{index, value}]} | {total, results: [{ref, role, name, text?}], framesNotSearched?}`).
		also(`{"query":"…"}`, "querySelector", "querySelectorAll", "findElement", "findElements", "getText", "innerText", "textContent").
		also(`{"query":{"role":"button","name":"…"}}`, "getByRole", "findByRole").
		also(`{"query":{"selector":"…","output":{"attribute":"href"}}}`, "getAttribute"),
}

// Large snapshot handling (SPEC 7.6).
const (
	defaultInlineLimit = 9000
	// refMapAbove: a snapshot showing more refs also writes the refs map.
	refMapAbove = 1000
)

// --- snapshot

func decodeSnapshot(raw json.RawMessage) (aria.Options, error) {
	p, err := decodeInto(raw, trueOnly[aria.Options])
	if err == nil {
		if verr := p.Validate(); verr != nil {
			err = paramErrorf("%v", verr)
		}
	}
	return p, err
}

// filedSnapshot is a snapshot too large to print: the YAML is in a file,
// and what is on screen comes inline.
type filedSnapshot struct {
	SnapshotID       string     `json:"snapshotId,omitempty"`
	Note             string     `json:"note,omitempty"`
	Refs             int        `json:"refCount"`
	Truncated        bool       `json:"truncated,omitempty"`
	TruncatedInline  bool       `json:"truncatedInline"`
	Message          string     `json:"message"`
	Artifacts        *artifacts `json:"artifacts"`
	ViewportSnapshot string     `json:"viewportSnapshot,omitempty"`
}

// inlineSnapshot is the usual output: the snapshot itself, and the refs
// map file when there are many refs.
type inlineSnapshot struct {
	*aria.Result
	// Note says why since got the whole snapshot.
	Note      string     `json:"note,omitempty"`
	Artifacts *artifacts `json:"artifacts,omitempty"`
}

type artifacts struct {
	Snapshot string `json:"snapshot,omitempty"`
	Refs     string `json:"refs,omitempty"`
}

// unchangedSnapshot answers since when the page is as it was (SPEC 7.5).
type unchangedSnapshot struct {
	Unchanged  bool   `json:"unchanged"`
	SnapshotID string `json:"snapshotId"`
}

func runSnapshot(ctx context.Context, e *env, p aria.Options) (output, error) {
	p.SnapshotFloor, p.ElementFloor = e.tab.RefFloors()
	p.RefMapAbove = refMapAbove
	p.ViewportAbove = p.InlineLimit
	if p.ViewportAbove == 0 {
		p.ViewportAbove = defaultInlineLimit
	}
	res, err := aria.Snapshot(ctx, e.page(), p)
	if err != nil {
		return output{}, err
	}
	e.tab.SaveRefCounters(res.LastSnapshot, res.LastElement)
	if res.Unchanged {
		return output{value: unchangedSnapshot{true, res.SnapshotID}}, nil
	}
	note := ""
	switch {
	case p.Since == "":
	case res.Previous == "":
		note = fmt.Sprintf("%s cannot be compared with (another document, other options, frames, or more than 3 snapshots back): here is the whole snapshot", p.Since)
	default:
		if out := sinceChanges(p.Since, res); out != nil {
			return output{value: out}, nil
		}
		note = fmt.Sprintf("so much changed since %s that the whole snapshot is shorter", p.Since)
	}
	return output{value: e.limitSnapshot(ctx, p, res, note)}, nil
}

// changedSnapshot answers since on a page that changed: what changed
// since that snapshot, and the new snapshot's id for the next since.
type changedSnapshot struct {
	SnapshotID string        `json:"snapshotId"`
	Since      string        `json:"since"`
	Refs       int           `json:"refCount"`
	Changes    *diff.Changes `json:"changes"`
}

// sinceChanges compares the snapshot with the one since named. Every
// change is listed: the agent has nothing else to go by. When the
// changes would take more than half the snapshot's bytes, the snapshot
// itself is the better answer (nil). Identical text means unchanged.
func sinceChanges(since string, res *aria.Result) any {
	d := diff.Compare(diff.Parse(res.Previous), diff.Parse(res.YAML), diff.Options{})
	if d.Empty() {
		return unchangedSnapshot{true, since}
	}
	out := changedSnapshot{SnapshotID: res.SnapshotID, Since: since, Refs: res.Refs, Changes: d.Report("Since "+since, 0)}
	if len(mustJSON(out.Changes)) > len(res.YAML)/2 {
		return nil
	}
	return out
}

// limitSnapshot applies SPEC 7.6: more than refMapAbove refs also write
// the refs map to a file; YAML over the inline limit goes to a file, with
// the viewport's part inline. A file that cannot be written leaves the
// output inline.
func (e *env) limitSnapshot(ctx context.Context, p aria.Options, res *aria.Result, note string) any {
	var arts artifacts
	if res.RefMap != nil {
		arts.Refs = e.writeArtifact(e.snapshotFile(res.SnapshotID, "refs.json"), res.RefMap)
	}
	limit := p.InlineLimit
	if limit == 0 {
		limit = defaultInlineLimit
	}
	if len(res.YAML) > limit {
		arts.Snapshot = e.writeArtifact(e.snapshotFile(res.SnapshotID, "yaml"), []byte(res.YAML+"\n"))
	}
	if arts.Snapshot == "" {
		out := inlineSnapshot{Result: res, Note: note}
		if arts.Refs != "" {
			out.Artifacts = &arts
		}
		return out
	}
	return &filedSnapshot{
		SnapshotID: res.SnapshotID, Note: note, Refs: res.Refs, Truncated: res.Truncated, TruncatedInline: true,
		Message: fmt.Sprintf("the snapshot is %d bytes, over inlineLimit %d: read it in %s; viewportSnapshot is what is on screen",
			len(res.YAML), limit, arts.Snapshot),
		Artifacts:        &arts,
		ViewportSnapshot: viewportSnapshot(ctx, e, p, res, limit),
	}
}

// viewportSnapshot is the part of an oversized snapshot that is on
// screen, cut to limit; "" when it cannot be had. The snapshot's own walk
// gives it, unless frames were spliced into that one.
func viewportSnapshot(ctx context.Context, e *env, p aria.Options, full *aria.Result, limit int) string {
	y := full.Viewport(ctx)
	if y == "" {
		p.ViewportOnly, p.Internal, p.Since, p.RefMapAbove, p.ViewportAbove = true, true, "", 0, 0
		res, err := aria.Snapshot(ctx, e.page(), p)
		if err != nil {
			return ""
		}
		y = res.YAML
	}
	if len(y) > limit {
		y = y[:strings.LastIndexByte(y[:limit], '\n')+1] + "# … cut at inlineLimit; the file has it all"
	}
	return y
}

// snapshotFile is $TMPDIR/cdp-skill/{alias}.{snapshotId}.{ext}.
func (e *env) snapshotFile(id, ext string) string {
	if id == "" {
		id = "plain"
	}
	return e.files.TabFile(e.alias(), "."+id+"."+ext)
}

func mustJSON(v any) []byte {
	data, err := Encode(v)
	if err != nil {
		return []byte("{}")
	}
	return data
}

// --- snapshotSearch

func decodeSnapshotSearch(raw json.RawMessage) (aria.SearchOptions, error) {
	p, err := decodeInto(raw, func(raw json.RawMessage, p *aria.SearchOptions) error {
		if s, ok := asString(raw); ok && strings.TrimSpace(s) != "" {
			p.Text = s
			return nil
		}
		return paramErrorf(`expected the text to find or {text, pattern, role, near, ...}, got %s`, jsonKind(raw))
	})
	if err == nil {
		if verr := p.Validate(); verr != nil {
			err = paramErrorf("%v", verr)
		}
	}
	return p, err
}

// searchOutput is a search's result and, when nothing matched until a
// scrolling container was scrolled to it, which one and how far.
type searchOutput struct {
	*aria.SearchResult
	Scrolled *dom.Scrolled `json:"scrolled,omitempty"`
}

func runSnapshotSearch(ctx context.Context, e *env, p aria.SearchOptions) (output, error) {
	p.SnapshotFloor, p.ElementFloor = e.tab.RefFloors()
	res, err := aria.Search(ctx, e.page(), p)
	if err != nil {
		return output{}, err
	}
	e.tab.SaveRefCounters(res.LastSnapshot, res.LastElement)
	if res.MatchCount > 0 || p.Near != nil || (p.Text == "" && p.Pattern == "") {
		return output{value: res}, nil
	}
	// Nothing yet: a virtualized list or grid renders only the rows in its
	// view, so the text may be in one not rendered.
	scrolled, err := dom.SearchScrollers(ctx, e.page(), dom.ScrollQuery{Text: p.Text, Pattern: p.Pattern, Role: p.Role, Exact: p.Exact}, 0)
	if err != nil || scrolled == nil {
		return output{value: res}, nil // the search without scrolling stands
	}
	again, err := aria.Search(ctx, e.page(), p)
	if err != nil {
		return output{}, err
	}
	e.tab.SaveRefCounters(again.LastSnapshot, again.LastElement)
	return output{value: searchOutput{again, scrolled}}, nil
}

// --- query
//
// One step, two modes (SPEC 11.3): CSS (decodeQueryCSS and runQueryCSS in
// steps_query.go) and role (here). A string or an object with a selector
// is CSS mode.

type queryParams struct {
	css  *query.CSSQuery
	role *aria.RoleQuery
}

func decodeQuery(raw json.RawMessage) (queryParams, error) {
	if isQueryCSS(raw) {
		q, err := decodeQueryCSS(raw)
		return queryParams{css: &q}, err
	}
	if !isObject(raw) {
		return queryParams{}, paramErrorf(`expected a CSS selector, {selector, ...} or {role, ...}, got %s`, jsonKind(raw))
	}
	var q aria.RoleQuery
	if err := decodeStrict(raw, &q); err != nil {
		return queryParams{}, err
	}
	if err := q.Validate(); err != nil {
		return queryParams{}, paramErrorf("%v", err)
	}
	return queryParams{role: &q}, nil
}

func runQuery(ctx context.Context, e *env, p queryParams) (output, error) {
	if p.css != nil {
		return runQueryCSS(ctx, e, *p.css)
	}
	q := *p.role
	q.SnapshotFloor, q.ElementFloor = e.tab.RefFloors()
	res, err := aria.QueryRoles(ctx, e.page(), q)
	if err != nil {
		return output{}, err
	}
	e.tab.SaveRefCounters(res.LastSnapshot, res.LastElement)
	return output{value: res}, nil
}
