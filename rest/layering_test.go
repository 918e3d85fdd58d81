package rest_test

import (
	"go/build"
	"strings"
	"testing"
)

// The REST layer is a shim over the resolvers: SQL and business rules live behind them.
func TestRestDoesNotReachTheStore(t *testing.T) {
	pkg, err := build.Default.Import("ponte/rest", ".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range pkg.Imports {
		if imp == "ponte/db" || strings.HasPrefix(imp, "github.com/uptrace/bun") ||
			strings.HasPrefix(imp, "github.com/jackc/pgx") || imp == "database/sql" {
			t.Errorf("rest imports %s", imp)
		}
	}
	if len(pkg.Imports) == 0 {
		t.Fatal("found no imports: the check looked at the wrong package")
	}
}
