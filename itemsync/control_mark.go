package itemsync

import (
	"context"
	"time"

	"ponte/db"
	"ponte/model"
)

// markCollected records this execution as the one that collected the pending data changes
// of sandbox control it read, for each product it collected (one it left out, as
// PARTIAL_SUCCESS does, marks nothing of its changes): the item's history of data actions.
func markCollected(ctx context.Context, tx *db.Tx, st *state, wanted func(model.Product) bool, now time.Time) error {
	s := st.sess
	if wanted(model.ProductTransactions) {
		if err := db.TransactionQueue.MarkApplied(ctx, tx, st.it.ID, st.ex.ID, s.TransactionChanges, now); err != nil {
			return err
		}
	}
	if wanted(model.ProductCreditCards) {
		if err := db.BillQueue.MarkApplied(ctx, tx, st.it.ID, st.ex.ID, s.BillChanges, now); err != nil {
			return err
		}
	}
	var inv []model.SandboxInvestmentChange
	for _, c := range s.InvestmentChanges {
		product := model.ProductInvestments
		if c.TransactionID != nil {
			product = model.ProductInvestmentsTransactions
		}
		if wanted(product) {
			inv = append(inv, c)
		}
	}
	return db.InvestmentQueue.MarkApplied(ctx, tx, st.it.ID, st.ex.ID, inv, now)
}
