package runner_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// waitForResponse beside a click answers "what did my API say?" in the
// same call, in the step's response beside its output: the POST's 201
// and its JSON body, parsed.
func TestWaitForResponseOfAClick(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/save.html")
	out, resp := c.responded(t, tab, `{"click":"#save","waitForResponse":{"url":"/api/items","method":"POST"}}`)
	body, _ := resp["body"].(map[string]any)
	if out["clicked"] != true || resp["status"] != 201.0 || resp["method"] != "POST" || resp["mimeType"] != "application/json" ||
		body["id"] != 7.0 || body["name"] != "Oat milk" || !strings.HasSuffix(resp["url"].(string), "/api/items") {
		t.Errorf("output: %v", out)
	}

	// A body too long to show goes to a file, with a preview.
	_, resp = c.responded(t, tab, `{"click":"#report","waitForResponse":"/api/report"}`)
	file, _ := resp["bodyFile"].(string)
	data, err := os.ReadFile(file)
	if err != nil || len(data) != num(resp["bytes"]) || resp["body"] != nil || !strings.HasPrefix(resp["preview"].(string), `[{"row":0`) {
		t.Errorf("a long body: %v (%v)", resp, err)
	}
}

// "any" waits for the first fetch or XHR the action starts, a method
// alone for the first with that method: the save's probe, then its POST.
func TestWaitForAnyResponse(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/save.html")
	_, resp := c.responded(t, tab, `{"click":"#save","waitForResponse":"any"}`)
	if resp["status"] != 404.0 || !strings.HasSuffix(fmt.Sprint(resp["url"]), "/favicon-probe.png") {
		t.Errorf("any: %v", resp)
	}
	_, resp = c.responded(t, tab, `{"click":"#save","waitForResponse":"POST"}`)
	if resp["status"] != 201.0 || !strings.HasSuffix(fmt.Sprint(resp["url"]), "/api/items") {
		t.Errorf("POST: %v", resp)
	}
	_, resp = c.responded(t, tab, `{"click":"#save","waitForResponse":{"method":"POST","status":201}}`)
	if resp["status"] != 201.0 {
		t.Errorf("{method, status}: %v", resp)
	}
}

// responded runs step on tab and returns its output and its response.
func (c *cli) responded(t *testing.T, tab, step string) (out, resp map[string]any) {
	t.Helper()
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[%s]}`, tab, step))
	if code != 0 {
		t.Fatalf("%s: exit %d: %v", step, code, res)
	}
	s := stepOutputs(t, res)[0]
	out, _ = s["output"].(map[string]any)
	resp, _ = s["response"].(map[string]any)
	return out, resp
}

// No matching response in time is a TimeoutError that lists the requests
// that did happen; a bad matcher is refused before anything runs.
func TestWaitForResponseTimesOut(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	tab := c.openTab(fixture.URL + "/save.html")
	// The step's time lets the POST's 201, 300 ms after the click, come
	// in first on a loaded machine, for the error to list it.
	res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#save","waitForResponse":{"url":"/api/items","status":200},"timeout":5000}]}`, tab))
	e := firstError(res)
	if code != 1 || e == nil || e["name"] != "TimeoutError" || !strings.Contains(e["error"].(string), "POST "+fixture.URL+"/api/items 201") {
		t.Errorf("exit %d: %v", code, res)
	}
	for _, bad := range []string{
		`{"click":"#save","waitForResponse":""}`,
		`{"click":"#save","waitForResponse":{}}`,
		`{"click":"#save","waitForResponse":{"url":"/x","status":42}}`,
		`{"listTabs":true,"waitForResponse":"/x"}`,
	} {
		res, code := c.run(fmt.Sprintf(`{"tab":%q,"steps":[%s]}`, tab, bad))
		if typ, msg := errorOf(res); code != 1 || typ != "VALIDATION" || !strings.Contains(msg, "waitForResponse") {
			t.Errorf("%s: exit %d, %v", bad, code, res)
		}
	}
}
