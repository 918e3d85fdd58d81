package db

import (
	"bytes"
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/model"
)

// accountRow reads a row of (data, created_at, updated_at) as an account.
func accountRow(r pgx.CollectableRow) (*model.Account, error) {
	var raw []byte
	var c, u time.Time
	if err := r.Scan(&raw, &c, &u); err != nil {
		return nil, err
	}
	return scanAccount(raw, c, u)
}

func scanAccount(raw []byte, created, updated time.Time) (*model.Account, error) {
	var a model.Account
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, err
	}
	a.CreatedAt, a.UpdatedAt = model.NewTime(created), model.NewTime(updated)
	return &a, nil
}

// Accounts lists an item's accounts, optionally of one type, in a stable order.
func (d *DB) Accounts(ctx context.Context, itemID uuid.UUID, typ *string) ([]*model.Account, error) {
	rows, err := d.Pool.Query(ctx, `SELECT data, created_at, updated_at FROM accounts
		WHERE item_id = $1 AND ($2::text IS NULL OR type = $2) ORDER BY type DESC, data->>'subtype', id`, itemID, typ)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, accountRow)
}

// OwnedAccounts lists an item's accounts, as Accounts does, when the item is clientID's;
// found is false when it is not. One statement: GET /accounts is among the most frequent
// reads, and checking the owner apart cost a second round trip (and a third for the item's
// connector) on every call.
func (d *DB) OwnedAccounts(ctx context.Context, clientID, itemID uuid.UUID, typ *string) ([]*model.Account, bool, error) {
	rows, err := d.Pool.Query(ctx, `SELECT a.data, a.created_at, a.updated_at FROM items i
		LEFT JOIN accounts a ON a.item_id = i.id AND ($3::text IS NULL OR a.type = $3)
		WHERE i.id = $1 AND i.client_id = $2 ORDER BY a.type DESC, a.data->>'subtype', a.id`, itemID, clientID, typ)
	if err != nil {
		return nil, false, err
	}
	found := false
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (*model.Account, error) {
		found = true
		var raw []byte
		var c, u *time.Time
		if err := r.Scan(&raw, &c, &u); err != nil || raw == nil {
			return nil, err // the item's row alone: it has no account (of that type)
		}
		return scanAccount(raw, *c, *u)
	})
	if err != nil {
		return nil, false, err
	}
	out := list[:0]
	for _, a := range list {
		if a != nil {
			out = append(out, a)
		}
	}
	return out, found, nil
}

// OwnedAccountDocs is OwnedAccounts as finished JSON: each stored document with the row's
// createdAt and updatedAt written in by PostgreSQL in the API's format (model.TimeLayout),
// so GET /accounts copies them instead of decoding and encoding each one, which was a third
// of the route's CPU.
func (d *DB) OwnedAccountDocs(ctx context.Context, clientID, itemID uuid.UUID, typ *string) ([]json.RawMessage, bool, error) {
	rows, err := d.Pool.Query(ctx, `SELECT (a.data || jsonb_build_object(
			'createdAt', to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
			'updatedAt', to_char(a.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))::text
		FROM items i LEFT JOIN accounts a ON a.item_id = i.id AND ($3::text IS NULL OR a.type = $3)
		WHERE i.id = $1 AND i.client_id = $2 ORDER BY a.type DESC, a.data->>'subtype', a.id`, itemID, clientID, typ)
	if err != nil {
		return nil, false, err
	}
	// jsonb's text has a space after every colon and comma; the API answers compact JSON,
	// which scripts grep. Compacting is a scan of the bytes, no decoding.
	var buf bytes.Buffer
	docs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (json.RawMessage, error) {
		var doc []byte
		if err := r.Scan(&doc); err != nil || doc == nil {
			return nil, err
		}
		buf.Reset()
		if err := json.Compact(&buf, doc); err != nil {
			return nil, err
		}
		return bytes.Clone(buf.Bytes()), nil
	})
	if err != nil {
		return nil, false, err
	}
	out := make([]json.RawMessage, 0, len(docs))
	for _, doc := range docs {
		if doc != nil { // nil: the item's row alone, which has no account (of that type)
			out = append(out, doc)
		}
	}
	return out, len(docs) > 0, nil
}

// Account reads one account of clientID's items; found is false for other clients'.
func (d *DB) Account(ctx context.Context, clientID, id uuid.UUID) (*model.Account, bool, error) {
	var raw []byte
	var c, u time.Time
	err := d.Pool.QueryRow(ctx, `SELECT a.data, a.created_at, a.updated_at FROM accounts a JOIN items i ON i.id = a.item_id
		WHERE a.id = $1 AND i.client_id = $2`, id, clientID).Scan(&raw, &c, &u)
	if isNoRows(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	a, err := scanAccount(raw, c, u)
	return a, err == nil, err
}
