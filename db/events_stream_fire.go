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
	err := c.pg.QueryRow(ctx, `SELECT count(*), min(date), min(created_at) FROM transactions WHERE account_id = $1`, accountID).
		Scan(&s.Count, &s.MinDate, &s.MinCreatedAt)
	return s, err
}

// LatestTransactionIDs lists up to limit of an account's transactions, latest date first.
func (c *conn) LatestTransactionIDs(ctx context.Context, accountID uuid.UUID, limit int) ([]uuid.UUID, error) {
	rows, err := c.pg.Query(ctx, `SELECT id FROM transactions WHERE account_id = $1 ORDER BY date DESC, id DESC LIMIT $2`, accountID, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
}

// CountAccountTransactions counts how many of ids are transactions of the account.
func (c *conn) CountAccountTransactions(ctx context.Context, accountID uuid.UUID, ids []uuid.UUID) (int, error) {
	var n int
	err := c.pg.QueryRow(ctx, `SELECT count(*) FROM transactions WHERE account_id = $1 AND id = ANY($2)`, accountID, ids).Scan(&n)
	return n, err
}
