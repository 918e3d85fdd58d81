package db

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/jsonscan"
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

// AccountDocs is Accounts as finished JSON, for an item whose owner is already known:
// GET /accounts copies the stored documents instead of decoding and encoding each one,
// which was a third of the route's CPU.
func (d *DB) AccountDocs(ctx context.Context, itemID uuid.UUID, typ *string) ([]json.RawMessage, error) {
	rows, err := d.Pool.Query(ctx, `SELECT data, created_at, updated_at FROM accounts
		WHERE item_id = $1 AND ($2::text IS NULL OR type = $2) ORDER BY type DESC, data->>'subtype', id`, itemID, typ)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (json.RawMessage, error) {
		var raw []byte
		var c, u time.Time
		if err := r.Scan(&raw, &c, &u); err != nil {
			return nil, err
		}
		return accountDoc(raw, c, u)
	})
}

// OwnedAccountDocs is OwnedAccounts as finished JSON (see AccountDocs); found is false
// when the item is not clientID's.
func (d *DB) OwnedAccountDocs(ctx context.Context, clientID, itemID uuid.UUID, typ *string) ([]json.RawMessage, bool, error) {
	rows, err := d.Pool.Query(ctx, `SELECT a.data, a.created_at, a.updated_at FROM items i
		LEFT JOIN accounts a ON a.item_id = i.id AND ($3::text IS NULL OR a.type = $3)
		WHERE i.id = $1 AND i.client_id = $2 ORDER BY a.type DESC, a.data->>'subtype', a.id`, itemID, clientID, typ)
	if err != nil {
		return nil, false, err
	}
	docs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (json.RawMessage, error) {
		var raw []byte
		var c, u *time.Time
		if err := r.Scan(&raw, &c, &u); err != nil || raw == nil {
			return nil, err // the item's row alone: it has no account (of that type)
		}
		return accountDoc(raw, *c, *u)
	})
	if err != nil {
		return nil, false, err
	}
	out := make([]json.RawMessage, 0, len(docs))
	for _, doc := range docs {
		if doc != nil {
			out = append(out, doc)
		}
	}
	return out, len(docs) > 0, nil
}

// accountDoc finishes a stored account document: compact (jsonb's text has a space after
// every colon and comma, and the API answers compact JSON, which scripts grep) and with
// the row's dates in createdAt and updatedAt. ReplaceAccounts stores those two as the zero
// time, a placeholder exactly as long as any date in model.TimeLayout, so each is
// overwritten where it stands. Writing them in with SQL (to_char into the jsonb) cost
// PostgreSQL a fifth more per GET /accounts, and PostgreSQL is what replicas share.
func accountDoc(raw []byte, created, updated time.Time) (json.RawMessage, error) {
	out, ok := jsonscan.Compact(make([]byte, 0, len(raw)), raw)
	if !ok {
		return nil, errors.New("a stored account is not JSON")
	}
	var dates [2]jsonscan.Span
	ok = jsonscan.Members(out, func(key []byte, v jsonscan.Span) {
		switch string(key) {
		case "createdAt":
			dates[0] = v
		case "updatedAt":
			dates[1] = v
		}
	})
	var b [len(model.TimeLayout)]byte
	for i, t := range [2]time.Time{created, updated} {
		at := dates[i]
		if !ok || at.End-at.Start != len(b)+2 || out[at.Start] != '"' {
			// Not the placeholder (a document stored some other way): the slow, sure path.
			a, err := scanAccount(raw, created, updated)
			if err != nil {
				return nil, err
			}
			return json.Marshal(a)
		}
		copy(out[at.Start+1:], model.NewTime(t).UTC().AppendFormat(b[:0], model.TimeLayout))
	}
	return out, nil
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
