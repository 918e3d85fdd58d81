package db

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/model"
)

// Transaction changes of sandbox control (sandbox_transaction_changes), one row per
// transaction: a changeKind (control_queue.go).
var txChanges = &changeKind[model.SandboxTransactionChange]{
	table: "sandbox_transaction_changes", key: "transaction_id",
	cols: []string{"item_id", "transaction_id", "account_id", "operation"},
	values: func(c *model.SandboxTransactionChange) []any {
		return []any{c.ItemID, c.TransactionID, c.AccountID, c.Operation}
	},
	stamps: func(c *model.SandboxTransactionChange) (*model.Time, **model.Time, *uuid.UUID) {
		return &c.RequestedAt, &c.AppliedAt, &c.Revision
	},
}

// SandboxTransactionChanges reads a sandbox item's transaction changes, oldest first.
func (c *conn) SandboxTransactionChanges(ctx context.Context, itemID uuid.UUID) ([]model.SandboxTransactionChange, error) {
	return changes(ctx, c.pg, txChanges, itemID)
}

// MarkSandboxTransactionChangesApplied records execID as the execution that collected the
// pending ones of the transaction changes it read; a row saved again meanwhile waits.
func (tx *Tx) MarkSandboxTransactionChangesApplied(ctx context.Context, itemID, execID uuid.UUID, read []model.SandboxTransactionChange, now time.Time) error {
	return markApplied(ctx, tx.pg, txChanges, itemID, execID, read, now)
}

// SandboxTransactionChange reads the change of one transaction, locked; nil when none.
func (tx *Tx) SandboxTransactionChange(ctx context.Context, itemID, transactionID uuid.UUID) (*model.SandboxTransactionChange, error) {
	return lockedChange(ctx, tx.pg, txChanges, itemID, transactionID)
}

// SaveSandboxTransactionChange writes the change of one transaction, replacing an earlier
// one: a new control action, pending again until an execution collects it.
func (tx *Tx) SaveSandboxTransactionChange(ctx context.Context, ch *model.SandboxTransactionChange) error {
	return saveChange(ctx, tx.pg, txChanges, ch)
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
