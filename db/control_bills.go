package db

import (
	"context"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/model"
)

// BillQueue is the bill changes of sandbox control (sandbox_bill_changes), one row per bill.
var BillQueue = &ChangeQueue[model.SandboxBillChange]{
	table: "sandbox_bill_changes", key: "bill_id",
	cols: []string{"item_id", "bill_id", "account_id", "operation"},
	values: func(c *model.SandboxBillChange) []any {
		return []any{c.ItemID, c.BillID, c.AccountID, c.Operation}
	},
	stamps: func(c *model.SandboxBillChange) (*model.Time, **model.Time, *uuid.UUID) {
		return &c.RequestedAt, &c.AppliedAt, &c.Revision
	},
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
