package rest_test

import (
	"testing"
	"time"

	"ponte/model"
	"ponte/payments"
	"ponte/testsupport"
)

// Smart accounts: opened with their owner's data (each refusal naming its field), paid into
// by payment requests naming smartAccountId, their balance the sum of a double-entry ledger
// that, over every movement, sums to zero.
func TestSmartAccounts(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "smart accounts").APIKey
	other := env.NewClient(t, "smart accounts other").APIKey
	owner := map[string]any{"name": "Loja Exemplo", "taxNumber": "11.222.333/0001-81", "email": "loja@example.com", "phoneNumber": "+55 11 99999-0000", "isSandbox": true}
	for field, bad := range map[string]any{"name": "", "taxNumber": "11222333000180", "email": "loja", "phoneNumber": "12"} {
		body := map[string]any{}
		for k, v := range owner {
			body[k] = v
		}
		body[field] = bad
		code := model.CodeInvalidParameter.String()
		if field == "taxNumber" {
			code = model.CodeInvalidCNPJ.String()
		}
		env.Do(t, "POST", "/payments/smart-accounts", key, body).WantError(400, code)
	}
	var a model.SmartAccount
	env.Do(t, "POST", "/payments/smart-accounts", key, owner).Want(200).JSON(&a)
	if a.Type != "CHECKING_ACCOUNT" || a.Agency != "0001" || len(a.Number) != 8 || a.VerifyingDigit == "" || !a.IsSandbox || a.TaxNumber != "11222333000181" {
		t.Fatalf("smart account %+v", a)
	}
	id := a.ID.String()
	env.Do(t, "GET", "/payments/smart-accounts/"+id, other, nil).WantError(404, model.CodeSmartAccountNotFound.String())
	if m := env.Do(t, "GET", "/payments/smart-accounts", key, nil).Want(200).Map(); m["total"] != 1.0 {
		t.Fatalf("list %v", m)
	}
	var bal model.SmartAccountBalance
	env.Do(t, "GET", "/payments/smart-accounts/"+id+"/balance", key, nil).Want(200).JSON(&bal)
	if bal.Balance != 0 || bal.BlockedBalance != 0 || bal.ScheduledBalance != 0 {
		t.Fatalf("new account's balance %+v", bal)
	}

	env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 10, "smartAccountId": "2f0c4b7e-2f6e-4a53-9d7c-1f6c2b0a9e11"}).
		WantError(404, model.CodeSmartAccountNotFound.String())
	env.Do(t, "POST", "/payments/requests", other, map[string]any{"amount": 10, "smartAccountId": id}).WantError(404, model.CodeSmartAccountNotFound.String())
	pay := func(amount float64) {
		var p model.PaymentRequest
		env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": amount, "smartAccountId": id, "isSandbox": true}).Want(200).JSON(&p)
		if p.SmartAccount == nil || p.Recipient != nil {
			t.Fatalf("request into a smart account %+v", p)
		}
		var n model.PaymentIntent
		env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": p.ID, "connectorId": payConnector,
			"parameters": map[string]any{"cpf": happyCPF}}).Want(200).JSON(&n)
		consent(t, env, &n, "authorize")
		awaitIntent(t, env, key, n.ID.String(), payments.PaymentCompleted)
	}
	pay(120.5)
	pay(0.35)
	testsupport.Eventually(t, "the balance", 10*time.Second, func() bool {
		env.Do(t, "GET", "/payments/smart-accounts/"+id+"/balance", key, nil).Want(200).JSON(&bal)
		return bal.Balance == 120.85
	})
	if !bal.LastUpdatedAt.After(a.CreatedAt.Time) {
		t.Fatalf("balance %+v of an account opened %s", bal, a.CreatedAt)
	}
	env.AuditLedger(t)
	g := env.GraphQL(t, key, `query($id: UUID!) { smartAccountBalance(id: $id) { balance } smartAccounts { total } }`, map[string]any{"id": id}).OK(t)
	if g["smartAccountBalance"].(map[string]any)["balance"] != 120.85 {
		t.Fatalf("GraphQL balance %v", g)
	}
}
