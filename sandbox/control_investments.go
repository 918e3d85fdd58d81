package sandbox

import (
	"slices"

	"github.com/google/uuid"

	"ponte/model"
)

// applyInvestmentChanges lays the investments and investment transactions sandbox control
// added, changed or removed (itemsync.Session.InvestmentChanges) on the generated ones: a
// change to one this run does not generate is dropped; a removed investment takes its
// transactions with it, and a transaction added to an investment not delivered is
// dropped too (nothing may point at an investment the client cannot read). Transactions
// stay in date order per investment. The generated lists are not changed in place.
func applyInvestmentChanges(invs []model.Investment, txs []model.InvestmentTransaction, changes []model.SandboxInvestmentChange, now model.Time) ([]model.Investment, []model.InvestmentTransaction) {
	if len(changes) == 0 {
		return invs, txs
	}
	byID := changesByID(changes, func(c model.SandboxInvestmentChange) uuid.UUID { return c.TargetID() })
	op := func(c model.SandboxInvestmentChange) string { return c.Operation }
	outInv := layChanges(invs, byID, len(changes), func(v model.Investment) uuid.UUID { return v.ID },
		func(c model.SandboxInvestmentChange) bool { return c.TransactionID == nil }, op,
		func(v *model.Investment, c model.SandboxInvestmentChange) { changeInvestment(v, c, now) })
	var item uuid.UUID
	if len(invs) > 0 {
		item = invs[0].ItemID
	}
	for _, c := range changes {
		if c.TransactionID != nil || c.Operation != "ADD" || c.Name == nil || c.Type == nil || c.Balance == nil {
			continue
		}
		if item == uuid.Nil {
			item = c.ItemID
		}
		v := model.Investment{ID: c.InvestmentID, ItemID: item, Type: *c.Type, Subtype: c.Subtype, Name: *c.Name, CurrencyCode: "BRL",
			Status: sp("ACTIVE"), Balance: *c.Balance, Amount: c.Balance, Quantity: c.Quantity, Value: c.Value, DueDate: c.DueDate,
			Date: &now, CreatedAt: now, UpdatedAt: now}
		outInv = append(outInv, v)
	}
	present := make(map[uuid.UUID]bool, len(outInv))
	for _, v := range outInv {
		present[v.ID] = true
	}
	kept := make([]model.InvestmentTransaction, 0, len(txs))
	for _, t := range txs {
		if present[t.InvestmentID] {
			kept = append(kept, t)
		}
	}
	outTx := layChanges(kept, byID, len(txs)-len(kept)+len(changes), func(t model.InvestmentTransaction) uuid.UUID { return t.ID },
		func(c model.SandboxInvestmentChange) bool { return c.TransactionID != nil }, op,
		func(t *model.InvestmentTransaction, c model.SandboxInvestmentChange) { changeInvestmentTx(t, c, now) })
	for _, c := range changes {
		if c.TransactionID == nil || c.Operation != "ADD" || !present[c.InvestmentID] || c.Type == nil || c.MovementType == nil || c.Date == nil || c.Amount == nil {
			continue
		}
		t := model.InvestmentTransaction{ID: *c.TransactionID, InvestmentID: c.InvestmentID, Type: *c.Type, MovementType: *c.MovementType,
			Description: c.Description, Quantity: c.Quantity, Value: c.Value, Amount: c.Amount, NetAmount: c.Amount, Date: *c.Date,
			TradeDate: c.Date, CreatedAt: now, UpdatedAt: now}
		outTx = append(outTx, t)
	}
	slices.SortStableFunc(outTx, func(a, b model.InvestmentTransaction) int { return a.Date.Compare(b.Date.Time) })
	return outInv, outTx
}

func changeInvestment(v *model.Investment, c model.SandboxInvestmentChange, now model.Time) {
	if c.Name != nil {
		v.Name = *c.Name
	}
	if c.Balance != nil {
		v.Balance = *c.Balance
		v.Amount = c.Balance
	}
	if c.Quantity != nil {
		v.Quantity = c.Quantity
	}
	if c.Value != nil {
		v.Value = c.Value
	}
	v.UpdatedAt = now
}

func changeInvestmentTx(t *model.InvestmentTransaction, c model.SandboxInvestmentChange, now model.Time) {
	if c.Description != nil {
		t.Description = c.Description
	}
	if c.Amount != nil {
		t.Amount, t.NetAmount = c.Amount, c.Amount
	}
	if c.Date != nil {
		t.Date, t.TradeDate = *c.Date, c.Date
	}
	t.UpdatedAt = now
}
