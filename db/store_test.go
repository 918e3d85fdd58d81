package db_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/model"
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

// storeWithClient opens a store as openStore does, holding one enabled client application
// named name; it returns the store and the client's id.
func storeWithClient(t testing.TB, name string) (*db.DB, uuid.UUID) {
	t.Helper()
	store := openStore(t)
	app := &model.ClientApplication{ID: uuid.New(), Name: name, Enabled: true, SecretHash: "x"}
	if err := store.CreateClient(context.Background(), app); err != nil {
		t.Fatal(err)
	}
	return store, app.ID
}
