package db

import (
	"context"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/model"
)

// InvestmentQueue is the investment changes of sandbox control (sandbox_investment_changes): one row per
// investment or investment transaction (target_id).
var InvestmentQueue = &ChangeQueue[model.SandboxInvestmentChange]{
	table: "sandbox_investment_changes", key: "target_id",
	cols: []string{"item_id", "target_id", "investment_id", "transaction_id", "operation"},
	values: func(c *model.SandboxInvestmentChange) []any {
		return []any{c.ItemID, c.TargetID(), c.InvestmentID, c.TransactionID, c.Operation}
	},
	stamps: func(c *model.SandboxInvestmentChange) (*model.Time, **model.Time, *uuid.UUID) {
		return &c.RequestedAt, &c.AppliedAt, &c.Revision
	},
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
