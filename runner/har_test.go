package runner_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A HAR of the tab's traffic over two calls, a POST answered 201 and a
// document loaded: written where the agent said, whole and private; it
// reads back as HAR 1.2, with the POST's bodies (kept by the call before)
// and the document's (this call's, kept by the step), and every entry's
// time is its timings' sum.
func TestHARFile(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	c.dir = t.TempDir()
	tab := c.openTab(fixture.URL + "/save.html")
	c.act(t, tab, `{"click":"#save"}`)
	outs := c.call(t, tab, fmt.Sprintf(`{"goto":%q},{"network":{"har":"out/traffic"}}`, fixture.URL+"/hello.html"))
	out := outs[1]
	path := filepath.Join(c.dir, "out", "traffic.har")
	if out["path"] != path || out["entries"].(float64) < 3 || out["bodies"].(float64) < 2 {
		t.Fatalf("the step: %s", jsonText(out))
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 || float64(st.Size()) != out["bytes"] {
		t.Fatalf("the file: %v %v (the step said %v bytes)", st, err, out["bytes"])
	}
	data, _ := os.ReadFile(path)
	var har map[string]any
	if err := json.Unmarshal(data, &har); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	for _, p := range checkHAR(har) {
		t.Error(p)
	}
	entries := har["log"].(map[string]any)["entries"].([]any)
	post, doc := findEntry(entries, "POST", "/api/items"), findEntry(entries, "GET", "/hello.html")
	if post == nil || doc == nil {
		t.Fatalf("entries: %d, no POST or document among them", len(entries))
	}
	if at(post, "response", "status") != 201.0 || at(post, "request", "postData", "text") != `{"name":"Oat milk"}` ||
		at(post, "response", "content", "text") != "{\"id\":7,\"name\":\"Oat milk\"}\n" || post["_resourceType"] != "fetch" ||
		at(post, "request", "postData", "mimeType") != "application/json" {
		t.Errorf("the POST: %s", jsonText(post))
	}
	if at(doc, "response", "status") != 200.0 || doc["_resourceType"] != "document" ||
		!strings.Contains(fmt.Sprint(at(doc, "response", "content", "text")), "<") ||
		len(at(doc, "request", "headers").([]any)) == 0 || len(at(doc, "response", "headers").([]any)) == 0 {
		t.Errorf("the document: %s", jsonText(doc))
	}
	// A second HAR: numbered beside the tab's files, the traffic still there.
	again := c.call(t, tab, `{"network":{"har":true,"type":"document"}}`)[0]
	if p := fmt.Sprint(again["path"]); !strings.HasSuffix(p, tab+".network1.har") || again["entries"].(float64) < 2 {
		t.Errorf("a HAR of the documents: %s", jsonText(again))
	}
	res, _ := c.run(fmt.Sprintf(`{"tab":%q,"steps":[{"network":{"har":"x.har","sort":"slowest"}}]}`, tab))
	if typ, msg := errorOf(res); typ != "VALIDATION" || !strings.Contains(msg, `"har" writes the tab's requests in the order they began`) {
		t.Errorf("har with sort: %v", res)
	}
}

// findEntry is the last entry with method whose URL ends in path.
func findEntry(entries []any, method, path string) map[string]any {
	var found map[string]any
	for _, e := range entries {
		e := e.(map[string]any)
		if at(e, "request", "method") == method && strings.HasSuffix(fmt.Sprint(at(e, "request", "url")), path) {
			found = e
		}
	}
	return found
}

// at is the value at a path of keys in nested objects, nil when missing.
func at(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// checkHAR checks a HAR against the HAR 1.2 shape: the fields it
// requires, with their types; timings whose sum is the entry's time.
func checkHAR(har map[string]any) []string {
	var problems []string
	need := func(v any, where string, fields map[string]string) {
		m, ok := v.(map[string]any)
		if !ok {
			problems = append(problems, where+": not an object")
			return
		}
		for name, kind := range fields {
			if !isKind(m[name], kind) {
				problems = append(problems, fmt.Sprintf("%s.%s: %v, want a %s", where, name, m[name], kind))
			}
		}
	}
	log := at(har, "log")
	need(log, "log", map[string]string{"version": "string", "creator": "object", "entries": "array"})
	if at(log, "version") != "1.2" {
		problems = append(problems, fmt.Sprintf("log.version %v", at(log, "version")))
	}
	need(at(log, "creator"), "log.creator", map[string]string{"name": "string", "version": "string"})
	entries, _ := at(log, "entries").([]any)
	for i, e := range entries {
		where := fmt.Sprintf("entries[%d]", i)
		need(e, where, map[string]string{"startedDateTime": "string", "time": "number", "request": "object",
			"response": "object", "cache": "object", "timings": "object"})
		if _, err := time.Parse(time.RFC3339Nano, fmt.Sprint(at(e, "startedDateTime"))); err != nil {
			problems = append(problems, where+".startedDateTime: "+err.Error())
		}
		need(at(e, "request"), where+".request", map[string]string{"method": "string", "url": "string", "httpVersion": "string",
			"cookies": "array", "headers": "array", "queryString": "array", "headersSize": "number", "bodySize": "number"})
		need(at(e, "response"), where+".response", map[string]string{"status": "number", "statusText": "string",
			"httpVersion": "string", "cookies": "array", "headers": "array", "content": "object", "redirectURL": "string",
			"headersSize": "number", "bodySize": "number"})
		need(at(e, "response", "content"), where+".response.content", map[string]string{"size": "number", "mimeType": "string"})
		for _, list := range [][]string{{"request", "headers"}, {"request", "queryString"}, {"response", "headers"}, {"request", "cookies"}, {"response", "cookies"}} {
			items, _ := at(e, list...).([]any)
			for j, h := range items {
				need(h, fmt.Sprintf("%s.%s[%d]", where, strings.Join(list, "."), j), map[string]string{"name": "string", "value": "string"})
			}
		}
		if pd := at(e, "request", "postData"); pd != nil {
			need(pd, where+".request.postData", map[string]string{"mimeType": "string", "text": "string"})
		}
		need(at(e, "timings"), where+".timings", map[string]string{"send": "number", "wait": "number", "receive": "number",
			"blocked": "number", "dns": "number", "connect": "number", "ssl": "number"})
		sum := 0.0
		for _, phase := range []string{"blocked", "dns", "connect", "send", "wait", "receive"} {
			v, _ := at(e, "timings", phase).(float64)
			if v < -1 || (v < 0 && (phase == "send" || phase == "wait" || phase == "receive")) {
				problems = append(problems, fmt.Sprintf("%s.timings.%s: %v", where, phase, v))
			}
			sum += max(0, v)
		}
		if tm, _ := at(e, "time").(float64); math.Abs(tm-sum) > 0.01 {
			problems = append(problems, fmt.Sprintf("%s.time %v, its timings' sum %v", where, tm, sum))
		}
	}
	return problems
}

func isKind(v any, kind string) bool {
	switch kind {
	case "string":
		_, ok := v.(string)
		return ok
	case "number":
		_, ok := v.(float64)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	}
	_, ok := v.(map[string]any)
	return ok
}
