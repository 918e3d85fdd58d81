package db

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/model"
)

// Custom sandbox users: descriptions are checked by the sandbox package before they come
// here, and kept as given.

const sandboxUserColumns = `id, username, description::text, created_at, updated_at`

func scanSandboxUser(row pgx.Row) (model.SandboxUser, error) {
	var u model.SandboxUser
	var desc []byte
	var created, updated time.Time
	err := row.Scan(&u.ID, &u.Username, &desc, &created, &updated)
	u.Description, u.CreatedAt, u.UpdatedAt = desc, model.NewTime(created), model.NewTime(updated)
	return u, err
}

// CreateSandboxUser registers u for clientID unless the username is taken there or the
// application already has max users (full). The application's row is locked so two
// creates cannot both pass the limit.
func (d *DB) CreateSandboxUser(ctx context.Context, clientID uuid.UUID, u *model.SandboxUser, max int) (taken, full bool, err error) {
	err = d.InTx(ctx, func(ctx context.Context, tx *Tx) error {
		taken, full = false, false
		if _, err := tx.pg.Exec(ctx, `SELECT 1 FROM client_applications WHERE id = $1 FOR UPDATE`, clientID); err != nil {
			return err
		}
		var n int
		if err := tx.pg.QueryRow(ctx, `SELECT count(*), coalesce(bool_or(username = $2), false) FROM sandbox_users WHERE client_id = $1`,
			clientID, u.Username).Scan(&n, &taken); err != nil {
			return err
		}
		if full = n >= max; taken || full {
			return nil
		}
		_, err := tx.pg.Exec(ctx, `INSERT INTO sandbox_users (id, client_id, username, description, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $5)`, u.ID, clientID, u.Username, string(u.Description), u.CreatedAt.Time)
		return err
	})
	return taken, full, err
}

// ReplaceSandboxUser replaces the description of clientID's user u.Username, filling u's
// id and creation time.
func (c *conn) ReplaceSandboxUser(ctx context.Context, clientID uuid.UUID, u *model.SandboxUser) (found bool, err error) {
	got, err := scanSandboxUser(c.pg.QueryRow(ctx, `UPDATE sandbox_users SET description = $3, updated_at = $4
		WHERE client_id = $1 AND username = $2 RETURNING `+sandboxUserColumns,
		clientID, u.Username, string(u.Description), u.UpdatedAt.Time))
	if isNoRows(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	*u = got
	return true, nil
}

// SandboxUsers lists clientID's users by username.
func (c *conn) SandboxUsers(ctx context.Context, clientID uuid.UUID) ([]model.SandboxUser, error) {
	rows, err := c.pg.Query(ctx, `SELECT `+sandboxUserColumns+` FROM sandbox_users WHERE client_id = $1 ORDER BY username`, clientID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (model.SandboxUser, error) { return scanSandboxUser(row) })
}

// SandboxUser reads clientID's user username.
func (c *conn) SandboxUser(ctx context.Context, clientID uuid.UUID, username string) (*model.SandboxUser, bool, error) {
	u, err := scanSandboxUser(c.pg.QueryRow(ctx, `SELECT `+sandboxUserColumns+` FROM sandbox_users WHERE client_id = $1 AND username = $2`,
		clientID, username))
	if isNoRows(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return &u, true, nil
}

// DeleteSandboxUser removes clientID's user username and returns it.
func (c *conn) DeleteSandboxUser(ctx context.Context, clientID uuid.UUID, username string) (*model.SandboxUser, bool, error) {
	u, err := scanSandboxUser(c.pg.QueryRow(ctx, `DELETE FROM sandbox_users WHERE client_id = $1 AND username = $2 RETURNING `+sandboxUserColumns,
		clientID, username))
	if isNoRows(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return &u, true, nil
}

// SandboxUserDescription is the sandbox institution's lookup (sandbox.UserLookup).
func (c *conn) SandboxUserDescription(ctx context.Context, clientID uuid.UUID, username string) ([]byte, bool, error) {
	var desc []byte
	err := c.pg.QueryRow(ctx, `SELECT description::text FROM sandbox_users WHERE client_id = $1 AND username = $2`, clientID, username).Scan(&desc)
	if isNoRows(err) {
		return nil, false, nil
	}
	return desc, err == nil, err
}
