package db

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/model"
)

// Investment changes of sandbox control (sandbox_investment_changes): one row per
// investment or investment transaction, the latest wish; requestedAt and appliedAt come
// from the row's columns.

const invChangeCols = `change || jsonb_build_object('requestedAt', to_jsonb(created_at), 'appliedAt', to_jsonb(applied_at))`

// SandboxInvestmentChanges reads a sandbox item's investment changes, oldest first.
func (c *conn) SandboxInvestmentChanges(ctx context.Context, itemID uuid.UUID) ([]model.SandboxInvestmentChange, error) {
	rows, err := c.pg.Query(ctx, `SELECT `+invChangeCols+`, revision FROM sandbox_investment_changes WHERE item_id = $1 ORDER BY created_at, target_id`, itemID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (model.SandboxInvestmentChange, error) {
		var ch model.SandboxInvestmentChange
		err := row.Scan(&ch, &ch.Revision)
		return ch, err
	})
}

// SandboxInvestmentChange reads the change of one investment or investment transaction
// (targetID), locked; nil when none.
func (tx *Tx) SandboxInvestmentChange(ctx context.Context, itemID, targetID uuid.UUID) (*model.SandboxInvestmentChange, error) {
	var ch model.SandboxInvestmentChange
	err := tx.pg.QueryRow(ctx, `SELECT `+invChangeCols+` FROM sandbox_investment_changes WHERE item_id = $1 AND target_id = $2 FOR UPDATE`,
		itemID, targetID).Scan(&ch)
	if err == pgx.ErrNoRows {
		return nil, nil
	}
	return &ch, err
}

// SaveSandboxInvestmentChange writes a change, replacing an earlier one of the same
// target: a new control action, pending again.
func (tx *Tx) SaveSandboxInvestmentChange(ctx context.Context, ch *model.SandboxInvestmentChange) error {
	ch.AppliedAt = nil
	return tx.pg.QueryRow(ctx, `INSERT INTO sandbox_investment_changes (item_id, target_id, investment_id, transaction_id, operation, change, revision)
		VALUES ($1, $2, $3, $4, $5, $6::jsonb - 'requestedAt' - 'appliedAt', $7)
		ON CONFLICT (item_id, target_id) DO UPDATE SET operation = EXCLUDED.operation, change = EXCLUDED.change,
			created_at = now(), applied_execution_id = NULL, applied_at = NULL, revision = EXCLUDED.revision
		RETURNING created_at`,
		ch.ItemID, ch.TargetID(), ch.InvestmentID, ch.TransactionID, ch.Operation, ch, model.NewID()).Scan(&ch.RequestedAt)
}

// MarkSandboxInvestmentChangesApplied records execID as the execution that collected the
// pending ones of the changes it read; a row saved again meanwhile waits.
func (tx *Tx) MarkSandboxInvestmentChangesApplied(ctx context.Context, itemID, execID uuid.UUID, read []model.SandboxInvestmentChange, now time.Time) error {
	var revs []uuid.UUID
	for _, c := range read {
		if c.AppliedAt == nil {
			revs = append(revs, c.Revision)
		}
	}
	if len(revs) == 0 {
		return nil
	}
	_, err := tx.pg.Exec(ctx, `UPDATE sandbox_investment_changes SET applied_execution_id = $2, applied_at = $4
		WHERE item_id = $1 AND revision = ANY($3) AND applied_at IS NULL`, itemID, execID, revs, now)
	return err
}

// ItemHasInvestment reports whether the item collected the investment.
func (tx *Tx) ItemHasInvestment(ctx context.Context, itemID, investmentID uuid.UUID) (bool, error) {
	var ok bool
	err := tx.pg.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM product_documents WHERE id = $1 AND item_id = $2 AND kind = 'investment')`,
		investmentID, itemID).Scan(&ok)
	return ok, err
}

// ItemInvestmentTransaction is the investment of a collected investment transaction of the
// item; found false when the item has no such transaction.
func (tx *Tx) ItemInvestmentTransaction(ctx context.Context, itemID, transactionID uuid.UUID) (uuid.UUID, bool, error) {
	var inv uuid.UUID
	err := tx.pg.QueryRow(ctx, `SELECT owner_id FROM product_documents WHERE id = $1 AND item_id = $2 AND kind = 'investment_transaction' AND owner_id IS NOT NULL`,
		transactionID, itemID).Scan(&inv)
	if err == pgx.ErrNoRows {
		return uuid.Nil, false, nil
	}
	return inv, err == nil, err
}
