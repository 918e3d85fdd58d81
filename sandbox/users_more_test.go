package sandbox

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/itemsync"
	"ponte/model"
)

const cardUser = `{"username":"52998224725",
 "accounts":[{"type":"CREDIT","subtype":"CREDIT_CARD","number":"5555","balance":120.5,
   "creditData":{"brand":"VISA","level":"GOLD","creditLimit":5000,"availableCreditLimit":4879.5,"balanceDueDate":"2026-02-10","status":"ACTIVE","holderType":"MAIN"},
   "bills":[{"dueDate":"2026-01-10","closingDate":"2026-01-03","totalAmount":300.25,"minimumPayment":45,
     "financeCharges":[{"type":"IOF","amount":1.2,"additionalInfo":"IOF"}]}]}],
 "investments":[{"name":"CDB X","type":"FIXED_INCOME","balance":1000,
   "transactions":[{"date":"2026-01-02","type":"BUY","amount":1000,"quantity":1,"value":1000},{"date":"2026-01-20","type":"TAX","amount":3.5}]}]}`

func TestParseUserCardsAndMovements(t *testing.T) {
	if _, err := ParseUser([]byte(cardUser)); err != nil {
		t.Fatalf("good user refused: %v", err)
	}
	bad := map[string]string{
		strings.Replace(cardUser, `"VISA"`, `"`+strings.Repeat("V", 41)+`"`, 1):                                       "accounts[0].creditData.brand",
		strings.Replace(cardUser, `"ACTIVE"`, `"OPEN"`, 1):                                                            "accounts[0].creditData.status",
		strings.Replace(cardUser, `"MAIN"`, `"OWNER"`, 1):                                                             "accounts[0].creditData.holderType",
		strings.Replace(cardUser, `4879.5`, `5000.01`, 1):                                                             "accounts[0].creditData.availableCreditLimit",
		strings.Replace(cardUser, `"creditLimit":5000`, `"creditLimit":-1`, 1):                                        "accounts[0].creditData.creditLimit",
		strings.Replace(cardUser, `"2026-02-10"`, `"10/02/2026"`, 1):                                                  "accounts[0].creditData.balanceDueDate",
		strings.Replace(cardUser, `"2026-01-10"`, `"2026-13-10"`, 1):                                                  "accounts[0].bills[0].dueDate",
		strings.Replace(cardUser, `"2026-01-03"`, `"2026-01-11"`, 1):                                                  "accounts[0].bills[0].closingDate",
		strings.Replace(cardUser, `300.25`, `"300"`, 1):                                                               "totalAmount",
		strings.Replace(cardUser, `"type":"IOF"`, `"type":"FEE"`, 1):                                                  "accounts[0].bills[0].financeCharges[0].type",
		strings.Replace(cardUser, `"amount":1.2`, `"amount":-1.2`, 1):                                                 "accounts[0].bills[0].financeCharges[0].amount",
		strings.Replace(cardUser, `"subtype":"CREDIT_CARD"`, `"subtype":"CHECKING_ACCOUNT"`, 1):                       "accounts[0].subtype",
		strings.Replace(strings.Replace(cardUser, `"CREDIT"`, `"BANK"`, 1), `"CREDIT_CARD"`, `"CHECKING_ACCOUNT"`, 1): "accounts[0].creditData",
		strings.Replace(cardUser, `"type":"BUY"`, `"type":"DIVIDEND"`, 1):                                             "investments[0].transactions[0].type",
		strings.Replace(cardUser, `"amount":3.5`, `"amount":0`, 1):                                                    "investments[0].transactions[1].amount",
		strings.Replace(cardUser, `"quantity":1`, `"quantity":-2`, 1):                                                 "investments[0].transactions[0].quantity",
		strings.Replace(cardUser, `"2026-01-20"`, `"yesterday"`, 1):                                                   "investments[0].transactions[1].date",
	}
	for in, field := range bad {
		_, err := ParseUser([]byte(in))
		var me *model.Error
		if !errors.As(err, &me) || me.Code != model.CodeSandboxUserInvalid || !strings.Contains(err.Error(), field) {
			t.Errorf("%s: got %v, want SANDBOX_USER_INVALID naming %s", field, err, field)
		}
	}
	twoDue := strings.Replace(cardUser, `"bills":[{`, `"bills":[{"dueDate":"2026-01-10","totalAmount":1},{`, 1)
	if _, err := ParseUser([]byte(twoDue)); err == nil || !strings.Contains(err.Error(), "accounts[0].bills[1].dueDate") {
		t.Errorf("two bills due on one day: %v", err)
	}
}

func TestSnapshotCardsAndMovements(t *testing.T) {
	u, err := ParseUser([]byte(cardUser))
	if err != nil {
		t.Fatal(err)
	}
	snap := u.Snapshot(uuid.New(), time.Date(2026, 2, 1, 12, 0, 0, 0, time.UTC))
	cd := snap.Accounts[0].CreditData
	if cd == nil || *cd.Brand != "VISA" || *cd.CreditLimit != 5000 || *cd.AvailableCreditLimit != 4879.5 || cd.MinimumPayment != nil ||
		cd.BalanceDueDate.Format(time.DateOnly) != "2026-02-10" || *cd.Status != "ACTIVE" {
		t.Fatalf("creditData %+v", cd)
	}
	if len(snap.Bills) != 1 || snap.Bills[0].AccountID != snap.Accounts[0].ID || snap.Bills[0].TotalAmount != 300.25 ||
		*snap.Bills[0].MinimumPaymentAmount != 45 || len(snap.Bills[0].FinanceCharges) != 1 || snap.Bills[0].FinanceCharges[0].Amount != 1.2 {
		t.Fatalf("bills %+v", snap.Bills)
	}
	txs := snap.InvestmentTransactions
	if len(txs) != 2 || txs[0].InvestmentID != snap.Investments[0].ID || txs[0].MovementType != "CREDIT" || txs[1].MovementType != "DEBIT" ||
		*txs[1].Amount != 3.5 || txs[1].Quantity != nil || *txs[0].Value != 1000 {
		t.Fatalf("investment transactions %+v", txs)
	}
}

// Every connector of the catalogue, with credentials naming a registered user by user
// parameter and CPF alike: only the isSandbox ones with a user parameter (0 and 1) find it;
// on the others an item is a real resource and keeps the generated data.
func TestCustomUserOnlyOnSandboxConnectors(t *testing.T) {
	looked := 0
	inst := Institution{Users: func(_ context.Context, _ uuid.UUID, name string) ([]byte, bool, error) {
		looked++
		return []byte(strings.Replace(cardUser, `"username":"52998224725"`, `"username":"`+name+`"`, 1)), true, nil
	}}
	found := map[int]bool{}
	for _, c := range Connectors() {
		for _, name := range []string{"52998224725", "ana.souza"} {
			params := map[string]string{"user": name, "cpf": "52998224725", "cnpj": "11222333000181", "document": "52998224725", "password": "12345678"}
			u, err := inst.customUser(context.Background(), &itemsync.Session{ClientID: uuid.New(), Connector: &c, Params: params})
			if err != nil {
				t.Fatalf("connector %d: %v", c.ID, err)
			}
			if u != nil {
				found[c.ID] = true
				if !c.IsSandbox || u.Username != name {
					t.Errorf("connector %d (isSandbox %v) connected %q by %q", c.ID, c.IsSandbox, u.Username, name)
				}
			}
		}
	}
	if len(found) != 2 || !found[0] || !found[1] || looked != 4 {
		t.Errorf("custom users found on %v after %d lookups, want on 0 and 1 only, 4 lookups", found, looked)
	}
}
