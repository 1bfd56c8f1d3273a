package capture

import (
	"path/filepath"
	"testing"

	"github.com/cdpskill/cdpskill/internal/private"
)

// A session's files are its own: t1 of one session is not t1 of another.
func TestSessionFiles(t *testing.T) {
	temp := private.Temp(t.TempDir())
	def := Files{Temp: temp}
	work := Files{Temp: temp, Session: "work"}
	if got := def.TabFile("t1", ".after.png"); got != filepath.Join(temp.Root(), "t1.after.png") {
		t.Errorf("the default session's file %s", got)
	}
	dir := filepath.Join(temp.Root(), "sessions", "work")
	for got, want := range map[string]string{
		work.TabFile("t1", ".after.png"):   filepath.Join(dir, "t1.after.png"),
		work.DownloadsDir():                filepath.Join(dir, "downloads"),
		work.NextPath("t1", "shot", "png"): filepath.Join(dir, "t1.shot1.png"),
	} {
		if got != want {
			t.Errorf("session file %s, want %s", got, want)
		}
	}
	if got, _ := work.OutputPath("page.pdf"); got != filepath.Join(dir, "page.pdf") {
		t.Errorf("a bare name in a session goes to %s", got)
	}
}
