package runner

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files and SKILL.md's step table")

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
	want := StepTable()
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
