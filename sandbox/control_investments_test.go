package sandbox

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
)

// Investment changes lay on the generated investments and their transactions: a removed
// investment takes its transactions along, changed ones keep their ids with the new
// fields, added ones join (a transaction only on an investment delivered), changes to
// what is not generated are dropped, transactions stay in date order, and the generated
// lists are not touched.
func TestApplyInvestmentChanges(t *testing.T) {
	day := func(d int) model.Time { return model.NewTime(time.Date(2026, 1, d, 0, 0, 0, 0, time.UTC)) }
	f := func(v float64) *float64 { return &v }
	s := func(v string) *string { return &v }
	item := uuid.New()
	gen := []model.Investment{
		{ID: uuid.New(), ItemID: item, Name: "CDB", Type: "FIXED_INCOME", Balance: 100},
		{ID: uuid.New(), ItemID: item, Name: "FUND", Type: "MUTUAL_FUND", Balance: 200},
	}
	genTx := []model.InvestmentTransaction{
		{ID: uuid.New(), InvestmentID: gen[0].ID, Type: "BUY", Amount: f(100), Date: day(3)},
		{ID: uuid.New(), InvestmentID: gen[0].ID, Type: "BUY", Amount: f(5), Date: day(8)},
		{ID: uuid.New(), InvestmentID: gen[1].ID, Type: "BUY", Amount: f(200), Date: day(4)},
	}
	added, addedTx, onAdded, onGone, early := uuid.New(), uuid.New(), uuid.New(), uuid.New(), uuid.New()
	changedTx, removedTx, strayTx := genTx[0].ID, genTx[1].ID, uuid.New()
	d1, d6, d9 := day(1), day(6), day(9)
	changes := []model.SandboxInvestmentChange{
		{InvestmentID: gen[0].ID, Operation: "CHANGE", Name: s("CDB 2"), Balance: f(150)},
		{InvestmentID: gen[1].ID, Operation: "REMOVE"},
		{InvestmentID: added, ItemID: item, Operation: "ADD", Name: s("NEW"), Type: s("EQUITY"), Balance: f(42.5)},
		{InvestmentID: uuid.New(), Operation: "CHANGE", Balance: f(1)},
		{InvestmentID: gen[0].ID, TransactionID: &changedTx, Operation: "CHANGE", Amount: f(99), Date: &d9},
		{InvestmentID: gen[0].ID, TransactionID: &removedTx, Operation: "REMOVE"},
		{InvestmentID: gen[0].ID, TransactionID: &addedTx, Operation: "ADD", Type: s("SELL"), MovementType: s("DEBIT"), Date: &d6, Amount: f(7)},
		{InvestmentID: added, TransactionID: &onAdded, Operation: "ADD", Type: s("BUY"), MovementType: s("CREDIT"), Date: &d1, Amount: f(42.5)},
		{InvestmentID: gen[1].ID, TransactionID: &onGone, Operation: "ADD", Type: s("BUY"), MovementType: s("CREDIT"), Date: &d1, Amount: f(1)},
		{InvestmentID: gen[0].ID, TransactionID: &strayTx, Operation: "CHANGE", Amount: f(1)},
		{InvestmentID: gen[0].ID, TransactionID: &early, Operation: "ADD", Type: s("TAX"), MovementType: s("DEBIT"), Date: &d1, Amount: f(2)},
	}
	now := day(20)
	invs, txs := applyInvestmentChanges(gen, genTx, changes, now)
	if len(invs) != 2 || invs[0].ID != gen[0].ID || invs[0].Name != "CDB 2" || invs[0].Balance != 150 || *invs[0].Amount != 150 || invs[0].Type != "FIXED_INCOME" {
		t.Fatalf("investments %+v", invs)
	}
	if n := invs[1]; n.ID != added || n.ItemID != item || n.Name != "NEW" || n.Type != "EQUITY" || n.Balance != 42.5 || n.CurrencyCode != "BRL" || !n.CreatedAt.Equal(now.Time) {
		t.Fatalf("added investment %+v", n)
	}
	want := []uuid.UUID{onAdded, early, addedTx, changedTx} // same day: the order they were added in
	if len(txs) != len(want) {
		t.Fatalf("transactions %+v", txs)
	}
	for i, id := range want {
		if txs[i].ID != id {
			t.Fatalf("transaction %d is %s, want %s (date order)", i, txs[i].ID, id)
		}
	}
	if c := txs[3]; *c.Amount != 99 || *c.NetAmount != 99 || !c.Date.Equal(d9.Time) || c.Type != "BUY" {
		t.Fatalf("changed transaction %+v", c)
	}
	if a := txs[2]; a.InvestmentID != gen[0].ID || a.MovementType != "DEBIT" || *a.Amount != 7 {
		t.Fatalf("added transaction %+v", a)
	}
	if gen[0].Name != "CDB" || *genTx[0].Amount != 100 || len(gen) != 2 || len(genTx) != 3 {
		t.Fatal("the generated lists changed in place")
	}
	if i, x := applyInvestmentChanges(gen, genTx, nil, now); len(i) != 2 || len(x) != 3 {
		t.Fatal("no changes, other lists")
	}
	// An item whose sandbox generates no investment still gets the added one, and only
	// the transactions on it.
	i, x := applyInvestmentChanges(nil, nil, changes, now)
	if len(i) != 1 || i[0].ID != added || i[0].ItemID != item || len(x) != 1 || x[0].ID != onAdded {
		t.Fatalf("on nothing generated: %+v %+v", i, x)
	}
}
