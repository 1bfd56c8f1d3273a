package query

import (
	"fmt"
	"strings"

	"github.com/cdpskill/cdpskill/internal/invalid"
)

// CheckSelector catches the selector mistakes visible without a browser —
// empty, unbalanced brackets or quotes, a dangling combinator — so that a
// step can be rejected before it runs. It accepts refs such as s1e4. What
// it lets through the browser still checks, at once, never after a wait.
func CheckSelector(sel string) error {
	s := strings.TrimSpace(sel)
	if s == "" {
		return fmt.Errorf("the selector is empty")
	}
	if strings.ContainsAny(s[len(s)-1:], ">+~,") && !strings.HasSuffix(s, `\`+s[len(s)-1:]) {
		return &invalid.Selector{Selector: sel, Reason: fmt.Sprintf("it ends with %q", s[len(s)-1:])}
	}
	if strings.ContainsAny(s[:1], ">+~,") {
		return &invalid.Selector{Selector: sel, Reason: fmt.Sprintf("it starts with %q", s[:1])}
	}
	if msg := bracketProblem(s); msg != "" {
		return &invalid.Selector{Selector: sel, Reason: msg}
	}
	return nil
}

// bracketProblem finds an unterminated string or an unbalanced ( or [.
func bracketProblem(s string) string {
	var open []byte
	match := map[byte]byte{')': '(', ']': '['}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			i++ // an escaped character is never syntax
		case '"', '\'':
			j := i + 1
			for ; j < len(s) && s[j] != c; j++ {
				if s[j] == '\\' {
					j++
				}
			}
			if j >= len(s) {
				return fmt.Sprintf("unterminated %c string", c)
			}
			i = j
		case '(', '[':
			open = append(open, c)
		case ')', ']':
			if len(open) == 0 || open[len(open)-1] != match[c] {
				return fmt.Sprintf("unmatched %q", c)
			}
			open = open[:len(open)-1]
		}
	}
	if len(open) > 0 {
		return fmt.Sprintf("unclosed %q", open[len(open)-1])
	}
	return ""
}
