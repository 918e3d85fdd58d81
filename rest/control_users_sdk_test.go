package rest_test

import (
	"encoding/json"
	"testing"
	"time"
)

// A custom sandbox user connected through the official Node client (createItem by its
// username, updateItemMFA with the SMS code): the client reads the described account,
// transactions and identity, the card's creditData and bill, and the investment's movements.
func TestSandboxUserWithPluggySDK(t *testing.T) {
	t.Parallel()
	out := runPluggy(t, "pluggy-sdk users", "users.js", 2*time.Minute)
	var got struct {
		Account struct {
			Number  string
			Balance float64
		}
		Transactions []struct {
			Amount            float64
			Type, Description string
		}
		FullName string
		Card     struct {
			Brand                             string
			CreditLimit, AvailableCreditLimit float64
		}
		Bills []struct {
			TotalAmount float64
			Charges     []string
		}
		Movements []struct {
			Type, MovementType string
			Amount, Quantity   float64
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Account.Number != "777-1" || got.Account.Balance != 42.1 || got.FullName != "Cliente SDK" || len(got.Transactions) != 2 {
		t.Fatalf("the client read %+v", got)
	}
	if got.Card.Brand != "ELO" || got.Card.CreditLimit != 2000 || got.Card.AvailableCreditLimit != 1750 ||
		len(got.Bills) != 1 || got.Bills[0].TotalAmount != 410.3 || len(got.Bills[0].Charges) != 1 || got.Bills[0].Charges[0] != "IOF:2.1" ||
		len(got.Movements) != 1 || got.Movements[0].Type != "BUY" || got.Movements[0].MovementType != "CREDIT" ||
		got.Movements[0].Amount != 500 || got.Movements[0].Quantity != 0.03 {
		t.Fatalf("the client read card %+v, bills %+v, movements %+v", got.Card, got.Bills, got.Movements)
	}
	for _, tx := range got.Transactions {
		if (tx.Description == "SALARIO" && (tx.Amount != 3000 || tx.Type != "CREDIT")) || (tx.Description == "MERCADO" && (tx.Amount != -85.9 || tx.Type != "DEBIT")) {
			t.Fatalf("the client read %+v", tx)
		}
	}
}
