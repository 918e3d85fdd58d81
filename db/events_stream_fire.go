package db

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// Reads of the sandbox control surface's events fired on demand (webhooks/control_fire.go):
// what a transactions/* event says about an account's transactions.

// ItemAccountIDs lists an item's accounts, oldest first.
func (c *conn) ItemAccountIDs(ctx context.Context, itemID uuid.UUID) ([]uuid.UUID, error) {
	rows, err := c.pg.Query(ctx, `SELECT id FROM accounts WHERE item_id = $1 ORDER BY created_at, id`, itemID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
}

// TransactionSummary is what transactions/created tells of an account's transactions.
type TransactionSummary struct {
	Count        int
	MinDate      *time.Time
	MinCreatedAt *time.Time
}

// AccountTransactionSummary counts an account's transactions, with their earliest date and
// the moment the first of them was written.
func (c *conn) AccountTransactionSummary(ctx context.Context, accountID uuid.UUID) (*TransactionSummary, error) {
	s := new(TransactionSummary)
	item, err := c.itemOfAccount(ctx, accountID)
	if err != nil || item == nil {
		return s, err
	}
	err = c.pg.QueryRow(ctx, `SELECT count(*), min(date), min(created_at) FROM transactions WHERE item_id = $1 AND account_id = $2`, *item, accountID).
		Scan(&s.Count, &s.MinDate, &s.MinCreatedAt)
	return s, err
}

// LatestTransactionIDs lists up to limit of an account's transactions, latest date first.
func (c *conn) LatestTransactionIDs(ctx context.Context, accountID uuid.UUID, limit int) ([]uuid.UUID, error) {
	item, err := c.itemOfAccount(ctx, accountID)
	if err != nil || item == nil {
		return nil, err
	}
	rows, err := c.pg.Query(ctx, `SELECT id FROM transactions WHERE item_id = $1 AND account_id = $2 ORDER BY date DESC, id DESC LIMIT $3`, *item, accountID, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
}

// CountAccountTransactions counts how many of ids are transactions of the account.
func (c *conn) CountAccountTransactions(ctx context.Context, accountID uuid.UUID, ids []uuid.UUID) (int, error) {
	var n int
	item, err := c.itemOfAccount(ctx, accountID)
	if err != nil || item == nil {
		return 0, err
	}
	err = c.pg.QueryRow(ctx, `SELECT count(*) FROM transactions WHERE item_id = $1 AND account_id = $2 AND id = ANY($3)`, *item, accountID, ids).Scan(&n)
	return n, err
}

// itemOfAccount is the item an account belongs to (nil for no such account): a read of
// transactions that names the item is planned on its one partition, where one that names
// only the account probes all of them.
func (c *conn) itemOfAccount(ctx context.Context, accountID uuid.UUID) (*uuid.UUID, error) {
	var item uuid.UUID
	err := c.pg.QueryRow(ctx, `SELECT item_id FROM accounts WHERE id = $1`, accountID).Scan(&item)
	if isNoRows(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &item, nil
}
