package db

import (
	"context"

	"github.com/google/uuid"
)

// ItemExists reports whether clientID owns item id. Another client's item does not exist
// for the caller, so the two cases answer alike.
func (d *DB) ItemExists(ctx context.Context, clientID, id uuid.UUID) (bool, error) {
	var ok bool
	err := d.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM items WHERE id = $1 AND client_id = $2)`, id, clientID).Scan(&ok)
	return ok, err
}
