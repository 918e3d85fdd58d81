package db

import (
	"context"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/model"
)

// TransactionQueue is the transaction changes of sandbox control (sandbox_transaction_changes), one row per
// transaction.
var TransactionQueue = &ChangeQueue[model.SandboxTransactionChange]{
	table: "sandbox_transaction_changes", key: "transaction_id",
	cols: []string{"item_id", "transaction_id", "account_id", "operation"},
	values: func(c *model.SandboxTransactionChange) []any {
		return []any{c.ItemID, c.TransactionID, c.AccountID, c.Operation}
	},
	stamps: func(c *model.SandboxTransactionChange) (*model.Time, **model.Time, *uuid.UUID) {
		return &c.RequestedAt, &c.AppliedAt, &c.Revision
	},
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
