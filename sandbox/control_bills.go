package sandbox

import (
	"github.com/google/uuid"

	"ponte/model"
)

// applyBillChanges lays the bills sandbox control added, changed or removed
// (itemsync.Session.BillChanges) on the generated ones: a change to a bill this run does
// not generate is dropped, an added bill joins the list (lists sort bills by due date).
// The generated list is not changed in place.
func applyBillChanges(bills []model.CreditCardBill, changes []model.SandboxBillChange, now model.Time) []model.CreditCardBill {
	if len(changes) == 0 {
		return bills
	}
	byID := changesByID(changes, func(c model.SandboxBillChange) uuid.UUID { return c.BillID })
	out := layChanges(bills, byID, len(changes), func(b model.CreditCardBill) uuid.UUID { return b.ID }, always,
		func(c model.SandboxBillChange) string { return c.Operation }, func(b *model.CreditCardBill, c model.SandboxBillChange) {
			if c.DueDate != nil {
				b.DueDate = *c.DueDate
			}
			if c.TotalAmount != nil {
				b.TotalAmount = *c.TotalAmount
			}
			if c.MinimumPaymentAmount != nil {
				b.MinimumPaymentAmount = c.MinimumPaymentAmount
			}
		})
	for _, c := range changes {
		if c.Operation != "ADD" || c.DueDate == nil || c.TotalAmount == nil {
			continue
		}
		out = append(out, model.CreditCardBill{ID: c.BillID, AccountID: c.AccountID, DueDate: *c.DueDate, BillClosingDate: c.BillClosingDate,
			TotalAmount: *c.TotalAmount, TotalAmountCurrencyCode: "BRL", MinimumPaymentAmount: c.MinimumPaymentAmount,
			FinanceCharges: []model.CreditCardBillFinanceCharge{}, Payments: []model.CreditCardBillPayment{}, CreatedAt: now, UpdatedAt: now})
	}
	return out
}
