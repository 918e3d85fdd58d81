package db

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The package comment promises that statements live here; these tests keep it true.

// moduleRoot is the module's directory, one level above this package.
const moduleRoot = ".."

// sqlOutsideDB may write SQL outside db, and why (the package comment says the same).
var sqlOutsideDB = map[string]string{
	"testsupport": "the test harness clones each test's database and lets tests arrange states; no binary holds it",
}

// statementText matches a statement in a string literal: the verbs that read or write
// rows or change the schema, and PostgreSQL's functions (advisory locks). SELECT is
// matched as the house writes it, in capitals, since prose selects things from lists too.
var statementText = regexp.MustCompile(`(?s)\bSELECT\b.+\bFROM\b|(?i:\bselect\s+(exists|count|pg_\w+)\s*\(|\binsert\s+into\b|` +
	`\bupdate\s+\w+\s+set\b|\bdelete\s+from\b|\b(create|drop|alter)\s+(temp\s+|temporary\s+)?(table|database|index)\b|` +
	`\btruncate\s+\w|\bpg_\w+\s*\()`)

// statementCalls are the methods that send a statement (pgx, database/sql: they take
// arguments, which url.URL's Query() does not) and those that build one (bun's queries);
// River's inserts take no SQL and are not among them.
var statementCalls = map[string]bool{
	"Exec": true, "Query": true, "QueryRow": true, "CopyFrom": true, "SendBatch": true,
	"ExecContext": true, "QueryContext": true, "QueryRowContext": true,
}

var builderCalls = map[string]bool{
	"NewSelect": true, "NewInsert": true, "NewUpdate": true, "NewDelete": true, "NewRaw": true,
	"NewCreateTable": true, "NewDropTable": true, "NewMerge": true, "NewValues": true,
}

// statementsIn lists where a Go source holds a statement: string literals that read as
// SQL, and calls that send or build one.
func statementsIn(fset *token.FileSet, f *ast.File) []string {
	var found []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			if n.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(n.Value)
			if err == nil && statementText.MatchString(s) {
				found = append(found, fset.Position(n.Pos()).String()+": statement "+strconv.Quote(firstLine(s)))
			}
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && (statementCalls[sel.Sel.Name] && len(n.Args) > 0 || builderCalls[sel.Sel.Name]) {
				found = append(found, fset.Position(n.Pos()).String()+": call of "+sel.Sel.Name)
			}
		}
		return true
	})
	return found
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

func TestStatementsLiveInDB(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(moduleRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(moduleRoot, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if (strings.HasPrefix(d.Name(), ".") && path != moduleRoot) || d.Name() == "node_modules" || d.Name() == "testdata" ||
				rel == "db" || sqlOutsideDB[rel] != "" {
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
		for _, s := range statementsIn(fset, f) {
			t.Errorf("%s outside db: make it a db function (see db's package comment)", s)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("scanned only %d Go files: the walk looked in the wrong place", files)
	}
}

func TestStatementsIn(t *testing.T) {
	t.Parallel()
	cases := []struct {
		src  string
		want int
	}{
		{"x := `SELECT id FROM items WHERE client_id = $1`", 1},
		{"x := \"SELECT id\\n FROM items\"", 1},
		{"x := \"select exists (select 1 from items)\"", 1},
		{"x := `SELECT pg_try_advisory_lock($1)`", 1},
		{"x := `INSERT INTO accounts (id) VALUES ($1)`", 1},
		{"x := `UPDATE items SET status = $2 WHERE id = $1`", 1},
		{"x := `DELETE FROM transactions WHERE item_id = $1`", 1},
		{"x := `CREATE TEMP TABLE tx_stage (id uuid) ON COMMIT DROP`", 1},
		{"x := \"DROP DATABASE IF EXISTS \" + name", 1},
		{"x := `TRUNCATE items`", 1},
		{"_, _ = tx.Exec(ctx, q)", 1},
		{"_ = tx.NewSelect().Model(&x).Scan(ctx)", 1},
		{"_, _ = conn.QueryRow(ctx, q, id).Scan(&ok)", 1},
		// Prose and the API's own words are not statements.
		{"x := \"Select the accounts you want to share.\"", 0},
		{"x := \"select the fields a dashboard needs from the schema\"", 0},
		{"x := \"Update the item with new credentials, or delete it.\"", 0},
		{"x := \"UPDATED\"", 0},
		{"v := u.Query()", 0},
		{"_, _ = e.jobs.InsertTx(ctx, tx.PGX, args, nil)", 0},
	}
	for _, c := range cases {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "case.go", "package p\nfunc f() {\n"+c.src+"\n}\n", 0)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if got := statementsIn(fset, f); len(got) != c.want {
			t.Errorf("%s: found %d (%v), want %d", c.src, len(got), got, c.want)
		}
	}
}

// TestRowsCollected keeps the package comment's rule: no source of db walks rows by hand
// (a call of Next with no argument).
func TestRowsCollected(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files++
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && len(c.Args) == 0 {
				if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Next" {
					t.Errorf("%s: rows walked by hand; read them with pgx.CollectRows", fset.Position(c.Pos()))
				}
			}
			return true
		})
	}
	if files < 10 {
		t.Fatalf("parsed only %d files of db", files)
	}
}
