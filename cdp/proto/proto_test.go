package proto_test

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/cdpskill/cdpskill/internal/testbrowser"
)

var browser *testbrowser.Browser

func TestMain(m *testing.M) { testbrowser.Main(m, &browser) }

// protocol is the part of /json/protocol the check reads.
type protocol struct {
	Domains []struct {
		Domain   string   `json:"domain"`
		Commands []method `json:"commands"`
		Events   []method `json:"events"`
		Types    []struct {
			ID         string  `json:"id"`
			Properties []param `json:"properties"`
		} `json:"types"`
	} `json:"domains"`
}

type method struct {
	Name       string  `json:"name"`
	Parameters []param `json:"parameters"`
	Returns    []param `json:"returns"`
}

type param struct {
	Name     string `json:"name"`
	Optional bool   `json:"optional"`
}

// The package's commands and events are the browser's: every method and
// event named exists; a command's params struct has only its parameters,
// and every one it requires; its result struct only what it returns; and
// every other struct's fields are fields of its domain.
func TestTypesAreTheBrowsers(t *testing.T) {
	resp, err := http.Get(fmt.Sprintf("http://%s:%d/json/protocol", browser.Endpoint.Host, browser.Endpoint.Port))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var p protocol
	if err := json.NewDecoder(resp.Body).Decode(&p); err != nil {
		t.Fatal(err)
	}
	commands, events, fieldsOf := map[string]method{}, map[string]bool{}, map[string]map[string]bool{}
	for _, d := range p.Domains {
		known := map[string]bool{}
		for _, c := range d.Commands {
			commands[d.Domain+"."+c.Name] = c
			for _, q := range append(c.Parameters, c.Returns...) {
				known[q.Name] = true
			}
		}
		for _, e := range d.Events {
			events[d.Domain+"."+e.Name] = true
			for _, q := range e.Parameters {
				known[q.Name] = true
			}
		}
		for _, ty := range d.Types {
			for _, q := range ty.Properties {
				known[q.Name] = true
			}
		}
		fieldsOf[d.Domain] = known
	}

	pkg := parsePackage(t)
	checked := map[string]bool{}
	for _, cmd := range pkg.commands {
		m, ok := commands[cmd.method]
		if !ok {
			t.Errorf("%s: the browser has no command %s", cmd.params, cmd.method)
			continue
		}
		checked[cmd.params], checked[cmd.result] = true, true
		given := pkg.fields(cmd.params)
		for _, q := range m.Parameters {
			if !q.Optional && !given[q.Name] {
				t.Errorf("%s lacks %s's required parameter %q", cmd.params, cmd.method, q.Name)
			}
			delete(given, q.Name)
		}
		for f := range given {
			t.Errorf("%s: %s has no parameter %q", cmd.params, cmd.method, f)
		}
		if cmd.result != "" {
			got := pkg.fields(cmd.result)
			for _, q := range m.Returns {
				delete(got, q.Name)
			}
			for f := range got {
				t.Errorf("%s: %s returns no %q", cmd.result, cmd.method, f)
			}
		}
	}
	for _, ev := range pkg.events {
		if !events[ev] {
			t.Errorf("the browser has no event %s", ev)
		}
	}
	for name, st := range pkg.structs {
		if checked[name] || st.domain == "" {
			continue
		}
		for f := range pkg.fields(name) {
			if !fieldsOf[st.domain][f] {
				t.Errorf("%s: the %s domain has no field %q", name, st.domain, f)
			}
		}
	}
	if len(pkg.commands) < 10 {
		t.Errorf("found only %d commands", len(pkg.commands))
	}
}

type command struct{ method, params, result string }

type structInfo struct {
	domain string // from the file's name
	fields map[string]bool
}

type parsed struct {
	commands []command
	events   []string
	structs  map[string]structInfo
}

func (p parsed) fields(name string) map[string]bool {
	out := map[string]bool{}
	for f := range p.structs[name].fields {
		out[f] = true
	}
	return out
}

// parsePackage reads the package's source: its structs' JSON fields, each
// Do method's receiver, result and method name, and the Event constants.
func parsePackage(t *testing.T) parsed {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := parsed{structs: map[string]structInfo{}}
	for fname, f := range pkgs["proto"].Files {
		domain := domainOf(fname)
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if st, ok := s.Type.(*ast.StructType); ok {
							out.structs[s.Name.Name] = structInfo{domain, jsonFields(st)}
						}
					case *ast.ValueSpec:
						for i, n := range s.Names {
							if strings.HasPrefix(n.Name, "Event") && i < len(s.Values) {
								if lit, ok := s.Values[i].(*ast.BasicLit); ok {
									v, _ := strconv.Unquote(lit.Value)
									out.events = append(out.events, v)
								}
							}
						}
					}
				}
			case *ast.FuncDecl:
				if d.Name.Name != "Do" || d.Recv == nil {
					continue
				}
				c := command{params: typeName(d.Recv.List[0].Type)}
				if res := d.Type.Results.List; len(res) == 2 {
					c.result = typeName(res[0].Type)
				}
				ast.Inspect(d.Body, func(n ast.Node) bool {
					if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && c.method == "" {
						c.method, _ = strconv.Unquote(lit.Value)
					}
					return true
				})
				out.commands = append(out.commands, c)
			}
		}
	}
	return out
}

// domainOf is the CDP domain a file's types belong to: dom.go holds DOM's,
// page.go Page's; proto.go none.
func domainOf(fname string) string {
	base := strings.TrimSuffix(fname[strings.LastIndexByte(fname, '/')+1:], ".go")
	for _, d := range []string{"DOM", "CSS", "IO", "DOMStorage"} {
		if strings.EqualFold(base, d) {
			return d
		}
	}
	if base == "proto" {
		return ""
	}
	return strings.ToUpper(base[:1]) + base[1:]
}

func typeName(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// jsonFields are a struct's JSON field names, its nested structs' too.
func jsonFields(st *ast.StructType) map[string]bool {
	out := map[string]bool{}
	for _, f := range st.Fields.List {
		if f.Tag != nil {
			tag, _ := strconv.Unquote(f.Tag.Value)
			name, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
			if name != "" && name != "-" {
				out[name] = true
			}
		}
	}
	return out
}
