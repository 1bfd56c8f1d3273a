package runner

import (
	"fmt"
	"strings"
)

// StepTable renders the registry as the markdown table SKILL.md embeds.
func StepTable() string {
	var b strings.Builder
	b.WriteString("| step | forms | what it does |\n| --- | --- | --- |\n")
	for _, s := range steps {
		name := "`" + s.name + "`"
		if !s.has(needsTab) {
			name += " ¹"
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s |\n", name, strings.ReplaceAll(s.usage, "|", `\|`), s.summary)
	}
	b.WriteString("\n¹ needs no tab.\n")
	return b.String()
}
