package install

import (
	"regexp"
	"strings"
)

// command matches cdpskill where a shell runs it: at the start of a line
// (after an optional "$ " prompt) or after |, ;, & or $(, followed by a
// space or the end. "cdpskill's", "name: cdpskill" and "cdpskill" inside
// a JSON string are not commands.
var command = regexp.MustCompile(`(^\s*(?:\$\s+)?|[|;&]\s*|\$\()cdpskill(\s|$)`)

var codeSpan = regexp.MustCompile("`[^`]+`")

// Rewrite points the commands in a skill file at bin: in fenced code
// blocks, every command position; in prose, code spans that run it
// (`cdpskill --help`, not a bare `cdpskill`). Everything else is kept
// byte for byte.
func Rewrite(md []byte, bin string) []byte {
	repl := "${1}" + strings.ReplaceAll(shellQuote(bin), "$", "$$") + "${2}"
	lines := strings.SplitAfter(string(md), "\n")
	inFence := false
	var fence string
	for i, line := range lines {
		trimmed := strings.TrimLeft(line, " ")
		if !inFence && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")) {
			inFence, fence = true, trimmed[:3]
			continue
		}
		if inFence {
			if strings.HasPrefix(trimmed, fence) {
				inFence = false
				continue
			}
			body := strings.TrimRight(line, "\r\n")
			lines[i] = command.ReplaceAllString(body, repl) + line[len(body):]
			continue
		}
		lines[i] = codeSpan.ReplaceAllStringFunc(line, func(span string) string {
			inner := span[1 : len(span)-1]
			if strings.TrimSpace(inner) == "cdpskill" {
				return span
			}
			return "`" + command.ReplaceAllString(inner, repl) + "`"
		})
	}
	return []byte(strings.Join(lines, ""))
}

// shellQuote returns p as one shell word.
func shellQuote(p string) string {
	safe := p != ""
	for _, r := range p {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:@%=,", r)) {
			safe = false
			break
		}
	}
	if safe {
		return p
	}
	return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
}
