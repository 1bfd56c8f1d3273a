package suggest

import "testing"

func TestNearest(t *testing.T) {
	names := []string{"goto", "getTitle", "openTab", "pageFunction", "scrollUntilVisible", "scroll",
		"Enter", "Escape", "Alt", "Control", "Tab", "waitUntil"}
	for in, want := range map[string]string{
		"goto": "goto", "GOTO": "goto", "gto": "goto", "go": "goto", "pagefunction": "pageFunction",
		"openTabb": "openTab", "getTitel": "getTitle", "Entr": "Enter", "Ent": "Enter", "Contrl": "Control",
		"Tba": "Tab", "waitUnti": "waitUntil", "scrol": "scroll", "sc": "scroll",
		"xyzzy": "", "a": "", "": "", "xy": "",
	} {
		if got := Nearest(in, names); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Nearest("x", nil); got != "" {
		t.Errorf("no candidates: %q", got)
	}
}
