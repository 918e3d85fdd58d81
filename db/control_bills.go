package db

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/model"
)

// Bill changes of sandbox control (sandbox_bill_changes): one row per bill, the latest
// wish; requestedAt and appliedAt come from the row's columns, not the JSON.

const billChangeCols = `change || jsonb_build_object('requestedAt', to_jsonb(created_at), 'appliedAt', to_jsonb(applied_at))`

// SandboxBillChanges reads a sandbox item's bill changes, oldest first.
func (c *conn) SandboxBillChanges(ctx context.Context, itemID uuid.UUID) ([]model.SandboxBillChange, error) {
	rows, err := c.pg.Query(ctx, `SELECT `+billChangeCols+`, revision FROM sandbox_bill_changes WHERE item_id = $1 ORDER BY created_at, bill_id`, itemID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (model.SandboxBillChange, error) {
		var ch model.SandboxBillChange
		err := row.Scan(&ch, &ch.Revision)
		return ch, err
	})
}

// SandboxBillChange reads the change of one bill, locked; nil when none.
func (tx *Tx) SandboxBillChange(ctx context.Context, itemID, billID uuid.UUID) (*model.SandboxBillChange, error) {
	var ch model.SandboxBillChange
	err := tx.pg.QueryRow(ctx, `SELECT `+billChangeCols+` FROM sandbox_bill_changes WHERE item_id = $1 AND bill_id = $2 FOR UPDATE`,
		itemID, billID).Scan(&ch)
	if err == pgx.ErrNoRows {
		return nil, nil
	}
	return &ch, err
}

// SaveSandboxBillChange writes the change of one bill, replacing an earlier one: it is a
// new control action, pending again until an execution collects it.
func (tx *Tx) SaveSandboxBillChange(ctx context.Context, ch *model.SandboxBillChange) error {
	stored := *ch
	stored.AppliedAt = nil
	ch.AppliedAt = nil
	return tx.pg.QueryRow(ctx, `INSERT INTO sandbox_bill_changes (item_id, bill_id, account_id, operation, change, revision)
		VALUES ($1, $2, $3, $4, $5::jsonb - 'requestedAt' - 'appliedAt', $6)
		ON CONFLICT (item_id, bill_id) DO UPDATE SET operation = EXCLUDED.operation, change = EXCLUDED.change,
			created_at = now(), applied_execution_id = NULL, applied_at = NULL, revision = EXCLUDED.revision
		RETURNING created_at`,
		ch.ItemID, ch.BillID, ch.AccountID, ch.Operation, stored, model.NewID()).Scan(&ch.RequestedAt)
}

// MarkSandboxBillChangesApplied records execID as the execution that collected the
// pending ones of the bill changes it read. Only a row still as it was read: one saved
// again meanwhile waits for the next execution.
func (tx *Tx) MarkSandboxBillChangesApplied(ctx context.Context, itemID, execID uuid.UUID, read []model.SandboxBillChange, now time.Time) error {
	var revs []uuid.UUID
	for _, c := range read {
		if c.AppliedAt == nil {
			revs = append(revs, c.Revision)
		}
	}
	if len(revs) == 0 {
		return nil
	}
	_, err := tx.pg.Exec(ctx, `UPDATE sandbox_bill_changes SET applied_execution_id = $2, applied_at = $4
		WHERE item_id = $1 AND revision = ANY($3) AND applied_at IS NULL`, itemID, execID, revs, now)
	return err
}

// ItemBillAccount is the card account of a collected bill of the item; found false when
// the item has no such bill.
func (tx *Tx) ItemBillAccount(ctx context.Context, itemID, billID uuid.UUID) (uuid.UUID, bool, error) {
	var acc uuid.UUID
	err := tx.pg.QueryRow(ctx, `SELECT owner_id FROM product_documents WHERE id = $1 AND item_id = $2 AND kind = 'bill' AND owner_id IS NOT NULL`,
		billID, itemID).Scan(&acc)
	if err == pgx.ErrNoRows {
		return uuid.Nil, false, nil
	}
	return acc, err == nil, err
}

// ItemHasCardAccount reports whether the account is one of the item's credit cards.
func (tx *Tx) ItemHasCardAccount(ctx context.Context, itemID, accountID uuid.UUID) (bool, error) {
	var ok bool
	err := tx.pg.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM accounts WHERE id = $1 AND item_id = $2 AND type = 'CREDIT')`, accountID, itemID).Scan(&ok)
	return ok, err
}
