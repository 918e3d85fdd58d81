package db

import (
	"context"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/model"
)

// TransactionChanges of sandbox control (sandbox_transaction_changes): the change row of
// each transaction is the latest wish, stored as the client sees it.

// SandboxTransactionChanges reads a sandbox item's transaction changes, oldest first.
func (c *conn) SandboxTransactionChanges(ctx context.Context, itemID uuid.UUID) ([]model.SandboxTransactionChange, error) {
	rows, err := c.pg.Query(ctx, `SELECT change FROM sandbox_transaction_changes WHERE item_id = $1 ORDER BY created_at, transaction_id`, itemID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[model.SandboxTransactionChange])
}

// SandboxTransactionChange reads the change of one transaction; nil when none.
func (tx *Tx) SandboxTransactionChange(ctx context.Context, itemID, transactionID uuid.UUID) (*model.SandboxTransactionChange, error) {
	var ch model.SandboxTransactionChange
	err := tx.pg.QueryRow(ctx, `SELECT change FROM sandbox_transaction_changes WHERE item_id = $1 AND transaction_id = $2 FOR UPDATE`,
		itemID, transactionID).Scan(&ch)
	if err == pgx.ErrNoRows {
		return nil, nil
	}
	return &ch, err
}

// SaveSandboxTransactionChange writes the change of one transaction, replacing an earlier one.
func (tx *Tx) SaveSandboxTransactionChange(ctx context.Context, ch *model.SandboxTransactionChange) error {
	_, err := tx.pg.Exec(ctx, `INSERT INTO sandbox_transaction_changes (item_id, transaction_id, account_id, operation, change)
		VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (item_id, transaction_id) DO UPDATE SET operation = EXCLUDED.operation, change = EXCLUDED.change`,
		ch.ItemID, ch.TransactionID, ch.AccountID, ch.Operation, ch)
	return err
}

// ItemTransactionAccount is the account of a collected transaction of the item; found
// false when the item has no such transaction.
func (tx *Tx) ItemTransactionAccount(ctx context.Context, itemID, transactionID uuid.UUID) (uuid.UUID, bool, error) {
	var acc uuid.UUID
	err := tx.pg.QueryRow(ctx, `SELECT account_id FROM transactions WHERE id = $1 AND item_id = $2`, transactionID, itemID).Scan(&acc)
	if err == pgx.ErrNoRows {
		return uuid.Nil, false, nil
	}
	return acc, err == nil, err
}

// ItemHasAccount reports whether the account is one of the item's collected accounts.
func (tx *Tx) ItemHasAccount(ctx context.Context, itemID, accountID uuid.UUID) (bool, error) {
	var ok bool
	err := tx.pg.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM accounts WHERE id = $1 AND item_id = $2)`, accountID, itemID).Scan(&ok)
	return ok, err
}
