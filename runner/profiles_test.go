package runner_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixtureDomain is the fixture server's site as a profile names it.
func fixtureDomain() string {
	return strings.ReplaceAll(strings.TrimPrefix(fixture.URL, "http://"), ":", "_")
}

// A tab arriving at a site with no profile is asked, once, to write one;
// once written, a tab arriving there gets it.
func TestSiteProfileLifecycle(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	domain := fixtureDomain()
	res, _ := c.run(fmt.Sprintf(`{"steps":[{"openTab":{"url":%q,"host":%q,"port":%d}}]}`,
		fixture.URL+"/small.html", chromium(t).Endpoint.Host, chromium(t).Endpoint.Port))
	tab, _ := res["tab"].(string)
	t.Cleanup(func() { c.run(fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, tab)) })
	ar, _ := res["actionRequired"].(map[string]any)
	msg, _ := ar["message"].(string)
	if ar["action"] != "createSiteProfile" || ar["domain"] != domain || strings.Contains(msg, ". ") || !strings.HasSuffix(msg, ".") ||
		!strings.Contains(msg, "snapshot") || !strings.Contains(msg, "pageFunction") || !strings.Contains(msg, "writeSiteProfile") {
		t.Fatalf("openTab on a new site: %v", res)
	}
	res = c.act(t, tab, fmt.Sprintf(`{"goto":%q}`, fixture.URL+"/report.html"))
	if res["actionRequired"] != nil {
		t.Errorf("asked twice on one tab: %v", res["actionRequired"])
	}

	profile := "# " + domain + "\n## Quirks\n- the status line updates after 60 ms\n"
	res = c.act(t, tab, fmt.Sprintf(`{"writeSiteProfile":{"domain":%q,"content":%q}}`, "www."+domain, profile))
	out := stepOutputs(t, res)[0]["output"].(map[string]any)
	path := filepath.Join(c.tmp, ".cdp-skill", "sites", domain+".md")
	if out["written"] != true || out["path"] != path || out["domain"] != domain {
		t.Errorf("writeSiteProfile: %v", out)
	}
	if data, err := os.ReadFile(path); err != nil || string(data) != profile {
		t.Errorf("file %q: %v", data, err)
	}

	other := c.openTab(fixture.URL + "/small.html")
	res = c.act(t, other, fmt.Sprintf(`{"goto":%q}`, fixture.URL+"/report.html"))
	if res["siteProfile"] != nil {
		t.Errorf("the profile came again on the same tab: %v", res["siteProfile"])
	}
	res, _ = c.run(fmt.Sprintf(`{"steps":[{"openTab":{"url":%q,"host":%q,"port":%d}},{"readSiteProfile":%q}]}`,
		fixture.URL+"/small.html", chromium(t).Endpoint.Host, chromium(t).Endpoint.Port, "http://"+strings.TrimPrefix(fixture.URL, "http://")))
	third, _ := res["tab"].(string)
	t.Cleanup(func() { c.run(fmt.Sprintf(`{"steps":[{"closeTab":%q}]}`, third)) })
	if res["siteProfile"] != profile || res["actionRequired"] != nil {
		t.Errorf("a new tab on the site: %v", res)
	}
	read := stepOutputs(t, res)[1]["output"].(map[string]any)
	if read["found"] != true || read["content"] != profile || read["domain"] != domain {
		t.Errorf("readSiteProfile: %v", read)
	}
}

// Profiles need no tab; a missing one is found:false; pages that are no
// site get no lookup; names that leave the directory are refused before
// anything runs.
func TestSiteProfileSteps(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	res, code := c.run(`{"steps":[{"readSiteProfile":{"domain":"WWW.Example.com"}}]}`)
	if out := stepOutputs(t, res)[0]["output"].(map[string]any); code != 0 || out["found"] != false || out["domain"] != "example.com" {
		t.Errorf("read a missing profile: %v", res)
	}
	tab := c.openTab("about:blank")
	res = c.act(t, tab, `{"goto":"data:text/html,<h1>hi</h1>"}`)
	if res["actionRequired"] != nil || res["siteProfile"] != nil {
		t.Errorf("a data: page got a profile lookup: %v", res)
	}
	for _, bad := range []string{
		`{"readSiteProfile":"../../etc/passwd"}`,
		`{"readSiteProfile":"../../etc"}`,
		`{"readSiteProfile":".."}`,
		`{"readSiteProfile":""}`,
		`{"readSiteProfile":"/etc/passwd"}`,
		`{"readSiteProfile":"a\u0000b"}`,
		`{"writeSiteProfile":{"domain":"../../etc","content":"x"}}`,
		`{"writeSiteProfile":{"domain":"a/b","content":"x"}}`,
		`{"writeSiteProfile":{"domain":"a\u0000b","content":"x"}}`,
		`{"readSiteProfile":"___"}`,
		`{"writeSiteProfile":{"domain":"..","content":"x"}}`,
		`{"writeSiteProfile":{"domain":"example.com"}}`,
		`{"writeSiteProfile":{"domain":"","content":"x"}}`,
	} {
		res, code := c.run(`{"steps":[` + bad + `]}`)
		if typ, _ := errorOf(res); code != 1 || typ != "VALIDATION" {
			t.Errorf("%s: %v", bad, res)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(c.tmp, ".cdp-skill", "sites")); len(entries) != 0 {
		t.Errorf("refused writes left files: %v", entries)
	}
}
