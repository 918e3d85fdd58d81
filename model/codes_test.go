package model

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestCodeTable(t *testing.T) {
	t.Parallel()
	if len(Codes()) == 0 {
		t.Fatal("the table is empty")
	}
	seen := map[string]bool{}
	for _, c := range Codes() {
		if !regexp.MustCompile(`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$`).MatchString(c.String()) {
			t.Errorf("%q is not spelled like a codeDescription", c)
		}
		if seen[c.String()] {
			t.Errorf("%s is in the table twice", c)
		}
		seen[c.String()] = true
		if c.Status() < 400 || c.Status() > 599 || http.StatusText(c.Status()) == "" {
			t.Errorf("%s: status %d is not an HTTP error status", c, c.Status())
		}
		if c.When() == "" || strings.Contains(c.When(), "|") {
			t.Errorf("%s: %q cannot be one line of docs/errors.md's table", c, c.When())
		}
	}
	if got := Fail(CodeWebhookLimitReached, "at most %d", 20); got.Status() != 409 || got.Body().CodeDescription != "WEBHOOK_LIMIT_REACHED" || got.Message != "at most 20" {
		t.Errorf("Fail gave %+v", got.Body())
	}
	if (&Error{}).Status() != http.StatusInternalServerError {
		t.Error("an Error without a code must count as the service's failure")
	}
}

// readmeRow is how docs/errors.md lists one code.
func readmeRow(c Code) string {
	return fmt.Sprintf("| `%s` | %d | %s |", c, c.Status(), c.When())
}

// TestREADMEListsEveryCode keeps the error reference, docs/errors.md (the README links to
// it), equal to the table: a code added, removed, given another status or described
// differently here must be written there too. On failure it prints the rows to paste.
func TestREADMEListsEveryCode(t *testing.T) {
	t.Parallel()
	const page = "docs/errors.md"
	b, err := os.ReadFile("../" + page)
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("^\\| `([A-Z0-9_]+)` \\|")
	listed := map[string]string{}
	var order []string
	for _, line := range strings.Split(string(b), "\n") {
		if m := row.FindStringSubmatch(line); m != nil {
			if _, dup := listed[m[1]]; dup {
				t.Errorf("%s lists %s twice", page, m[1])
			}
			listed[m[1]] = line
			order = append(order, m[1])
		}
	}
	var want []string
	inTable := map[string]bool{}
	for _, c := range Codes() {
		want = append(want, readmeRow(c))
		inTable[c.String()] = true
		switch got, ok := listed[c.String()]; {
		case !ok:
			t.Errorf("%s does not list %s", page, c)
		case got != readmeRow(c):
			t.Errorf("%s lists\n\t%s\nthe table says\n\t%s", page, got, readmeRow(c))
		}
	}
	for _, name := range order {
		if !inTable[name] {
			t.Errorf("%s lists %s, which model/codes.go does not declare", page, name)
		}
	}
	if !t.Failed() {
		for i, c := range Codes() {
			if order[i] != c.String() {
				t.Errorf("%s lists %s where the table has %s; keep the table's order", page, order[i], c)
				break
			}
		}
	}
	if t.Failed() {
		t.Logf("%s's table should read:\n| codeDescription | Status | When |\n|---|---|---|\n%s", page, strings.Join(want, "\n"))
	}
}

// TestCodesLiveOnlyInModel scans the module's non-test, non-generated source outside model/:
// no Code… constant or variable may be declared as a string there, and no string literal
// may spell a codeDescription of the table (call sites name model's codes instead). It
// also fails on a code of the table that nothing answers with.
func TestCodesLiveOnlyInModel(t *testing.T) {
	t.Parallel()
	names := map[string]bool{}
	for _, c := range Codes() {
		names[c.String()] = true
	}
	const root = ".."
	skip := map[string]bool{filepath.Join(root, "model"): true, filepath.Join(root, "graph", "generated"): true}
	fset := token.NewFileSet()
	used := usedInModel(t, fset)
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (skip[path] || d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for i, id := range n.Names {
					if lit, ok := valueAt(n, i).(*ast.BasicLit); ok && lit.Kind == token.STRING && isCodeName(id.Name) {
						t.Errorf("%s: %s = %s is a code declared outside model/codes.go", fset.Position(id.Pos()), id.Name, lit.Value)
					}
				}
			case *ast.BasicLit:
				if s, err := strconv.Unquote(n.Value); err == nil && n.Kind == token.STRING && names[s] {
					t.Errorf("%s: the literal %s spells a code; name model's constant instead", fset.Position(n.Pos()), n.Value)
				}
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && x.Name == "model" {
					used[n.Sel.Name] = true
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("scanned only %d files: is the module root %s?", files, root)
	}
	for _, name := range declaredCodes(t, fset) {
		if !used[name] {
			t.Errorf("model.%s is declared but nothing answers with it: use it where it belongs or remove it", name)
		}
	}
}

// declaredCodes lists the variables codes.go declares with code(…).
func declaredCodes(t *testing.T, fset *token.FileSet) []string {
	f, err := parser.ParseFile(fset, "codes.go", nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		if s, ok := n.(*ast.ValueSpec); ok {
			for i, id := range s.Names {
				if call, ok := valueAt(s, i).(*ast.CallExpr); ok {
					if fn, ok := call.Fun.(*ast.Ident); ok && fn.Name == "code" {
						out = append(out, id.Name)
					}
				}
			}
		}
		return true
	})
	if len(out) != len(Codes()) {
		t.Fatalf("found %d code(…) declarations in codes.go, the table has %d", len(out), len(Codes()))
	}
	return out
}

// usedInModel records the identifiers model's own non-test files use, outside codes.go
// (AsError answers with INTERNAL_ERROR and DATABASE_UNAVAILABLE).
func usedInModel(t *testing.T, fset *token.FileSet) map[string]bool {
	used := map[string]bool{}
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if p == "codes.go" || strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				used[id.Name] = true
			}
			return true
		})
	}
	return used
}

func valueAt(s *ast.ValueSpec, i int) ast.Expr {
	if i < len(s.Values) {
		return s.Values[i]
	}
	return nil
}

// isCodeName matches Code followed by a capital (CodeNotFound), not Codes or Coder.
func isCodeName(name string) bool {
	return len(name) > 4 && strings.HasPrefix(name, "Code") && name[4] >= 'A' && name[4] <= 'Z'
}
