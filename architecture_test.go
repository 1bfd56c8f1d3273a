package cdpskill

import (
	"errors"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const modulePath = "github.com/cdpskill/cdpskill"

// archRow is one row of ARCHITECTURE.md's package table: a package, by
// its path in the module ("cdpskill" for the root), and the module
// packages it may import.
type archRow struct {
	pkg string
	may []string
}

var codeSpan = regexp.MustCompile("`([^`]+)`")

// packageTable reads the package table under ARCHITECTURE.md's
// "## Packages", in its order.
func packageTable(t *testing.T) []archRow {
	t.Helper()
	data, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## Packages\n")
	if !ok {
		t.Fatal(`ARCHITECTURE.md has no "## Packages" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var rows []archRow
	for line := range strings.SplitSeq(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 5 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		name := codeSpan.FindStringSubmatch(cells[1])
		row := archRow{pkg: name[1]}
		for _, m := range codeSpan.FindAllStringSubmatch(cells[3], -1) {
			row.may = append(row.may, m[1])
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		t.Fatal("ARCHITECTURE.md's package table has no rows")
	}
	return rows
}

// modulePackages finds every package of the module, by its path in the
// module, with every file whatever its build constraints.
func modulePackages(t *testing.T) map[string]*build.Package {
	t.Helper()
	ctx := build.Default
	ctx.UseAllFiles = true
	pkgs := map[string]*build.Package{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		name := d.Name()
		if path != "." && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		p, err := ctx.ImportDir(path, 0)
		var none *build.NoGoError
		if errors.As(err, &none) {
			return nil
		}
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(path)
		if rel == "." {
			rel = "cdpskill"
		}
		pkgs[rel] = p
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// ARCHITECTURE.md's package table is true: every package of the module
// has a row and a package doc comment, and imports only the module
// packages its row names, each in a row below its own, so no package
// reaches back up.
func TestArchitecture(t *testing.T) {
	rows := packageTable(t)
	pkgs := modulePackages(t)
	at := map[string]int{}
	for i, r := range rows {
		if _, dup := at[r.pkg]; dup {
			t.Errorf("ARCHITECTURE.md: %s has two rows", r.pkg)
		}
		at[r.pkg] = i
		if pkgs[r.pkg] == nil {
			t.Errorf("ARCHITECTURE.md: a row for %s, which is no package of the module", r.pkg)
		}
	}
	for _, r := range rows {
		for _, m := range r.may {
			j, ok := at[m]
			switch {
			case !ok:
				t.Errorf("ARCHITECTURE.md: %s may import %s, which has no row", r.pkg, m)
			case j <= at[r.pkg]:
				t.Errorf("ARCHITECTURE.md: %s may import %s, whose row is not below its own", r.pkg, m)
			}
		}
	}
	for name, p := range pkgs {
		if p.Doc == "" {
			t.Errorf("%s has no package doc comment", name)
		}
		i, ok := at[name]
		if !ok {
			t.Errorf("%s has no row in ARCHITECTURE.md's package table", name)
			continue
		}
		for _, imp := range p.Imports {
			var dep string
			switch {
			case imp == modulePath:
				dep = "cdpskill"
			case strings.HasPrefix(imp, modulePath+"/"):
				dep = strings.TrimPrefix(imp, modulePath+"/")
			default:
				continue
			}
			if !slices.Contains(rows[i].may, dep) {
				t.Errorf("%s imports %s, which its row in ARCHITECTURE.md does not name", name, dep)
			}
		}
	}
}
