package runner

import (
	"fmt"
	"strings"
)

// StepTable renders the registry as the markdown table SKILL.md embeds.
func StepTable() string {
	var b strings.Builder
	b.WriteString("| step | forms | what it does → output |\n| --- | --- | --- |\n")
	for _, s := range Steps() {
		name := "`" + s.Name + "`"
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
