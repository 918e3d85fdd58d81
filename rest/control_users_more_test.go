package rest_test

import (
	"strings"
	"testing"

	"ponte/model"
	"ponte/testsupport"
)

// Custom sandbox users with card details, bills and investment movements, read back as
// described on a sandbox connector; the same CPF on a connector that is not isSandbox
// (its items are real resources) keeps that connector's generated data.

const suCPF = "52998224725"

// suDocItem connects on connector id with params, and waits.
func suDocItem(t *testing.T, env *testsupport.Env, key string, id int, params map[string]any) *model.Item {
	t.Helper()
	it := createItem(t, env, key, id, params)
	got, _ := env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
	return got
}

func TestSandboxUsersOnSandboxConnectorsOnly(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a, b := env.NewClient(t, "users-doc-a"), env.NewClient(t, "users-doc-b")
	// A CPF is a username too: the one connector 9 would log in with below.
	body := sandboxUserBody(suCPF)
	for _, k := range []string{"password", "mfa", "error"} {
		delete(body, k)
	}
	env.Do(t, "POST", "/sandbox/users", a.APIKey, body).Want(200)

	// Connector 0 (isSandbox, every retail product): all that is described comes back.
	// Connector 9 offers every retail product: all that is described comes back.
	it := suDocItem(t, env, a.APIKey, 0, map[string]any{"user": suCPF, "password": "qualquer-senha"})
	sbWant(t, it, model.ItemUpdated, model.ExecSuccess)
	id := it.ID.String()
	var accounts struct{ Results []model.Account }
	env.Do(t, "GET", "/accounts?itemId="+id, a.APIKey, nil).Want(200).JSON(&accounts)
	var card model.Account
	for _, acc := range accounts.Results {
		if acc.Type == "CREDIT" {
			card = acc
		}
	}
	cd := card.CreditData
	if len(accounts.Results) != 2 || cd == nil || cd.Brand == nil || *cd.Brand != "VISA" || cd.Level == nil || *cd.Level != "GOLD" ||
		cd.CreditLimit == nil || *cd.CreditLimit != 5000 || cd.AvailableCreditLimit == nil || *cd.AvailableCreditLimit != 4700 ||
		cd.MinimumPayment == nil || *cd.MinimumPayment != 45 || cd.BalanceDueDate == nil || cd.BalanceDueDate.Format("2006-01-02") != "2026-02-10" ||
		cd.BalanceCloseDate == nil || cd.BalanceCloseDate.Format("2006-01-02") != "2026-02-03" || cd.IsLimitFlexible == nil || *cd.IsLimitFlexible ||
		cd.Status == nil || *cd.Status != "ACTIVE" || cd.HolderType == nil || *cd.HolderType != "MAIN" {
		t.Fatalf("accounts %+v, card creditData %+v", accounts.Results, cd)
	}
	var bills struct{ Results []model.CreditCardBill }
	env.Do(t, "GET", "/bills?accountId="+card.ID.String(), a.APIKey, nil).Want(200).JSON(&bills)
	if len(bills.Results) != 1 {
		t.Fatalf("bills %+v", bills.Results)
	}
	bill := bills.Results[0]
	if bill.DueDate.Format("2006-01-02") != "2026-01-10" || bill.BillClosingDate == nil || bill.BillClosingDate.Format("2006-01-02") != "2026-01-03" ||
		bill.TotalAmount != 812.4 || bill.MinimumPaymentAmount == nil || *bill.MinimumPaymentAmount != 121.86 ||
		bill.AllowsInstallments == nil || !*bill.AllowsInstallments || len(bill.FinanceCharges) != 1 ||
		bill.FinanceCharges[0].Type != "LATE_PAYMENT_FEE" || bill.FinanceCharges[0].Amount != 16.25 {
		t.Fatalf("bill %+v", bill)
	}
	env.Do(t, "GET", "/bills/"+bill.ID.String(), a.APIKey, nil).Want(200)
	inv := env.Do(t, "GET", "/investments?itemId="+id, a.APIKey, nil).Want(200).Map()["results"].([]any)
	if len(inv) != 1 {
		t.Fatalf("investments %v", inv)
	}
	invID := inv[0].(map[string]any)["id"].(string)
	var movements struct{ Results []model.InvestmentTransaction }
	env.Do(t, "GET", "/investments/"+invID+"/transactions", a.APIKey, nil).Want(200).JSON(&movements)
	byType := map[string]model.InvestmentTransaction{}
	for _, m := range movements.Results {
		byType[m.Type] = m
	}
	buy, tax := byType["BUY"], byType["TAX"]
	if len(movements.Results) != 2 || buy.MovementType != "CREDIT" || buy.Amount == nil || *buy.Amount != 1000 || buy.Quantity == nil || *buy.Quantity != 1 ||
		buy.Description == nil || *buy.Description != "APLICACAO CDB" || tax.MovementType != "DEBIT" || tax.Amount == nil || *tax.Amount != 2.75 ||
		tax.Date.Format("2006-01-02") != "2026-01-31" {
		t.Fatalf("investment transactions %+v", movements.Results)
	}

	// The same through GraphQL.
	gq := env.GraphQL(t, a.APIKey, `query($a: UUID!, $i: UUID!) {
		account(id: $a) { creditData { brand creditLimit } bills { edges { node { totalAmount financeCharges { type amount } } } } }
		investmentTransactions(investmentId: $i) { edges { node { type movementType amount } } } }`,
		map[string]any{"a": card.ID.String(), "i": invID}).OK(t)
	gqAcc := gq["account"].(map[string]any)
	gqBills := gqAcc["bills"].(map[string]any)["edges"].([]any)
	gqMoves := gq["investmentTransactions"].(map[string]any)["edges"].([]any)
	if gqAcc["creditData"].(map[string]any)["brand"] != "VISA" || len(gqBills) != 1 ||
		gqBills[0].(map[string]any)["node"].(map[string]any)["totalAmount"] != 812.4 || len(gqMoves) != 2 {
		t.Fatalf("GraphQL read %v", gq)
	}

	// Connector 9 is not isSandbox: the same CPF logs in to its generated data, not the
	// description, even with a password the description refuses.
	body["password"] = "87654321"
	env.Do(t, "PUT", "/sandbox/users/"+suCPF, a.APIKey, body).Want(200)
	sbWant(t, suDocItem(t, env, a.APIKey, 0, map[string]any{"user": suCPF, "password": "12345678"}), model.ItemLoginError, model.ExecInvalidCredentials)
	it = suDocItem(t, env, a.APIKey, 9, map[string]any{"cpf": suCPF, "password": "12345678"})
	sbWant(t, it, model.ItemUpdated, model.ExecSuccess)
	env.Do(t, "GET", "/accounts?itemId="+it.ID.String(), a.APIKey, nil).Want(200).JSON(&accounts)
	if len(accounts.Results) == 0 {
		t.Fatal("connector 9 collected no generated account")
	}
	for _, acc := range accounts.Results {
		if acc.Number == "4321" || acc.Number == "12345-6" || (acc.CreditData != nil && acc.CreditData.Brand != nil && *acc.CreditData.Brand == "VISA" &&
			acc.CreditData.CreditLimit != nil && *acc.CreditData.CreditLimit == 5000) {
			t.Fatalf("connector 9 collected the custom user: %+v", accounts.Results)
		}
	}
	for _, i := range env.Do(t, "GET", "/investments?itemId="+it.ID.String(), a.APIKey, nil).Want(200).Map()["results"].([]any) {
		if i.(map[string]any)["name"] == "CDB Banco" {
			t.Fatalf("connector 9 collected the custom user's investment %v", i)
		}
	}
	gq = env.GraphQL(t, a.APIKey, `query($i: UUID!) { accounts(itemId: $i) { results { number } } }`,
		map[string]any{"i": it.ID.String()}).OK(t)
	for _, acc := range gq["accounts"].(map[string]any)["results"].([]any) {
		if n := acc.(map[string]any)["number"]; n == "4321" || n == "12345-6" {
			t.Fatalf("GraphQL: connector 9 collected the custom user %v", gq)
		}
	}

	// Another application's username is unknown on connector 0, as any.
	sbWant(t, suDocItem(t, env, b.APIKey, 0, map[string]any{"user": suCPF, "password": "qualquer-senha"}), model.ItemLoginError, model.ExecInvalidCredentials)
}

func TestSandboxUsersCardRulesNameTheField(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "users-card-rules").APIKey
	card := func(m map[string]any) map[string]any { return m["accounts"].([]any)[1].(map[string]any) }
	// Through GraphQL the description is kept with its card details, bills and movements.
	got := env.GraphQL(t, key, `mutation($d: Map!) { createSandboxUser(description: $d) { username description } }`,
		map[string]any{"d": sandboxUserBody("card-gql")}).OK(t)["createSandboxUser"].(map[string]any)
	desc := got["description"].(map[string]any)
	gqlCard := desc["accounts"].([]any)[1].(map[string]any)
	gqlInv := desc["investments"].([]any)[0].(map[string]any)
	if gqlCard["creditData"].(map[string]any)["brand"] != "VISA" || len(gqlCard["bills"].([]any)) != 1 || len(gqlInv["transactions"].([]any)) != 2 {
		t.Fatalf("GraphQL kept %v", desc)
	}
	for field, change := range map[string]func(m map[string]any){
		"accounts[1].creditData.status":               func(m map[string]any) { card(m)["creditData"].(map[string]any)["status"] = "FROZEN" },
		"accounts[1].creditData.availableCreditLimit": func(m map[string]any) { card(m)["creditData"].(map[string]any)["availableCreditLimit"] = 9000 },
		"accounts[1].bills[0].dueDate":                func(m map[string]any) { card(m)["bills"].([]any)[0].(map[string]any)["dueDate"] = "10/01/2026" },
		"accounts[1].bills[0].financeCharges[0].type": func(m map[string]any) {
			card(m)["bills"].([]any)[0].(map[string]any)["financeCharges"].([]any)[0].(map[string]any)["type"] = "FEE"
		},
		"accounts[0].bills": func(m map[string]any) { m["accounts"].([]any)[0].(map[string]any)["bills"] = card(m)["bills"] },
		"investments[0].transactions[1].type": func(m map[string]any) {
			m["investments"].([]any)[0].(map[string]any)["transactions"].([]any)[1].(map[string]any)["type"] = "GIFT"
		},
		"investments[0].transactions[0].quantity": func(m map[string]any) {
			m["investments"].([]any)[0].(map[string]any)["transactions"].([]any)[0].(map[string]any)["quantity"] = 0
		},
	} {
		body := sandboxUserBody("card-rules")
		change(body)
		e := env.Do(t, "POST", "/sandbox/users", key, body).WantError(400, "SANDBOX_USER_INVALID")
		if msg, _ := e["message"].(string); !strings.Contains(msg, field) {
			t.Errorf("%s: message %q does not name the field", field, msg)
		}
		// The same through GraphQL.
		env.GraphQL(t, key, `mutation($d: Map!) { createSandboxUser(description: $d) { id } }`, map[string]any{"d": body}).
			WantCode(t, "SANDBOX_USER_INVALID")
	}
}
