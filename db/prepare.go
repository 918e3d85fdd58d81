package db

import (
	"context"

	"ponte/model"
)

// Prepare opens the database at url, applies pending migrations and seeds the catalogue:
// everything a process needs before it serves.
func Prepare(ctx context.Context, url string, connectors []model.Connector) (*DB, error) {
	return PrepareWith(ctx, url, connectors, Limits{})
}

// PrepareWith is Prepare under l. Migrations and the seed are LongRunning: a migration
// rewriting a large table may take minutes.
func PrepareWith(ctx context.Context, url string, connectors []model.Connector, l Limits) (*DB, error) {
	d, err := OpenWith(ctx, url, l)
	if err != nil {
		return nil, err
	}
	if err := d.Migrate(LongRunning(ctx)); err != nil {
		d.Close()
		return nil, err
	}
	if err := d.Seed(LongRunning(ctx), connectors); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}
