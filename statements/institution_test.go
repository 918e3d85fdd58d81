package statements

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"pgregory.net/rapid"
)

// Whatever a file holds (one account in several statements, FITIDs repeated, identical
// lines without one), every transaction convert makes has its own id, and the same file
// always makes the same ids: the ingest's table key and the identity across uploads rest
// on both.
func TestConvertIDsUniqueAndStable(t *testing.T) {
	item := uuid.New()
	rapid.Check(t, func(r *rapid.T) {
		var f File
		for range rapid.IntRange(1, 4).Draw(r, "statements") {
			st := Statement{Account: Account{Kind: rapid.SampledFrom([]AccountKind{KindBank, KindCreditCard}).Draw(r, "kind"),
				BankID: "0260", Number: rapid.SampledFrom([]string{"1-2", "12", "3-4"}).Draw(r, "number")}}
			for range rapid.IntRange(0, 12).Draw(r, "lines") {
				st.Lines = append(st.Lines, Line{
					FITID:       rapid.SampledFrom([]string{"", "", "A", "B"}).Draw(r, "fitid"),
					Date:        time.Date(2026, 1, rapid.IntRange(1, 3).Draw(r, "day"), 0, 0, 0, 0, SaoPaulo),
					Amount:      rapid.SampledFrom([]int64{-100, 100, 0}).Draw(r, "amount"),
					Description: rapid.SampledFrom([]string{"PADARIA", "padaria ", "Padaria!", "MERCADO"}).Draw(r, "desc"),
				})
			}
			f.Statements = append(f.Statements, st)
		}
		first, again := convert(item, &f), convert(item, &f)
		ids := map[uuid.UUID]bool{}
		for i, tx := range first.Transactions {
			if ids[tx.ID] {
				r.Fatalf("transaction %d repeats id %s", i, tx.ID)
			}
			ids[tx.ID] = true
			if again.Transactions[i].ID != tx.ID {
				r.Fatalf("transaction %d has another id on a second reading", i)
			}
		}
		accounts := map[uuid.UUID]bool{}
		for _, a := range first.Accounts {
			if accounts[a.ID] {
				r.Fatalf("account %s listed twice", a.ID)
			}
			accounts[a.ID] = true
		}
	})
}

func TestTransactionKeyNormalizes(t *testing.T) {
	day := time.Date(2026, 1, 5, 12, 0, 0, 0, SaoPaulo)
	a := TransactionKey(Line{Date: day, Amount: -1250, Description: "Pão  de Açúcar - LOJA 12"})
	b := TransactionKey(Line{Date: day.Add(-11 * time.Hour), Amount: -1250, Description: "PAO DE ACUCAR LOJA 12"})
	if a != b || a != "line:2026-01-05|-1250|PAO DE ACUCAR LOJA 12" {
		t.Fatalf("%q, %q", a, b)
	}
	if TransactionKey(Line{Date: day, Amount: 1250, Description: "PAO DE ACUCAR LOJA 12"}) == a {
		t.Fatal("the amount's sign is part of the key")
	}
}
