package db_test

import (
	"context"
	"testing"

	"ponte/db"
	"ponte/testsupport"
)

// openStore opens a store on a database of t's own, closed when t ends.
func openStore(t testing.TB) *db.DB {
	t.Helper()
	d, err := db.Open(context.Background(), testsupport.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	return d
}
