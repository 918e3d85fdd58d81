package sandbox

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

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

func TestLoginName(t *testing.T) {
	conns := map[int]*model.Connector{}
	for _, c := range Connectors() {
		conns[c.ID] = &c
	}
	for _, tc := range []struct {
		id     int
		params map[string]string
		want   string
	}{
		{0, map[string]string{"user": "ana", "password": "x"}, "ana"},
		{1, map[string]string{"user": "ana", "password": "x", "token": "1"}, "ana"},
		{2, map[string]string{"cnpj": "11222333000181", "cpf": "52998224725", "password": "12345678"}, "52998224725"},
		{3, map[string]string{"cpf": "52998224725", "password": "12345678"}, "52998224725"},
		{4, map[string]string{"cpf": "52998224725", "password": "123456"}, "52998224725"},
		{9, map[string]string{"cpf": "52998224725", "password": "12345678"}, "52998224725"},
		// No user or document to name one by, or no password: no custom user there.
		{8, map[string]string{"agency": "0001", "account": "12345", "password": "12345678"}, ""},
		{5, map[string]string{"cpf": "52998224725"}, ""},
		{SCRConnectorID, map[string]string{"document": "52998224725"}, ""},
	} {
		if got := LoginName(conns[tc.id], tc.params); got != tc.want {
			t.Errorf("connector %d: %q, want %q", tc.id, got, tc.want)
		}
	}
}
