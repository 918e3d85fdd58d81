package db

import (
	"context"
	"time"

	"github.com/google/uuid"

	"ponte/model"
)

// CreateClient stores a new client application.
func (d *DB) CreateClient(ctx context.Context, c *model.ClientApplication) error {
	now := model.NewTime(time.Now())
	c.CreatedAt, c.UpdatedAt = now, now
	_, err := d.Bun.NewInsert().Model(c).Exec(ctx)
	return err
}

// Client reads one client application; found is false when there is none.
func (d *DB) Client(ctx context.Context, id uuid.UUID) (*model.ClientApplication, bool, error) {
	c := new(model.ClientApplication)
	err := d.Bun.NewSelect().Model(c).Where("id = ?", id).Scan(ctx)
	if isNoRows(err) {
		return nil, false, nil
	}
	return c, err == nil, err
}

// ClientEnabled reports whether the client exists and is enabled: the check every
// authenticated request makes, so it reads one indexed boolean.
func (d *DB) ClientEnabled(ctx context.Context, id uuid.UUID) (bool, error) {
	var enabled bool
	err := d.Pool.QueryRow(ctx, `SELECT enabled FROM client_applications WHERE id = $1`, id).Scan(&enabled)
	if isNoRows(err) {
		return false, nil
	}
	return enabled, err
}

// UpsertClient makes the client with c.ID exist with c's name and secret hash, leaving its
// enabled flag as an operator set it. created reports a new row.
func (d *DB) UpsertClient(ctx context.Context, c *model.ClientApplication) (created bool, err error) {
	now := model.NewTime(time.Now())
	c.CreatedAt, c.UpdatedAt = now, now
	var inserted bool
	err = d.Bun.NewInsert().Model(c).
		On("CONFLICT (id) DO UPDATE").
		Set("secret_hash = EXCLUDED.secret_hash, updated_at = EXCLUDED.updated_at").
		Returning("(xmax = 0) AS inserted").
		Scan(ctx, &inserted)
	return inserted, err
}

// SetClientEnabled enables or disables a client; found is false when there is none.
func (d *DB) SetClientEnabled(ctx context.Context, id uuid.UUID, enabled bool) (bool, error) {
	res, err := d.Bun.NewUpdate().Model((*model.ClientApplication)(nil)).
		Set("enabled = ?, updated_at = now()", enabled).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return false, err
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// ListClients lists every client application, oldest first.
func (d *DB) ListClients(ctx context.Context) ([]*model.ClientApplication, error) {
	var list []*model.ClientApplication
	err := d.Bun.NewSelect().Model(&list).Order("created_at", "id").Scan(ctx)
	return list, err
}

// ConnectTokenRow is the stored half of a connect token.
type ConnectTokenRow struct {
	ID        uuid.UUID                 `bun:"id,pk,type:uuid"`
	ClientID  uuid.UUID                 `bun:"client_id,type:uuid"`
	ItemID    *uuid.UUID                `bun:"item_id,type:uuid"`
	Options   model.ConnectTokenOptions `bun:"options,type:jsonb"`
	CreatedAt time.Time                 `bun:"created_at"`
	ExpiresAt time.Time                 `bun:"expires_at"`
}

// CreateConnectToken stores a connect token's row.
func (d *DB) CreateConnectToken(ctx context.Context, t *ConnectTokenRow) error {
	_, err := d.Bun.NewInsert().Model(t).ModelTableExpr("connect_tokens").Exec(ctx)
	return err
}

// ConnectToken reads a connect token's row; found is false when there is none.
func (d *DB) ConnectToken(ctx context.Context, id uuid.UUID) (*ConnectTokenRow, bool, error) {
	t := new(ConnectTokenRow)
	err := d.Bun.NewSelect().Model(t).ModelTableExpr("connect_tokens AS connect_token_row").Where("id = ?", id).Scan(ctx)
	if isNoRows(err) {
		return nil, false, nil
	}
	return t, err == nil, err
}

// ClientCount counts client applications.
func (d *DB) ClientCount(ctx context.Context) (int, error) {
	var n int
	err := d.Pool.QueryRow(ctx, `SELECT count(*) FROM client_applications`).Scan(&n)
	return n, err
}

// ClientRSAKey reads the client's sealed RSA key; nil when none was made yet.
func (d *DB) ClientRSAKey(ctx context.Context, id uuid.UUID) ([]byte, error) {
	var k []byte
	err := d.Pool.QueryRow(ctx, `SELECT rsa_key FROM client_applications WHERE id = $1`, id).Scan(&k)
	return k, err
}

// SetClientRSAKey stores a sealed key unless one exists.
func (d *DB) SetClientRSAKey(ctx context.Context, id uuid.UUID, sealed []byte) error {
	_, err := d.Pool.Exec(ctx, `UPDATE client_applications SET rsa_key = $2 WHERE id = $1 AND rsa_key IS NULL`, id, sealed)
	return err
}
