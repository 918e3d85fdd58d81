package sandbox

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
)

// The control changes lay on the generated transactions: removed ones go, changed ones
// keep their id with the new fields, added ones join their account in date order, and each
// day's order is counted again.
func TestApplyTransactionChanges(t *testing.T) {
	day := func(d, h int) model.Time { return model.NewTime(time.Date(2026, 1, d, h, 0, 0, 0, time.UTC)) }
	acc1, acc2 := uuid.New(), uuid.New()
	gen := []model.Transaction{
		{ID: uuid.New(), AccountID: acc1, Date: day(1, 9), Description: "a", Amount: -1, Status: "POSTED", Order: 1},
		{ID: uuid.New(), AccountID: acc1, Date: day(3, 9), Description: "b", Amount: -2, Status: "POSTED", Order: 1},
		{ID: uuid.New(), AccountID: acc2, Date: day(2, 9), Description: "c", Amount: 3, Status: "POSTED", Order: 1},
	}
	str := func(s string) *string { return &s }
	amt := func(f float64) *float64 { return &f }
	added, gone := uuid.New(), uuid.New()
	d := day(1, 12)
	changes := []model.SandboxTransactionChange{
		{TransactionID: gen[1].ID, AccountID: acc1, Operation: "CHANGE", Description: str("B"), Amount: amt(-20), Status: str("PENDING")},
		{TransactionID: gen[2].ID, AccountID: acc2, Operation: "REMOVE"},
		{TransactionID: added, AccountID: acc1, Operation: "ADD", Date: &d, Description: str("new"), Amount: amt(-5), Type: str("DEBIT"), Status: str("POSTED")},
		{TransactionID: gone, AccountID: acc1, Operation: "CHANGE", Description: str("left the window")},
	}
	got := applyTransactionChanges(gen, changes, day(5, 0))
	want := []struct {
		id    uuid.UUID
		desc  string
		order int
	}{{gen[0].ID, "a", 1}, {added, "new", 2}, {gen[1].ID, "B", 1}}
	if len(got) != len(want) {
		t.Fatalf("got %d transactions: %+v", len(got), got)
	}
	for i, w := range want {
		if got[i].ID != w.id || got[i].Description != w.desc || got[i].Order != w.order {
			t.Fatalf("transaction %d: %+v, want %+v", i, got[i], w)
		}
	}
	if got[2].Amount != -20 || got[2].Status != "PENDING" || got[1].Type != "DEBIT" || got[1].CurrencyCode != "BRL" || got[1].Balance != nil {
		t.Fatalf("fields %+v", got)
	}
	if gen[1].Description != "b" {
		t.Fatal("the generated snapshot was changed in place")
	}
	if out := applyTransactionChanges(gen, nil, day(5, 0)); len(out) != 3 {
		t.Fatalf("no changes: %d transactions", len(out))
	}
}
