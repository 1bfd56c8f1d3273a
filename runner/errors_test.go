package runner

import (
	"testing"
	"time"
)

func TestTidyMessage(t *testing.T) {
	cases := []struct{ msg, action, want string }{
		{"context deadline exceeded", "sleep", "timed out after 2000 ms (the step's timeout)"},
		{`timed out waiting for selector "#x" (found 0): context deadline exceeded`, "wait", `timed out waiting for selector "#x" (found 0)`},
		{"cannot attach: context deadline exceeded", "", "cannot attach (timed out after 2000 ms, the step's timeout)"},
		{`click: element not found: nothing matches selector "#a"`, "click", `element not found: nothing matches selector "#a"`},
		{"fill: fill: value rejected", "fill", "value rejected"},
		{"reading: context canceled", "", "reading: the call was interrupted"},
	}
	for _, c := range cases {
		if got := tidyMessage(c.msg, c.action, 2*time.Second); got != c.want {
			t.Errorf("tidyMessage(%q) = %q, want %q", c.msg, got, c.want)
		}
	}
}
