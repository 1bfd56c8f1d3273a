package main

import (
	"fmt"
	"testing"
)

// An element a slow API renders (4 s, nothing on the page moving
// meanwhile) is waited for while its request is under way: begun in an
// earlier call, whose settle gave up on it, or earlier in the same call.
func TestElementOfASlowAPIIsWaitedFor(t *testing.T) {
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/slow-list.html?ms=4000")
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":{"text":"Pears"}}]}`, tab))
	if code != 0 {
		t.Fatalf("a request begun in an earlier call: %s", jsonText(res))
	}
	res, code = c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#more"},{"click":{"text":"More Pears"}}]}`, tab))
	if code != 0 {
		t.Fatalf("a request begun earlier in the call: %s", jsonText(res))
	}
}
