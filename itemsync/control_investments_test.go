package itemsync

import (
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
)

// The rules of an investment or investment transaction to add: the movement a type
// implies (TRANSFER must say), the types, texts and amounts taken, each refusal naming
// its field.
func TestAddedInvestmentRules(t *testing.T) {
	item, inv := uuid.New(), uuid.New()
	date := model.NewTime(time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC))
	s := func(v string) *string { return &v }
	f := func(v float64) *float64 { return &v }
	for typ, mov := range map[string]string{"BUY": "CREDIT", "SELL": "DEBIT", "TAX": "DEBIT"} {
		ch, err := addedInvestmentTransaction(item, inv, 0, model.SandboxInvestmentTransactionInput{Type: typ, Date: date, Amount: 1})
		if err != nil || *ch.MovementType != mov || ch.TransactionID == nil || ch.InvestmentID != inv || ch.TargetID() != *ch.TransactionID {
			t.Fatalf("%s: %+v %v", typ, ch, err)
		}
	}
	ch, err := addedInvestmentTransaction(item, inv, 0, model.SandboxInvestmentTransactionInput{Type: "BUY", MovementType: s("DEBIT"), Date: date, Amount: 1})
	if err != nil || *ch.MovementType != "DEBIT" {
		t.Fatalf("a stated movement is kept: %+v %v", ch, err)
	}
	for field, in := range map[string]model.SandboxInvestmentTransactionInput{
		"movementType": {Type: "TRANSFER", Date: date, Amount: 1},
		"type":         {Type: "buy", Date: date, Amount: 1},
		"date":         {Type: "BUY", Amount: 1},
		"amount":       {Type: "BUY", Date: date, Amount: 0.005},
		"quantity":     {Type: "BUY", Date: date, Amount: 1, Quantity: f(-1)},
		"description":  {Type: "BUY", Date: date, Amount: 1, Description: s("a\nb")},
	} {
		if _, err := addedInvestmentTransaction(item, inv, 3, in); err == nil || !strings.Contains(err.Error(), "transactions[3]."+field) {
			t.Errorf("%s: %v", field, err)
		}
	}
	ok := model.SandboxInvestmentInput{Name: "Ação", Type: "EQUITY", Balance: 0}
	if ch, err := addedInvestment(item, 0, ok); err != nil || ch.TransactionID != nil || ch.TargetID() != ch.InvestmentID || *ch.Balance != 0 {
		t.Fatalf("zero balance: %+v %v", ch, err)
	}
	if _, err := addedInvestment(item, 0, model.SandboxInvestmentInput{Name: strings.Repeat("é", 200), Type: "OTHER"}); err != nil {
		t.Fatalf("200 characters are taken: %v", err)
	}
	for field, in := range map[string]model.SandboxInvestmentInput{
		"name":    {Name: strings.Repeat("é", 201), Type: "EQUITY"},
		"type":    {Name: "x", Type: "CRYPTO"},
		"subtype": {Name: "x", Type: "EQUITY", Subtype: s(" ")},
		"balance": {Name: "x", Type: "EQUITY", Balance: -0.01},
		"value":   {Name: "x", Type: "EQUITY", Value: f(1e12)},
		"dueDate": {Name: "x", Type: "EQUITY", DueDate: &model.Time{}},
	} {
		if _, err := addedInvestment(item, 1, in); err == nil || !strings.Contains(err.Error(), "investments[1]."+field) {
			t.Errorf("%s: %v", field, err)
		}
	}
}
