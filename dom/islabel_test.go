package dom

import "testing"

// A batch fill's key is a label when it reads like one, as forms print
// them, and a selector when it reads like CSS.
func TestIsLabel(t *testing.T) {
	for key, want := range map[string]bool{
		"Email": true, "Full name": true, "Alert volume:": true, "Email *": true, "* Email": true,
		"Name (required)": true, "Phone (optional):": true, "Title *": true, "E-mail*": true,
		"#email": false, "input": false, "form *": false, "li *": false, "input:focus": false,
		"button:nth-child(2)": false, "[name=q]": false, "s1e4": false, "*": false, "": false,
		".field input": false, "div > span": false,
	} {
		if got := isLabel(key); got != want {
			t.Errorf("isLabel(%q) = %v, want %v", key, got, want)
		}
	}
}
