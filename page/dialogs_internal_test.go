package page

import (
	"testing"

	"github.com/cdpskill/cdpskill/cdp/proto"
)

// The policy that answers a dialog: the step's, else the call's, else
// accept; an alert can only be accepted; a prompt reports its answer.
func TestDialogAnswer(t *testing.T) {
	no, yes, ada := false, true, "Ada"
	prompt := proto.PageJavascriptDialogOpening{Type: "prompt", Message: "name?", DefaultPrompt: "anon"}
	cases := []struct {
		name     string
		ev       proto.PageJavascriptDialogOpening
		step     *DialogPolicy
		call     *DialogPolicy
		accepted bool
		text     string // "" means no promptText reported
	}{
		{"default confirm", proto.PageJavascriptDialogOpening{Type: "confirm"}, nil, nil, true, ""},
		{"default prompt", prompt, nil, nil, true, "anon"},
		{"call dismisses", proto.PageJavascriptDialogOpening{Type: "confirm"}, nil, &DialogPolicy{Accept: &no}, false, ""},
		{"step overrides call", proto.PageJavascriptDialogOpening{Type: "beforeunload"}, &DialogPolicy{Accept: &yes}, &DialogPolicy{Accept: &no}, true, ""},
		{"prompt text", prompt, &DialogPolicy{PromptText: &ada}, nil, true, "Ada"},
		{"dismissed prompt", prompt, nil, &DialogPolicy{Accept: &no}, false, ""},
		{"alert", proto.PageJavascriptDialogOpening{Type: "alert"}, &DialogPolicy{Accept: &no}, nil, true, ""},
	}
	for _, tc := range cases {
		r := answer(tc.ev, tc.step, tc.call)
		text := ""
		if r.PromptText != nil {
			text = *r.PromptText
		}
		if r.Accepted != tc.accepted || text != tc.text {
			t.Errorf("%s: got %+v", tc.name, r)
		}
	}
}
