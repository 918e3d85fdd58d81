package sandbox

import (
	"slices"

	"github.com/google/uuid"

	"ponte/model"
)

// applyTransactionChanges lays the transactions sandbox control added, changed or removed
// (itemsync.Session.TransactionChanges) on the generated ones: a change to a transaction
// this run does not generate (it left the window) is dropped, an added one goes on its
// account in date order, and each day's order is counted again. Balances stay the
// generator's; an added transaction has none.
func applyTransactionChanges(txs []model.Transaction, changes []model.SandboxTransactionChange, now model.Time) []model.Transaction {
	if len(changes) == 0 {
		return txs
	}
	byID := changesByID(changes, func(c model.SandboxTransactionChange) uuid.UUID { return c.TransactionID })
	out := layChanges(txs, byID, len(changes), func(t model.Transaction) uuid.UUID { return t.ID }, always,
		func(c model.SandboxTransactionChange) string { return c.Operation }, func(t *model.Transaction, c model.SandboxTransactionChange) {
			if c.Description != nil {
				t.Description = *c.Description
			}
			if c.Amount != nil {
				t.Amount = *c.Amount
			}
			if c.Status != nil {
				t.Status = *c.Status
			}
		})
	accounts := map[uuid.UUID]int{}
	for _, t := range out {
		if _, ok := accounts[t.AccountID]; !ok {
			accounts[t.AccountID] = len(accounts)
		}
	}
	for _, c := range changes {
		if c.Operation != "ADD" || c.Date == nil || c.Description == nil || c.Amount == nil || c.Type == nil || c.Status == nil {
			continue
		}
		if _, ok := accounts[c.AccountID]; !ok {
			accounts[c.AccountID] = len(accounts)
		}
		out = append(out, model.Transaction{ID: c.TransactionID, AccountID: c.AccountID, Date: *c.Date, Description: *c.Description,
			DescriptionRaw: c.Description, Amount: *c.Amount, Type: *c.Type, Status: *c.Status, CategoryID: c.Category,
			CurrencyCode: "BRL", CreatedAt: now, UpdatedAt: now})
	}
	slices.SortStableFunc(out, func(a, b model.Transaction) int {
		if d := accounts[a.AccountID] - accounts[b.AccountID]; d != 0 {
			return d
		}
		return a.Date.Compare(b.Date.Time)
	})
	var lastAcc uuid.UUID
	lastDay, order := int64(-1<<62), 0
	for i := range out {
		if day := out[i].Date.Unix() / 86400; day != lastDay || out[i].AccountID != lastAcc {
			lastDay, lastAcc, order = day, out[i].AccountID, 0
		}
		order++
		out[i].Order = order
	}
	return out
}
