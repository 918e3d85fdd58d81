package sandbox

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
)

// Bill changes lay on the generated bills: removed ones go, changed ones keep their id
// with the new fields, added ones join with empty charges and payments, a change to a bill
// not generated is dropped, and the generated list is not touched.
func TestApplyBillChanges(t *testing.T) {
	day := func(d int) model.Time { return model.NewTime(time.Date(2026, 1, d, 0, 0, 0, 0, time.UTC)) }
	acc := uuid.New()
	min := 10.0
	gen := []model.CreditCardBill{
		{ID: uuid.New(), AccountID: acc, DueDate: day(5), TotalAmount: 100, MinimumPaymentAmount: &min},
		{ID: uuid.New(), AccountID: acc, DueDate: day(10), TotalAmount: 200},
	}
	amt := func(f float64) *float64 { return &f }
	due, added := day(20), uuid.New()
	changes := []model.SandboxBillChange{
		{BillID: gen[0].ID, AccountID: acc, Operation: "CHANGE", TotalAmount: amt(150), MinimumPaymentAmount: amt(15)},
		{BillID: gen[1].ID, AccountID: acc, Operation: "REMOVE"},
		{BillID: added, AccountID: acc, Operation: "ADD", DueDate: &due, TotalAmount: amt(42.5)},
		{BillID: uuid.New(), AccountID: acc, Operation: "CHANGE", TotalAmount: amt(1)},
	}
	got := applyBillChanges(gen, changes, day(25))
	if len(got) != 2 || got[0].ID != gen[0].ID || got[0].TotalAmount != 150 || *got[0].MinimumPaymentAmount != 15 {
		t.Fatalf("changed bill: %+v", got)
	}
	if b := got[1]; b.ID != added || b.TotalAmount != 42.5 || b.TotalAmountCurrencyCode != "BRL" || !b.DueDate.Equal(due.Time) ||
		b.FinanceCharges == nil || b.Payments == nil || b.MinimumPaymentAmount != nil {
		t.Fatalf("added bill: %+v", b)
	}
	if gen[0].TotalAmount != 100 || *gen[0].MinimumPaymentAmount != 10 {
		t.Fatal("the generated bills were changed in place")
	}
	if out := applyBillChanges(gen, nil, day(25)); len(out) != 2 {
		t.Fatalf("no changes: %d bills", len(out))
	}
}
