package main_test

import (
	"bufio"
	gobuild "go/build"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The tree's shape is a rule like any other: docs/architecture.md draws the layers, and
// these tests keep the drawing true, so a new rule finds one home.

// root is the module's directory, two levels above this package.
const root = "../.."

// layers says which of the module's packages each package may import. A handler reaches
// the store only through a domain package or the resolvers; the domain packages never reach
// up to a handler; db knows only the vocabulary.
var layers = map[string][]string{
	"ponte/model":     {"ponte/jsonscan"},
	"ponte/metrics":   {},
	"ponte/jsonscan":  {},
	"ponte/brdocs":    {},
	"ponte/jobs":      {"ponte/metrics"},
	"ponte/db":        {"ponte/model", "ponte/metrics"},
	"ponte/auth":      {"ponte/model", "ponte/db"},
	"ponte/webhooks":  {"ponte/model", "ponte/db", "ponte/jobs", "ponte/auth", "ponte/metrics"},
	"ponte/ledger":    {"ponte/model", "ponte/db"},
	"ponte/payments":  {"ponte/model", "ponte/db", "ponte/jobs", "ponte/auth", "ponte/metrics", "ponte/ledger", "ponte/brdocs"},
	"ponte/merchants": {"ponte/model", "ponte/db", "ponte/auth", "ponte/brdocs"},
	"ponte/itemsync":  {"ponte/model", "ponte/db", "ponte/jobs", "ponte/auth", "ponte/metrics", "ponte/merchants"},
	"ponte/faults":    {"ponte/model", "ponte/db", "ponte/auth", "ponte/metrics"},
	"ponte/collected": {"ponte/model", "ponte/db", "ponte/auth", "ponte/itemsync"},
	// The sandbox's payer bank and PIX directory stand on payments' interfaces.
	"ponte/sandbox/payer": {"ponte/model", "ponte/payments", "ponte/brdocs"},
	// The institution providers stand on the domain's interfaces; only institutions, which
	// lists them for cmd/ponte and the tests, knows them all.
	"ponte/sandbox":         {"ponte/model", "ponte/brdocs", "ponte/itemsync"},
	"ponte/statements":      {"ponte/model", "ponte/itemsync"},
	"ponte/institutions":    {"ponte/model", "ponte/itemsync", "ponte/sandbox", "ponte/statements"},
	"ponte/graph/generated": {"ponte/model"},
	"ponte/graph/graphiql":  {"ponte/model"},
	"ponte/graph/generate":  {},
	// HTTP infrastructure below rest: first answers kept for Idempotency-Key replays, in a
	// store it declares (db implements it).
	"ponte/idempotency": {"ponte/model", "ponte/auth"},
	// graph reaches the store only through the domain packages (and the store of custom
	// sandbox users it is given); the rules of those users are given to it too.
	"ponte/graph": {"ponte/model", "ponte/auth", "ponte/collected", "ponte/itemsync",
		"ponte/payments", "ponte/webhooks", "ponte/graph/generated", "ponte/jsonscan", "ponte/faults", "ponte/merchants"},
	// rest stands on the resolvers alone, besides the vocabulary and its HTTP infrastructure:
	// no domain package, no db (the probes' store comes through rest.Config).
	"ponte/rest": {"ponte/model", "ponte/auth", "ponte/graph", "ponte/graph/generated", "ponte/graph/graphiql",
		"ponte/metrics", "ponte/jsonscan", "ponte/idempotency"},
}

// storeDrivers are reached only through db.
var storeDrivers = []string{"github.com/uptrace/bun", "github.com/jackc/pgx", "database/sql", "github.com/lib/pq"}

func TestLayers(t *testing.T) {
	t.Parallel()
	seen := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") && path != root {
			return filepath.SkipDir
		}
		pkg, err := gobuild.ImportDir(path, 0)
		if _, none := err.(*gobuild.NoGoError); none {
			return nil
		} else if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		name := "ponte/" + filepath.ToSlash(rel)
		if name == "ponte/cmd/ponte" || name == "ponte/testsupport" || strings.HasPrefix(name, "ponte/testsupport/") {
			return nil // the binary and the test harness assemble every layer
		}
		allowed, known := layers[name]
		if !known {
			t.Errorf("%s has no place in the layers: add it to docs/architecture.md's layers and to this table", name)
			return nil
		}
		seen++
		for _, imp := range pkg.Imports {
			if strings.HasPrefix(imp, "ponte/") && !contains(allowed, imp) {
				t.Errorf("%s imports %s, above or beside its layer", name, imp)
			}
			if name != "ponte/db" && name != "ponte/jobs" {
				for _, d := range storeDrivers {
					if strings.HasPrefix(imp, d) && !contains(driverTypes[name], imp) {
						t.Errorf("%s imports the store driver %s: statements live in db", name, imp)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < len(layers) {
		t.Fatalf("walked %d of the %d packages in the table: the walk looked in the wrong place", seen, len(layers))
	}
}

// driverTypes are the store imports a package outside db may hold, and why: model classifies
// the drivers' connection errors (dberror.go) and gives its types database/sql's Valuer.
var driverTypes = map[string][]string{"ponte/model": {"database/sql", "database/sql/driver"}}

// maxLines is the house limit on a source file: past it a file holds more than one thing.
const maxLines = 600

func TestFileSizes(t *testing.T) {
	t.Parallel()
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if (strings.HasPrefix(d.Name(), ".") && path != root) || d.Name() == "node_modules" || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		generated, lines, err := scan(path)
		if err != nil {
			return err
		}
		files++
		if !generated && lines > maxLines {
			t.Errorf("%s has %d lines (at most %d): split it by what its parts are", path, lines, maxLines)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("found only %d Go files: the walk looked in the wrong place", files)
	}
}

// scan counts a file's lines and reports whether it carries Go's generated-code marker.
func scan(path string) (generated bool, lines int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return false, 0, err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 1<<20), 1<<24)
	for s.Scan() {
		lines++
		line := s.Text()
		if strings.HasPrefix(line, "// Code generated ") && strings.HasSuffix(line, " DO NOT EDIT.") {
			generated = true
		}
	}
	return generated, lines, s.Err()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
