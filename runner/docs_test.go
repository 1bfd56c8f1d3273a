package runner

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/capture"
)

var update = flag.Bool("update", false, "rewrite golden files (testdata/golden) and SKILL.md's step table")

const (
	tableBegin = "<!-- steps:begin (generated from runner/steps.go; go test ./runner -update) -->\n"
	tableEnd   = "<!-- steps:end -->"
)

// SKILL.md's step table is the registry's: a step added without its
// documentation fails here.
func TestSkillMDStepTable(t *testing.T) {
	const path = "../SKILL.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i, j := strings.Index(doc, tableBegin), strings.Index(doc, tableEnd)
	if i < 0 || j < i {
		t.Fatalf("SKILL.md lacks the step table markers")
	}
	want := stepTable()
	got := doc[i+len(tableBegin) : j]
	if got == want {
		return
	}
	if !*update {
		t.Fatalf("SKILL.md's step table is out of date; run go test ./runner -update")
	}
	doc = doc[:i+len(tableBegin)] + want + doc[j:]
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
}

// SKILL.md speaks of every field an agent may write, by its JSON name
// (quoted or as code), outside the step table, where a step's params may
// bear the same name ("session" storage).
func TestSkillMDNamesEveryField(t *testing.T) {
	data, err := os.ReadFile("../SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	if i, j := strings.Index(doc, tableBegin), strings.Index(doc, tableEnd); i >= 0 && j > i {
		doc = doc[:i] + doc[j:]
	}
	for _, f := range fieldDefs {
		if !strings.Contains(doc, `"`+f.name+`"`) && !strings.Contains(doc, "`"+f.name+"`") {
			t.Errorf("SKILL.md does not mention %q (%s)", f.name, f.summary)
		}
	}
}

// docFiles are the documents agents and people learn cdpskill from.
var docFiles = []string{"../SKILL.md", "../EXAMPLES.md", "../README.md"}

// Every step the docs show, inline or in a call, is one the registry
// accepts with those params, and every document's top-level fields are
// the field registry's: a renamed field or a dropped form fails
// here. A snippet is a JSON object whose action key is a step; a whole
// input document is checked step by step. Placeholders (…) are left out.
func TestDocsStepsValidate(t *testing.T) {
	seen := 0
	for _, path := range docFiles {
		data, err := os.ReadFile(path)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, snip := range jsonSnippets(string(data)) {
			var doc map[string]json.RawMessage
			steps := []json.RawMessage{json.RawMessage(snip)}
			if json.Unmarshal([]byte(snip), &doc) == nil && doc["steps"] != nil {
				json.Unmarshal(doc["steps"], &steps)
				for k := range doc {
					if fieldAt(k, topLevel) == nil {
						t.Errorf("%s: %s: unknown top-level field %q", path, snip, k)
					}
				}
			}
			for _, raw := range steps {
				if !isStep(raw) {
					continue
				}
				seen++
				if _, problems := planStep(1, raw, capture.Files{}); len(problems) > 0 && !illustrativePath(problems) {
					t.Errorf("%s: %s: %s", path, raw, strings.Join(problems, "; "))
				}
			}
		}
	}
	if seen < 30 {
		t.Errorf("only %d step snippets found in the docs", seen)
	}
}

// illustrativePath: the only problem is a file the example names but
// this machine lacks (an upload's ./me.png).
func illustrativePath(problems []string) bool {
	return len(problems) == 1 && strings.Contains(problems[0], "does not exist")
}

// isStep: an object with one key that names a step.
func isStep(raw json.RawMessage) bool {
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil {
		return false
	}
	for k := range fields {
		if stepByName(k) != nil {
			return true
		}
	}
	return false
}

// jsonSnippets returns the JSON objects in a markdown document's code:
// inline code spans, and the argument of each cdpskill command in code
// blocks. Spans that do not parse (placeholders like …) are skipped.
func jsonSnippets(doc string) []string {
	var out []string
	add := func(s string) {
		s = strings.TrimSpace(s)
		if strings.HasPrefix(s, "{") && !strings.Contains(s, "…") && json.Valid([]byte(s)) {
			out = append(out, s)
		}
	}
	inBlock := false
	lines := strings.Split(doc, "\n")
	for n, line := range lines {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inBlock = !inBlock
			continue
		}
		if inBlock {
			// A command shown failing, its error on the next line, is
			// meant to fail.
			if n+1 < len(lines) && strings.Contains(lines[n+1], `"status":"error"`) {
				continue
			}
			if i := strings.Index(line, "cdpskill '"); i >= 0 {
				rest := line[i+len("cdpskill '"):]
				if j := strings.Index(rest, "'"); j >= 0 {
					add(rest[:j])
				}
			}
			continue
		}
		for parts := strings.Split(line, "`"); len(parts) > 2; parts = parts[2:] {
			add(parts[1])
		}
	}
	return out
}

// SKILL.md is read in one go: Agent Skills front matter that says when to
// reach for it, and under 20 KB.
func TestSkillMDShape(t *testing.T) {
	data, err := os.ReadFile("../SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	if !strings.HasPrefix(doc, "---\nname: cdp-skill\ndescription: ") || !strings.Contains(doc[4:], "\n---\n") {
		t.Errorf("SKILL.md lacks its front matter (name, description)")
	}
	if len(data) > 20000 {
		t.Errorf("SKILL.md is %d bytes; keep it under 20,000 (longer examples go in EXAMPLES.md)", len(data))
	}
}

// stepTable renders the registry as the markdown table SKILL.md embeds.
func stepTable() string {
	var b strings.Builder
	b.WriteString("| step | forms | what it does → output |\n| --- | --- | --- |\n")
	for _, s := range Steps() {
		name := s.Name
		if !s.NeedsTab {
			name += " ¹"
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s |\n", name, cell(s.Usage), cell(s.Does("`", "`")))
	}
	b.WriteString("\n¹ needs no tab.\n")
	return b.String()
}

// cell escapes a table cell's pipes.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
