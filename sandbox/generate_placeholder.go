// Placeholder until the sandbox data generator lands; replaced, not kept.
package sandbox

import (
	"fmt"
	"time"

	"github.com/google/uuid"

	"ponte/model"
)

type Snapshot struct {
	Accounts               []model.Account
	Transactions           []model.Transaction
	Investments            []model.Investment
	InvestmentTransactions []model.InvestmentTransaction
	Identity               *model.Identity
	Loans                  []model.Loan
	Bills                  []model.CreditCardBill
	Statements             []model.AccountStatement
}

func Generate(itemID uuid.UUID, connectorID int, username string, execution int, now time.Time) *Snapshot {
	acc := model.Account{ID: uuid.NewSHA1(itemID, []byte("acc")), Type: "BANK", Name: "Conta"}
	s := &Snapshot{Accounts: []model.Account{acc}, Identity: &model.Identity{ID: uuid.NewSHA1(itemID, []byte("id"))}}
	for i := 0; i < 200+execution*3; i++ {
		st := "POSTED"
		if i >= 200+execution*3-3 {
			st = "PENDING"
		}
		s.Transactions = append(s.Transactions, model.Transaction{ID: uuid.NewSHA1(itemID, []byte(fmt.Sprint("tx", i))), AccountID: acc.ID,
			Date: model.NewTime(now.AddDate(0, 0, -300+i)), Status: st, Amount: -10, Description: "x"})
	}
	return s
}
