package db

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/model"
)

// TransactionChanges of sandbox control (sandbox_transaction_changes): the change row of
// each transaction is the latest wish, stored as the client sees it; requestedAt and
// appliedAt come from the row's columns, not the JSON (as the bills').

const txChangeCols = `change || jsonb_build_object('requestedAt', to_jsonb(created_at), 'appliedAt', to_jsonb(applied_at))`

// SandboxTransactionChanges reads a sandbox item's transaction changes, oldest first.
func (c *conn) SandboxTransactionChanges(ctx context.Context, itemID uuid.UUID) ([]model.SandboxTransactionChange, error) {
	rows, err := c.pg.Query(ctx, `SELECT `+txChangeCols+`, revision FROM sandbox_transaction_changes WHERE item_id = $1 ORDER BY created_at, transaction_id`, itemID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (model.SandboxTransactionChange, error) {
		var ch model.SandboxTransactionChange
		err := row.Scan(&ch, &ch.Revision)
		return ch, err
	})
}

// MarkSandboxTransactionChangesApplied records execID as the execution that collected the
// pending ones of the transaction changes it read; a row saved again meanwhile waits.
func (tx *Tx) MarkSandboxTransactionChangesApplied(ctx context.Context, itemID, execID uuid.UUID, read []model.SandboxTransactionChange, now time.Time) error {
	var revs []uuid.UUID
	for _, c := range read {
		if c.AppliedAt == nil {
			revs = append(revs, c.Revision)
		}
	}
	if len(revs) == 0 {
		return nil
	}
	_, err := tx.pg.Exec(ctx, `UPDATE sandbox_transaction_changes SET applied_execution_id = $2, applied_at = $4
		WHERE item_id = $1 AND revision = ANY($3) AND applied_at IS NULL`, itemID, execID, revs, now)
	return err
}

// SandboxTransactionChange reads the change of one transaction; nil when none.
func (tx *Tx) SandboxTransactionChange(ctx context.Context, itemID, transactionID uuid.UUID) (*model.SandboxTransactionChange, error) {
	var ch model.SandboxTransactionChange
	err := tx.pg.QueryRow(ctx, `SELECT `+txChangeCols+` FROM sandbox_transaction_changes WHERE item_id = $1 AND transaction_id = $2 FOR UPDATE`,
		itemID, transactionID).Scan(&ch)
	if err == pgx.ErrNoRows {
		return nil, nil
	}
	return &ch, err
}

// SaveSandboxTransactionChange writes the change of one transaction, replacing an earlier
// one: a new control action, pending again until an execution collects it.
func (tx *Tx) SaveSandboxTransactionChange(ctx context.Context, ch *model.SandboxTransactionChange) error {
	ch.AppliedAt = nil
	return tx.pg.QueryRow(ctx, `INSERT INTO sandbox_transaction_changes (item_id, transaction_id, account_id, operation, change, revision)
		VALUES ($1, $2, $3, $4, $5::jsonb - 'requestedAt' - 'appliedAt', $6)
		ON CONFLICT (item_id, transaction_id) DO UPDATE SET operation = EXCLUDED.operation, change = EXCLUDED.change,
			created_at = now(), applied_execution_id = NULL, applied_at = NULL, revision = EXCLUDED.revision
		RETURNING created_at`,
		ch.ItemID, ch.TransactionID, ch.AccountID, ch.Operation, ch, model.NewID()).Scan(&ch.RequestedAt)
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
