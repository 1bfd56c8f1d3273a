// Package jsfiles checks the shape the in-page JavaScript of every package
// must keep: one commented function expression per file, which
// composition pastes between parentheses (inpage.Compose, inpage.Bind) or
// hands to Runtime.callFunctionOn, of at most MaxLines lines. Dirs finds
// the directories to check from the packages' //go:embed lines, so that a
// new directory of embedded JavaScript is checked without being named.
package jsfiles

import (
	"errors"
	"fmt"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// MaxLines is the most lines a .js file may have: a longer one is split
// along its seams into modules.
const MaxLines = 450

// head is a file's opening: its comment, then the function, named (so that
// a stack trace says which), async where it awaits.
var head = regexp.MustCompile(`(?m)\A(//.*\n)+(async )?function \w+\([\w, ]*\) \{\n`)

// Problems lists the .js files of dir and what is wrong with each that is
// out of shape: not a commented function expression, or more than
// maxLines lines long.
func Problems(dir string, maxLines int) (files, problems []string, err error) {
	files, err = filepath.Glob(filepath.Join(dir, "*.js"))
	if err != nil {
		return nil, nil, err
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, err
		}
		src := string(data)
		if !head.MatchString(src) || !strings.HasSuffix(src, "\n}\n") {
			problems = append(problems, f+": not a commented function expression")
		}
		if n := strings.Count(src, "\n"); n > maxLines {
			problems = append(problems, fmt.Sprintf("%s: %d lines; split it", f, n))
		}
	}
	return files, problems, nil
}

// CheckShape checks every .js file of dir, of which there must be one at
// least, and returns their names.
func CheckShape(t *testing.T, dir string, maxLines int) []string {
	t.Helper()
	files, problems, err := Problems(dir, maxLines)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("%s: no .js files", dir)
	}
	for _, p := range problems {
		t.Error(p)
	}
	return files
}

// Dirs lists, relative to root and sorted, the directories of the .js
// files the packages under root embed (their non-test files' //go:embed
// patterns, a directory pattern standing for the files under it). It
// skips what the go command skips: testdata, and names starting with .
// or _.
func Dirs(root string) ([]string, error) {
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if name := d.Name(); path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(path, 0)
		if err != nil {
			var none *build.NoGoError
			if errors.As(err, &none) {
				return nil
			}
			return err
		}
		for _, pattern := range pkg.EmbedPatterns {
			matches, err := filepath.Glob(filepath.Join(path, filepath.FromSlash(pattern)))
			if err != nil {
				return err
			}
			for _, m := range matches {
				if err := addJSDirs(root, m, seen); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	dirs := make([]string, 0, len(seen))
	for d := range seen {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	return dirs, nil
}

// addJSDirs adds to seen the directory, relative to root, of each .js file
// at or under path.
func addJSDirs(root, path string, seen map[string]bool) error {
	return filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".js" {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		seen[filepath.ToSlash(rel)] = true
		return nil
	})
}
