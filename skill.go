// Package cdpskill holds the skill files agents read — SKILL.md and
// EXAMPLES.md — embedded in every binary, so that
// `go install github.com/cdpskill/cdpskill/cmd/cdpskill@latest` followed by
// `cdpskill install` is a whole installation. The files live at the module
// root, beside this package, because go:embed cannot reach above a
// package's directory; being in the module, they ship in its zip.
package cdpskill

import (
	"embed"
	"io/fs"
)

//go:embed SKILL.md EXAMPLES.md
var markdown embed.FS

// SkillFiles are the files installed into a skill directory, in order.
var SkillFiles = []string{"SKILL.md", "EXAMPLES.md"}

// Files returns the embedded skill files, by name.
func Files() map[string][]byte {
	out := make(map[string][]byte)
	for _, name := range SkillFiles {
		b, err := fs.ReadFile(markdown, name)
		if err == nil {
			out[name] = b
		}
	}
	return out
}
