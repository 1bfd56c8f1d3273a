package dom

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"path/filepath"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/internal/xcontext"
	"github.com/cdpskill/cdpskill/page"
)

var (
	//go:embed js/upload-find.js
	uploadFindJS string
	//go:embed js/upload-info.js
	uploadInfoJS string

	uploadFindFn = bind(uploadFindJS)
)

// ActionUpload is setting the files of a file input.
const ActionUpload Action = "upload"

// uploadGroup is the object group an upload's remote objects live in, so
// that one call releases them.
const uploadGroup = "cdpskill-upload"

// anyFileInput stands for "the page's only file input" in messages.
var anyFileInput = Target{Selector: "input[type=file]"}

// UploadRequest is one upload (SPEC 19.13).
type UploadRequest struct {
	// Target is a CSS selector or a ref of the file input, of a label for
	// it, or of an element holding exactly one; "" means the page's only
	// file input.
	Target string
	// Files are absolute paths of files that exist; the caller checks them.
	Files []string
	// Timeout bounds the wait for the input to appear; DefaultTimeout when
	// zero. ctx bounds it too.
	Timeout time.Duration
}

// UploadResult is what the file input holds after the upload.
type UploadResult struct {
	Uploaded int      `json:"uploaded"`
	Files    []string `json:"files"` // the names the page sees
	Accept   string   `json:"accept,omitempty"`
	Multiple bool     `json:"multiple,omitempty"`
	Note
}

// fileInputInfo is js/upload-info.js's reply.
type fileInputInfo struct {
	Files    []string `json:"files"`
	Accept   string   `json:"accept"`
	Multiple bool     `json:"multiple"`
}

// Upload sets the files of a file input with DOM.setFileInputFiles, as a
// user picking them would: the page gets input and change events and
// reads the files when it submits. The input may be hidden, as styled
// file inputs usually are. More than one file needs a multiple input.
func Upload(ctx context.Context, p *page.Page, req UploadRequest) (*UploadResult, error) {
	if len(req.Files) == 0 {
		return nil, &invalid.Option{Field: "files", Reason: "no files to upload"}
	}
	for _, f := range req.Files {
		if !filepath.IsAbs(f) {
			return nil, &invalid.Option{Field: "files", Reason: fmt.Sprintf("%q is not an absolute path", f)}
		}
	}
	objectID, err := findFileInput(ctx, p, req)
	defer releaseGroup(ctx, p)
	if err != nil {
		return nil, err
	}
	before, err := describeFileInput(ctx, p, objectID)
	if err != nil {
		return nil, err
	}
	if len(req.Files) > 1 && !before.Multiple {
		return nil, &invalid.Option{Field: "files", Reason: fmt.Sprintf("the file input takes one file (it has no multiple attribute), got %d", len(req.Files))}
	}
	if err := (proto.DOMSetFileInputFiles{Files: req.Files, ObjectID: objectID}).Do(ctx, p.EvalSession()); err != nil {
		return nil, err
	}
	after, err := describeFileInput(ctx, p, objectID)
	if err != nil {
		return nil, err
	}
	return &UploadResult{
		Uploaded: len(after.Files), Files: after.Files, Accept: after.Accept, Multiple: after.Multiple,
		Note: Note{acceptWarning(after.Accept, req.Files)},
	}, nil
}

// findFileInput returns the object id of the request's file input,
// retrying while there is none yet, like WaitActionable.
func findFileInput(ctx context.Context, p *page.Page, req UploadRequest) (string, error) {
	target, arg := anyFileInput, map[string]any{"target": nil}
	if req.Target != "" {
		target = ParseTarget(req.Target)
		arg["target"] = target.arg()
	}
	timeout := req.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	start := time.Now()
	var last error
	var stillIn time.Duration // as in WaitActionable
	for attempt := 0; ; attempt++ {
		wait := retryDelay(attempt)
		if stillIn > 0 {
			wait = min(wait, stillIn)
		}
		if attempt > 0 && time.Since(start)+wait > timeout {
			break
		}
		if err := xcontext.Sleep(ctx, wait); err != nil {
			return "", &TimeoutError{Target: target, Action: ActionUpload, Last: last, Err: err}
		}
		id, failed, err := evalFind(ctx, p, arg)
		switch {
		case err != nil && ctx.Err() != nil:
			return "", &TimeoutError{Target: target, Action: ActionUpload, Last: last, Err: ctx.Err()}
		case err != nil && cdp.IsContextDestroyed(err):
			continue // navigating: the next document may have it
		case err != nil:
			return "", err
		case id != "":
			return id, nil
		}
		v, problem := uploadProblem(failed, target)
		if v == permanent {
			return "", problem
		}
		last = problem
		stillIn = 0
		if failed.Status == "notFound" {
			var still bool
			if still, stillIn = endEarly(ctx, p, ActionRequest{Target: target, AgentTimeout: req.Timeout > 0}, last); still {
				break
			}
		}
	}
	var nf *NotFoundError
	if errors.As(last, &nf) {
		nf.Waited = time.Since(start)
	}
	if last == nil {
		return "", &TimeoutError{Target: target, Action: ActionUpload, Err: context.DeadlineExceeded}
	}
	return "", last
}

// evalFind runs js/upload-find.js once: an object id, or why there is none.
func evalFind(ctx context.Context, p *page.Page, arg map[string]any) (string, *checkResult, error) {
	data, err := json.Marshal(arg)
	if err != nil {
		return "", nil, err
	}
	obj, err := p.Evaluate(ctx, proto.RuntimeEvaluate{
		Expression:  "(" + uploadFindFn() + ")(" + string(data) + ")",
		ObjectGroup: uploadGroup,
	})
	if err != nil {
		return "", nil, err
	}
	if obj.Subtype == "node" && obj.ObjectID != "" {
		return obj.ObjectID, nil, nil
	}
	var text string
	var res checkResult
	if json.Unmarshal(obj.Value, &text) != nil || json.Unmarshal([]byte(text), &res) != nil {
		return "", nil, fmt.Errorf("dom: unexpected file input lookup result %s %s", obj.Type, obj.Value)
	}
	return "", &res, nil
}

// uploadProblem types a failed lookup; target resolution failures mean
// what they mean for any action.
func uploadProblem(r *checkResult, t Target) (verdict, error) {
	switch r.Status {
	case "ambiguous":
		return permanent, &invalid.Option{Field: "selector", Reason: r.Message}
	case "notFileInput":
		return permanent, &ActionabilityError{Target: t, Action: ActionUpload, Reason: &NotEditableError{Reason: r.Message, Permanent: true}}
	}
	return r.problem(ActionRequest{Target: t, Action: ActionUpload})
}

// describeFileInput runs js/upload-info.js on the input.
func describeFileInput(ctx context.Context, p *page.Page, objectID string) (*fileInputInfo, error) {
	res, err := proto.RuntimeCallFunctionOn{
		FunctionDeclaration: uploadInfoJS,
		ObjectID:            objectID,
		ReturnByValue:       true,
	}.Do(ctx, p.EvalSession())
	if err != nil {
		return nil, err
	}
	if res.ExceptionDetails != nil {
		return nil, page.NewJSError(res.ExceptionDetails)
	}
	var info fileInputInfo
	if err := json.Unmarshal(res.Result.Value, &info); err != nil {
		return nil, fmt.Errorf("dom: decode file input: %w", err)
	}
	return &info, nil
}

// releaseGroup lets the page forget the upload's objects, even after ctx
// ended.
func releaseGroup(ctx context.Context, p *page.Page) {
	ctx, cancel := xcontext.Detached(ctx, 2*time.Second)
	defer cancel()
	_ = proto.RuntimeReleaseObjectGroup{ObjectGroup: uploadGroup}.Do(ctx, p.EvalSession())
}

// acceptWarning names the files an accept attribute (".pdf,image/*")
// does not admit, judged by their extensions.
func acceptWarning(accept string, files []string) string {
	var tokens []string
	for _, t := range strings.Split(accept, ",") {
		if t = strings.ToLower(strings.TrimSpace(t)); t != "" {
			tokens = append(tokens, t)
		}
	}
	if len(tokens) == 0 {
		return ""
	}
	var refused []string
	for _, f := range files {
		if !accepts(tokens, f) {
			refused = append(refused, filepath.Base(f))
		}
	}
	if len(refused) == 0 {
		return ""
	}
	return fmt.Sprintf("%s not admitted by accept=%q; the page may refuse it", strings.Join(refused, ", "), accept)
}

func accepts(tokens []string, file string) bool {
	ext := strings.ToLower(filepath.Ext(file))
	typ, _, _ := strings.Cut(mime.TypeByExtension(ext), ";")
	for _, t := range tokens {
		switch {
		case strings.HasPrefix(t, "."):
			if t == ext {
				return true
			}
		case strings.HasSuffix(t, "/*"):
			if typ != "" && strings.HasPrefix(typ, strings.TrimSuffix(t, "*")) {
				return true
			}
		case t == typ:
			return true
		}
	}
	return false
}
