package capture

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cdpskill/cdpskill/internal/private"
)

// Dir is $TMPDIR/cdp-skill, where every per-tab file goes: screenshots,
// PDFs, spilled console and network listings, the network log. It is
// private (see internal/private), as is every file written through
// writeFile.
func Dir() string { return private.Root() }

// TabFile is Dir()/<alias><suffix>, e.g. TabFile("t1", ".console.json").
func TabFile(alias, suffix string) string {
	return filepath.Join(Dir(), safeAlias(alias)+suffix)
}

// safeAlias keeps an alias a file name: it is a short name, never a path.
func safeAlias(alias string) string {
	alias = strings.NewReplacer("/", "_", `\`, "_").Replace(alias)
	if alias == "" || alias == "." || alias == ".." {
		return "tab"
	}
	return alias
}

// OutputPath resolves a path the agent gave for a file cdpskill writes:
// a bare file name goes into Dir() (SPEC 17.3), anything else is taken
// from the working directory. The result is absolute.
func OutputPath(p string) (string, error) {
	if !strings.ContainsAny(p, `/\`) {
		return filepath.Join(Dir(), p), nil
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("capture: %w", err)
	}
	return abs, nil
}

// NextPath is the first unused Dir()/<alias>.<kind><n>.<ext>, n from 1,
// so successive screenshots of a tab never overwrite one another.
// Numbers come from the files present, so they restart after the temp
// directory is cleaned.
func NextPath(alias, kind, ext string) string {
	prefix := safeAlias(alias) + "." + kind
	n := 0
	entries, _ := os.ReadDir(Dir()) // a missing directory means n = 1
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok {
			continue
		}
		num, _, _ := strings.Cut(rest, ".")
		if i, err := strconv.Atoi(num); err == nil && i > n {
			n = i
		}
	}
	return filepath.Join(Dir(), prefix+strconv.Itoa(n+1)+"."+ext)
}
