package dom

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/page"
)

// The editors whose text is not where their keys go (Element.Editor):
// fill types into them as a person does and judges the fill by what they
// show. A contenteditable ("rich") is filled as any field is.
const (
	editorEditContext = "editcontext"
	editorProxy       = "proxy"
)

// editorReply is js/fill_editor.js's reply.
type editorReply struct {
	Navigated bool    `json:"navigated"`
	Detached  bool    `json:"detached"`
	Focused   bool    `json:"focused"`
	Mac       bool    `json:"mac"`
	Before    string  `json:"before"`
	Shown     *string `json:"shown"`
	// Partial: the editor renders only the lines in its view (a long
	// document), so Shown is those lines.
	Partial bool `json:"partial"`
}

// editorCall runs one phase of js/fill_editor.js. gone: the page
// navigated away (what the fill did is the page's now). An editor input
// the page replaced fails with detached.
func (f filler) editorCall(ctx context.Context, phase string, detached error) (r *editorReply, gone bool, err error) {
	r = &editorReply{}
	err = f.p.CallJS(ctx, fillEditorFn(), r, map[string]any{"token": f.el.token, "phase": phase, "clear": f.clear})
	switch {
	case cdp.IsContextDestroyed(err) || (err == nil && r.Navigated):
		return nil, true, nil
	case err != nil:
		return nil, false, err
	case r.Detached:
		return nil, false, detached
	}
	return r, false, nil
}

// editor fills a code editor as a person would: a click into its view
// (which focuses the input behind it), Control+A to select what it holds
// (Control+End to append), then the value as one insertText, as a paste
// goes in: editors close brackets and indent for keys typed one by one,
// not for inserted text. An EditContext whose page left its selection
// elsewhere is given it directly. The fill is judged by the text the
// editor then shows, once it stopped changing.
func (f filler) editor(ctx context.Context, res *FillResult) (*FillResult, error) {
	res.Method = MethodInsertText
	if !f.el.Focused && f.el.Clickable && !f.el.AutoForced && f.el.Point != nil {
		if err := mouseClick(ctx, f.p.S, *f.el.Point, "left", 1); err != nil {
			return nil, err
		}
	}
	prep, gone, err := f.editorCall(ctx, "focus", errReplaced)
	switch {
	case err != nil:
		return nil, err
	case gone:
		res.Filled = true
		return res, nil
	case !prep.Focused:
		return nil, f.fail(&NotEditableError{Reason: "it cannot take focus"})
	}
	if prep.Before != "" {
		keys := "Control+a"
		switch {
		case prep.Mac && f.clear:
			keys = "Meta+a"
		case prep.Mac:
			keys = "Meta+ArrowDown"
		case !f.clear:
			keys = "Control+End"
		}
		k, err := ParseKeystroke(keys)
		if err != nil {
			return nil, err
		}
		if err := k.Press(ctx, f.p.S); err != nil {
			return nil, err
		}
		if _, _, err := f.editorCall(ctx, "select", errReplaced); err != nil {
			return nil, err
		}
	}
	switch {
	case f.value != "":
		err = insertText(ctx, f.p.S, strings.ReplaceAll(f.value, "\r\n", "\n"))
	case prep.Before != "" && f.clear:
		err = pressBackspace(ctx, f.p.S)
	}
	if err != nil {
		return nil, err
	}
	// The editor was replaced under the text: its content is unknown.
	after, gone, err := f.editorCall(ctx, "read", f.fail(&DetachedError{}))
	switch {
	case err != nil:
		return nil, err
	case gone:
		res.Filled = true
		return res, nil
	case after.Shown == nil:
		return nil, f.fail(&DetachedError{})
	}
	return f.verifyEditor(res, prep.Before, *after.Shown, after.Partial)
}

// verifyEditor judges an editor's fill by what it shows: the value, the
// value with what the editor adds as it goes (closing brackets,
// indentation: reported, with the text it shows), or not the value (the
// old text left beside it, or nothing taken: an error). An editor that
// renders only the lines in view (partial) shows the value when those
// lines are the value's, in order.
func (f filler) verifyEditor(res *FillResult, before, shown string, partial bool) (*FillResult, error) {
	want := f.value
	if !f.clear {
		want = before + f.value
	}
	w, s, b := codeText(want), codeText(shown), codeText(before)
	switch {
	case s == w:
	case partial && s != "" && (strings.Contains(w, s) || linesIn(s, w)):
	case s == b:
		return nil, f.fail(&NotEditableError{Reason: fmt.Sprintf("the editor took no text: it shows %s after the fill", quoteCut(shown))})
	case f.clear && b != "" && strings.Contains(s, b) && strings.Contains(s, codeText(f.value)):
		return nil, f.fail(&NotEditableError{Reason: fmt.Sprintf("the editor kept its text beside the value (Control+A did not select it): it shows %s", quoteCut(shown))})
	default:
		res.Value = &shown
		switch added, ok := addedByEditor(w, s); {
		case ok && strings.TrimSpace(added) == "":
			res.Warning = page.JoinNotes(res.Warning, "the editor indented the value's lines as it does for typing (value is what it shows)")
		case ok:
			res.Warning = page.JoinNotes(res.Warning, fmt.Sprintf("the editor added %s to the value as it does for typing (value is what it shows)", quoteCut(added)))
		default:
			res.Warning = page.JoinNotes(res.Warning, fmt.Sprintf("the editor shows %s, not %s", quoteCut(shown), quoteCut(want)))
		}
	}
	res.Appended = !f.clear && before != ""
	res.Filled = true
	return res, nil
}

// quoteCut quotes s for a message, its first 80 characters and an
// ellipsis when it is longer: a message names a text, it does not
// reproduce a document.
func quoteCut(s string) string {
	const most = 80
	if r := []rune(s); len(r) > most {
		return strconv.Quote(string(r[:most]) + "…")
	}
	return strconv.Quote(s)
}

// linesIn reports whether the lines of part are lines of whole, in
// order: what an editor that renders only the lines in view shows of
// whole.
func linesIn(part, whole string) bool {
	lines := strings.Split(whole, "\n")
	i := 0
	for _, l := range strings.Split(part, "\n") {
		for i < len(lines) && lines[i] != l {
			i++
		}
		if i >= len(lines) {
			return false
		}
		i++
	}
	return true
}

// codeText is an editor's text as compared: line endings as \n, no
// trailing spaces on a line, no blank lines at the end.
func codeText(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// addedByEditor reports what shown holds beyond want when want is all in
// it, in order, and the rest is what editors add by themselves: closing
// brackets and quotes, and whitespace (the whitespace shown only when
// that is all).
func addedByEditor(want, shown string) (string, bool) {
	w := []rune(want)
	var extra []rune
	i := 0
	for _, r := range shown {
		if i < len(w) && r == w[i] {
			i++
			continue
		}
		extra = append(extra, r)
	}
	if i < len(w) {
		return "", false
	}
	for _, r := range extra {
		if !strings.ContainsRune(")]}\"'`> \t\n", r) {
			return "", false
		}
	}
	if s := strings.Join(strings.Fields(string(extra)), ""); s != "" {
		return s, true
	}
	return string(extra), true
}
