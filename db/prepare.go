package db

import (
	"context"

	"ponte/model"
)

// Prepare opens the database at url, applies pending migrations and seeds the catalogue:
// everything a process needs before it serves.
func Prepare(ctx context.Context, url string, connectors []model.Connector) (*DB, error) {
	d, err := Open(ctx, url)
	if err != nil {
		return nil, err
	}
	if err := d.Migrate(ctx); err != nil {
		d.Close()
		return nil, err
	}
	if err := d.Seed(ctx, connectors); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}
