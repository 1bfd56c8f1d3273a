package runner_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/cdp/proto"
)

// The docs cannot drift: every cdpskill command in a code block of
// SKILL.md, EXAMPLES.md and README.md runs, block by block in a fresh
// TMPDIR (so the first tab is t1), against the pages of testdata/docs
// standing in for the agent's app at http://localhost:3000. A command
// must succeed unless the output shown after it says "status":"error";
// what a "# → …" comment promises must be in the output, and every field
// of an output shown on the next line must be there too.

// docsApp is where the docs say the agent's app runs.
const docsApp = "http://localhost:3000"

type docCommand struct {
	line    int
	input   string
	promise string         // after "# → "
	shown   map[string]any // the output printed on the next line, if any
}

func TestDocsExamplesRun(t *testing.T) {
	// Not parallel: EXAMPLES.md downloads a report, and where Chrome saves a
	// download is the browser's, reset by any call that ends (downloads_test.go).
	for _, path := range []string{"../SKILL.md", "../EXAMPLES.md", "../README.md"} {
		data, err := os.ReadFile(path)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		var c *cli
		for i, block := range docBlocks(string(data)) {
			// A block that opens a tab starts afresh; one that goes on
			// with "tab" continues the block before it.
			if c == nil || strings.Contains(block[0].input, `"openTab"`) {
				c = docsCLI(t)
			}
			t.Run(fmt.Sprintf("%s#%d", strings.TrimPrefix(path, "../"), i+1), func(t *testing.T) {
				runDocBlock(t, c, block)
			})
		}
	}
}

// docsCLI is an agent's shell, whose auto-launched Chrome is the test's
// browser here. Its tabs, and the sessions the docs named, are closed
// when the test ends.
func docsCLI(t *testing.T) *cli {
	c := newCLI(t)
	c.cdpURL = fmt.Sprintf("http://%s:%d", chromium(t).Endpoint.Host, chromium(t).Endpoint.Port)
	c.dir = t.TempDir() // where the paths the docs name land (./evidence)
	t.Cleanup(func() {
		c.t = t
		c.run(`{"steps":[{"closeTab":"t1"}]}`)
		dirs, _ := os.ReadDir(filepath.Join(c.tmp, "cdp-skill", "sessions"))
		for _, d := range dirs {
			s := &session{cli: c, name: d.Name()}
			s.run(`{"steps":[{"closeTab":"t1"}]}`)
			if id := s.contextID(t); id != "" {
				_ = proto.TargetDisposeBrowserContext{BrowserContextID: id}.Do(t.Context(), chromium(t).Conn.Browser())
			}
		}
	})
	return c
}

func runDocBlock(t *testing.T, c *cli, block []docCommand) {
	c.t = t
	for _, cmd := range block {
		input := strings.ReplaceAll(cmd.input, docsApp, fixture.URL+"/docs")
		input = strings.ReplaceAll(input, "$TMPDIR", c.tmp)
		res, code, got := c.runRaw(input)
		if os.Getenv("DOCS_SHOW") != "" {
			t.Logf("line %d: %s\n%s", cmd.line, input, got)
		}
		wantErr := cmd.shown != nil && cmd.shown["status"] == "error"
		if (code != 0) != wantErr {
			t.Fatalf("line %d: %s\nexit %d: %s", cmd.line, cmd.input, code, got)
		}
		if p := cmd.promise; p != "" && !strings.Contains(got, strings.ReplaceAll(p, docsApp, fixture.URL+"/docs")) {
			t.Errorf("line %d: %s\npromises %s, got %s", cmd.line, cmd.input, p, got)
		}
		if cmd.shown != nil {
			if missing := missingFields(cmd.shown, res, ""); len(missing) > 0 {
				t.Errorf("line %d: %s\nthe output shown has %s, the real one not: %s", cmd.line, cmd.input, strings.Join(missing, ", "), got)
			}
		}
	}
}

// missingFields lists the fields of shown, and of the objects in it, that
// got lacks; values are the page's and the run's, so only names count.
func missingFields(shown, got map[string]any, at string) []string {
	var out []string
	for k, v := range shown {
		g, ok := got[k]
		if !ok {
			out = append(out, at+k)
			continue
		}
		sub, _ := v.(map[string]any)
		gsub, _ := g.(map[string]any)
		if sub != nil && gsub != nil {
			out = append(out, missingFields(sub, gsub, at+k+".")...)
		}
	}
	return out
}

// docBlocks returns the cdpskill commands of each code block that has
// some, with what the text promises of each.
func docBlocks(doc string) [][]docCommand {
	var blocks [][]docCommand
	var cur []docCommand
	in := false
	lines := strings.Split(doc, "\n")
	for n, line := range lines {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			if in && len(cur) > 0 {
				blocks = append(blocks, cur)
			}
			in, cur = !in, nil
			continue
		}
		i := strings.Index(line, "cdpskill '")
		if !in || i < 0 {
			continue
		}
		rest := line[i+len("cdpskill '"):]
		j := strings.Index(rest, "'")
		if j < 0 {
			continue
		}
		cmd := docCommand{line: n + 1, input: rest[:j]}
		if k := strings.Index(rest[j:], "# → "); k >= 0 {
			cmd.promise = strings.TrimSpace(rest[j+k+len("# → "):])
		}
		if n+1 < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[n+1]), "{") {
			json.Unmarshal([]byte(strings.TrimSpace(lines[n+1])), &cmd.shown)
		}
		cur = append(cur, cmd)
	}
	return blocks
}
