package rest_test

import (
	"encoding/json"
	"testing"
	"time"
)

// A custom sandbox user connected through the official Node client (createItem by its
// username, updateItemMFA with the SMS code): the client reads the described account,
// transactions and identity.
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
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Account.Number != "777-1" || got.Account.Balance != 42.1 || got.FullName != "Cliente SDK" || len(got.Transactions) != 2 {
		t.Fatalf("the client read %+v", got)
	}
	for _, tx := range got.Transactions {
		if (tx.Description == "SALARIO" && (tx.Amount != 3000 || tx.Type != "CREDIT")) || (tx.Description == "MERCADO" && (tx.Amount != -85.9 || tx.Type != "DEBIT")) {
			t.Fatalf("the client read %+v", tx)
		}
	}
}
