package rest_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"ponte/model"
	"ponte/testsupport"
)

// Custom sandbox users: registered through REST and GraphQL, connected
// on a sandbox connector by username, collected as described, with the MFA and the error
// the description chooses; another application's users are invisible; hostile input is a
// 400 naming the field.

// suItem connects username with password on connector 0 and waits for it to settle.
func suItem(t *testing.T, env *testsupport.Env, key, username, password string) *model.Item {
	t.Helper()
	it := createItem(t, env, key, 0, map[string]any{"user": username, "password": password})
	got, _ := env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
	return got
}

func TestSandboxUsersCollect(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a, b := env.NewClient(t, "users-a"), env.NewClient(t, "users-b")

	body := sandboxUserBody("ana.teste")
	delete(body, "error")
	created := env.Do(t, "POST", "/sandbox/users", a.APIKey, body).Want(200).Map()
	if created["username"] != "ana.teste" || !testsupport.IsAPITime(created["createdAt"]) {
		t.Fatalf("created %v", created)
	}
	if d := created["description"].(map[string]any); d["mfa"] != "SMS" || len(d["accounts"].([]any)) != 2 {
		t.Fatalf("description not kept as given: %v", d)
	}
	env.Do(t, "POST", "/sandbox/users", a.APIKey, body).WantError(409, "SANDBOX_USER_ALREADY_EXISTS")
	if list := env.Do(t, "GET", "/sandbox/users", a.APIKey, nil).Want(200).Map()["results"].([]any); len(list) != 1 {
		t.Fatalf("A lists %v", list)
	}

	// B does not see A's user: not in its list, not by name, and not at the connector.
	if list := env.Do(t, "GET", "/sandbox/users", b.APIKey, nil).Want(200).Map()["results"].([]any); len(list) != 0 {
		t.Fatalf("B lists %v", list)
	}
	env.Do(t, "GET", "/sandbox/users/ana.teste", b.APIKey, nil).WantError(404, "SANDBOX_USER_NOT_FOUND")
	env.Do(t, "DELETE", "/sandbox/users/ana.teste", b.APIKey, nil).WantError(404, "SANDBOX_USER_NOT_FOUND")
	sbWant(t, suItem(t, env, b.APIKey, "ana.teste", "segredo-1"), model.ItemLoginError, model.ExecInvalidCredentials)

	// The password the description sets is the only one.
	sbWant(t, suItem(t, env, a.APIKey, "ana.teste", "wrong-password"), model.ItemLoginError, model.ExecInvalidCredentials)

	// SMS: the item asks for the code, then collects what the description says.
	it := suItem(t, env, a.APIKey, "ana.teste", "segredo-1")
	if it.Status != model.ItemWaitingUserInput || it.Parameter == nil || it.Parameter.Name != "phone" {
		t.Fatalf("item %s/%s asks %+v, want the SMS code", it.Status, it.ExecutionStatus, it.Parameter)
	}
	id := it.ID.String()
	env.Do(t, "POST", "/items/"+id+"/mfa", a.APIKey, map[string]any{"phone": "123456"}).Want(200)
	it, _ = env.WaitItem(t, a.APIKey, id, testsupport.Settled)
	sbWant(t, it, model.ItemUpdated, model.ExecSuccess)

	var accounts struct{ Results []model.Account }
	env.Do(t, "GET", "/accounts?itemId="+id, a.APIKey, nil).Want(200).JSON(&accounts)
	byNumber := map[string]model.Account{}
	for _, acc := range accounts.Results {
		byNumber[acc.Number] = acc
	}
	checking, card := byNumber["12345-6"], byNumber["4321"]
	if len(accounts.Results) != 2 || checking.Subtype != "CHECKING_ACCOUNT" || checking.Balance == nil || *checking.Balance != 1520.75 ||
		card.Type != "CREDIT" || card.Balance == nil || *card.Balance != 300 {
		t.Fatalf("accounts %+v", accounts.Results)
	}
	var txs struct{ Results []model.Transaction }
	env.Do(t, "GET", "/transactions?accountId="+checking.ID.String(), a.APIKey, nil).Want(200).JSON(&txs)
	if len(txs.Results) != 1 || txs.Results[0].Description != "PADARIA" || txs.Results[0].Amount != -12.5 || txs.Results[0].Type != "DEBIT" ||
		txs.Results[0].Date.Format("2006-01-02") != "2026-01-05" {
		t.Fatalf("checking transactions %+v", txs.Results)
	}
	env.Do(t, "GET", "/transactions?accountId="+card.ID.String(), a.APIKey, nil).Want(200).JSON(&txs)
	if len(txs.Results) != 5 {
		t.Fatalf("card has %d generated transactions, want 5", len(txs.Results))
	}
	ident := env.Do(t, "GET", "/identity?itemId="+id, a.APIKey, nil).Want(200).Map()
	if ident["fullName"] != "Ana Teste" || ident["document"] != "52998224725" {
		t.Fatalf("identity %v", ident)
	}
	inv := env.Do(t, "GET", "/investments?itemId="+id, a.APIKey, nil).Want(200).Map()["results"].([]any)
	loans := env.Do(t, "GET", "/loans?itemId="+id, a.APIKey, nil).Want(200).Map()["results"].([]any)
	if len(inv) != 1 || inv[0].(map[string]any)["name"] != "CDB Banco" || len(loans) != 1 || loans[0].(map[string]any)["productName"] != "Crédito pessoal" {
		t.Fatalf("investments %v, loans %v", inv, loans)
	}

	// The same seed gives the same generated rows to another item of the same user.
	other := suItem(t, env, a.APIKey, "ana.teste", "segredo-1")
	env.Do(t, "POST", "/items/"+other.ID.String()+"/mfa", a.APIKey, map[string]any{"phone": "123456"}).Want(200)
	env.WaitItem(t, a.APIKey, other.ID.String(), testsupport.Settled)
	var again struct{ Results []model.Transaction }
	env.Do(t, "GET", "/transactions?accountId="+env.AccountIDs(t, a.APIKey, other.ID.String())["CREDIT_CARD"], a.APIKey, nil).Want(200).JSON(&again)
	for i := range again.Results {
		if again.Results[i].Amount != txs.Results[i].Amount || again.Results[i].Description != txs.Results[i].Description {
			t.Fatalf("generated row %d differs: %+v vs %+v", i, again.Results[i], txs.Results[i])
		}
	}

	// Deleted: the username logs in no more.
	env.Do(t, "DELETE", "/sandbox/users/ana.teste", a.APIKey, nil).Want(200)
	env.Do(t, "GET", "/sandbox/users/ana.teste", a.APIKey, nil).WantError(404, "SANDBOX_USER_NOT_FOUND")
	sbWant(t, suItem(t, env, a.APIKey, "ana.teste", "segredo-1"), model.ItemLoginError, model.ExecInvalidCredentials)
}

func TestSandboxUsersErrorsAndMFA(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "users-steps").APIKey
	user := func(name, mfa string, fail map[string]any) {
		t.Helper()
		b := sandboxUserBody(name)
		delete(b, "password")
		b["mfa"] = mfa
		if fail == nil {
			delete(b, "error")
		} else {
			b["error"] = fail
		}
		env.Do(t, "POST", "/sandbox/users", key, b).Want(200)
	}

	// At login, with any password (the description sets none).
	user("locked", "NONE", map[string]any{"code": "ACCOUNT_LOCKED", "step": "LOGIN"})
	it := suItem(t, env, key, "locked", "anything")
	sbWant(t, it, model.ItemLoginError, model.ExecAccountLocked)

	// After the MFA answer.
	user("mfa-fails", "TOKEN", map[string]any{"code": "ACCOUNT_NEEDS_ACTION", "step": "MFA"})
	it = suItem(t, env, key, "mfa-fails", "xxxxxx")
	if it.Status != model.ItemWaitingUserInput {
		t.Fatalf("item %s/%s, want the token asked", it.Status, it.ExecutionStatus)
	}
	env.Do(t, "POST", "/items/"+it.ID.String()+"/mfa", key, map[string]any{"token": "123456"}).Want(200)
	it, _ = env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
	sbWant(t, it, model.ItemLoginError, model.ExecAccountNeedsAction)

	// While collecting a product.
	user("collect-fails", "NONE", map[string]any{"code": "CONNECTION_ERROR", "step": "COLLECT", "product": "TRANSACTIONS"})
	it = suItem(t, env, key, "collect-fails", "xxxxxx")
	if it.ExecutionStatus != model.ExecConnectionError {
		t.Fatalf("item %s/%s, want CONNECTION_ERROR", it.Status, it.ExecutionStatus)
	}

	// A QR code, approved on the institution's page.
	user("qr-user", "QR_CODE", nil)
	it = createItem(t, env, key, 0, map[string]any{"user": "qr-user", "password": "xxxxxx"})
	waiting, _ := env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
	if waiting.UserAction == nil || waiting.UserAction.Type != "qr" {
		t.Fatalf("item waits for %+v, want a QR code", waiting.UserAction)
	}
	link, _ := waiting.UserAction.Attributes["qr"].(string)
	resp, err := http.PostForm(link, url.Values{"decision": {"approve"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	it, _ = env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
	sbWant(t, it, model.ItemUpdated, model.ExecSuccess)
}

func TestSandboxUsersGraphQL(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a, b := env.NewClient(t, "users-gql-a"), env.NewClient(t, "users-gql-b")
	const sel = `{ id username description createdAt updatedAt }`
	desc := sandboxUserBody("gql-user")
	got := env.GraphQL(t, a.APIKey, `mutation($d: Map!) { createSandboxUser(description: $d) `+sel+` }`, map[string]any{"d": desc}).OK(t)
	if u := got["createSandboxUser"].(map[string]any); u["username"] != "gql-user" || u["description"].(map[string]any)["mfa"] != "SMS" {
		t.Fatalf("created %v", u)
	}
	env.GraphQL(t, a.APIKey, `mutation($d: Map!) { createSandboxUser(description: $d) { id } }`, map[string]any{"d": desc}).
		WantCode(t, "SANDBOX_USER_ALREADY_EXISTS")

	desc["mfa"] = "APP"
	delete(desc, "username") // the name comes from the argument
	got = env.GraphQL(t, a.APIKey, `mutation($d: Map!) { replaceSandboxUser(username: "gql-user", description: $d) `+sel+` }`,
		map[string]any{"d": desc}).OK(t)
	if u := got["replaceSandboxUser"].(map[string]any); u["description"].(map[string]any)["mfa"] != "APP" {
		t.Fatalf("replaced %v", u)
	}
	desc["username"] = "renamed"
	env.GraphQL(t, a.APIKey, `mutation($d: Map!) { replaceSandboxUser(username: "gql-user", description: $d) { id } }`, map[string]any{"d": desc}).
		WantCode(t, "SANDBOX_USER_INVALID")

	list := env.GraphQL(t, a.APIKey, `{ sandboxUsers `+sel+` }`, nil).OK(t)["sandboxUsers"].([]any)
	one := env.GraphQL(t, a.APIKey, `{ sandboxUser(username: "gql-user") `+sel+` }`, nil).OK(t)["sandboxUser"].(map[string]any)
	if len(list) != 1 || one["username"] != "gql-user" {
		t.Fatalf("list %v, one %v", list, one)
	}
	env.GraphQL(t, b.APIKey, `{ sandboxUser(username: "gql-user") { id } }`, nil).WantCode(t, "SANDBOX_USER_NOT_FOUND")
	if l := env.GraphQL(t, b.APIKey, `{ sandboxUsers { id } }`, nil).OK(t)["sandboxUsers"].([]any); len(l) != 0 {
		t.Fatalf("B lists %v", l)
	}
	env.GraphQL(t, b.APIKey, `mutation { deleteSandboxUser(username: "gql-user") { id } }`, nil).WantCode(t, "SANDBOX_USER_NOT_FOUND")
	env.GraphQL(t, a.APIKey, `mutation { deleteSandboxUser(username: "gql-user") { id } }`, nil).OK(t)
	env.GraphQL(t, a.APIKey, `{ sandboxUser(username: "gql-user") { id } }`, nil).WantCode(t, "SANDBOX_USER_NOT_FOUND")
}

func TestSandboxUsersHostile(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "users-hostile").APIKey
	with := func(change func(m map[string]any)) map[string]any {
		m := sandboxUserBody("hostile")
		change(m)
		return m
	}
	acc := func(m map[string]any) map[string]any { return m["accounts"].([]any)[0].(map[string]any) }
	many := make([]any, 1001)
	for i := range many {
		many[i] = map[string]any{"date": "2026-01-05", "description": "x", "amount": 1}
	}
	cases := []struct {
		body  any
		field string
	}{
		{with(func(m map[string]any) { m["username"] = "user-ok" }), "username"},
		{with(func(m map[string]any) { m["username"] = "user-ana" }), "username"},
		{with(func(m map[string]any) { m["username"] = "Ana Maria" }), "username"},
		{with(func(m map[string]any) { m["nickname"] = "x" }), "nickname"},
		{with(func(m map[string]any) { m["mfa"] = "PIGEON" }), "mfa"},
		{with(func(m map[string]any) { m["accounts"] = []any{} }), "accounts"},
		{with(func(m map[string]any) { acc(m)["balance"] = 1.005 }), "accounts[0].balance"},
		{with(func(m map[string]any) { acc(m)["balance"] = "1.00" }), "balance"},
		{with(func(m map[string]any) { acc(m)["type"] = "CRYPTO" }), "accounts[0].type"},
		{with(func(m map[string]any) { acc(m)["subtype"] = "CREDIT_CARD" }), "accounts[0].subtype"},
		{with(func(m map[string]any) { acc(m)["transactions"] = many }), "accounts[0].transactions"},
		{with(func(m map[string]any) { acc(m)["generate"] = map[string]any{"seed": 1, "size": 3} }), "accounts[0]"},
		{with(func(m map[string]any) {
			m["accounts"].([]any)[1].(map[string]any)["generate"] = map[string]any{"seed": 1, "size": 100000}
		}), "accounts[1].generate.size"},
		{with(func(m map[string]any) {
			acc(m)["transactions"].([]any)[0].(map[string]any)["date"] = "05/01/2026"
		}), "accounts[0].transactions[0].date"},
		{with(func(m map[string]any) { acc(m)["transactions"].([]any)[0].(map[string]any)["amount"] = 0 }), "accounts[0].transactions[0].amount"},
		{with(func(m map[string]any) { m["identity"].(map[string]any)["document"] = "123" }), "identity.document"},
		{with(func(m map[string]any) { m["error"] = map[string]any{"code": "SUCCESS", "step": "LOGIN"} }), "error.code"},
		{with(func(m map[string]any) { m["error"] = map[string]any{"code": "ACCOUNT_LOCKED", "step": "LATER"} }), "error.step"},
		{with(func(m map[string]any) {
			m["mfa"] = "NONE"
			m["error"] = map[string]any{"code": "ACCOUNT_LOCKED", "step": "MFA"}
		}), "error.step"},
		{with(func(m map[string]any) { m["loans"].([]any)[0].(map[string]any)["contractAmount"] = -5 }), "loans[0].contractAmount"},
		{with(func(m map[string]any) { m["investments"].([]any)[0].(map[string]any)["type"] = "TULIPS" }), "investments[0].type"},
		{with(func(m map[string]any) {
			var big []any
			for i := range 4 {
				rows := make([]any, 1000)
				for j := range rows {
					rows[j] = map[string]any{"date": "2026-01-05", "description": strings.Repeat("d", 100), "amount": 1}
				}
				big = append(big, map[string]any{"type": "BANK", "subtype": "SAVINGS_ACCOUNT", "number": strings.Repeat("9", i+1), "balance": 1, "transactions": rows})
			}
			m["accounts"] = big
		}), "bytes"},
		{[]any{1}, "JSON object"},
	}
	for _, c := range cases {
		m := env.Do(t, "POST", "/sandbox/users", key, c.body).WantError(400, "SANDBOX_USER_INVALID")
		if msg, _ := m["message"].(string); !strings.Contains(msg, c.field) {
			t.Errorf("refusal of a bad %s says %q", c.field, msg)
		}
	}
	env.Do(t, "GET", "/sandbox/users", key, nil).Want(200)
	if list := env.Do(t, "GET", "/sandbox/users", key, nil).Want(200).Map()["results"].([]any); len(list) != 0 {
		t.Fatalf("a refused description was kept: %v", list)
	}
	env.Do(t, "PUT", "/sandbox/users/nobody", key, sandboxUserBody("nobody")).WantError(404, "SANDBOX_USER_NOT_FOUND")
	env.Do(t, "POST", "/sandbox/users", key, sandboxUserBody("kept")).Want(200)
	env.Do(t, "PUT", "/sandbox/users/kept", key, sandboxUserBody("other")).WantError(400, "SANDBOX_USER_INVALID")

	// At most 100 users per application.
	for i := 1; i < 100; i++ {
		env.Do(t, "POST", "/sandbox/users", key, sandboxUserBody(fmt.Sprintf("many-%03d", i))).Want(200)
	}
	env.Do(t, "POST", "/sandbox/users", key, sandboxUserBody("one-too-many")).WantError(409, "SANDBOX_USER_LIMIT_REACHED")
	env.Do(t, "DELETE", "/sandbox/users/many-001", key, nil).Want(200)
	env.Do(t, "POST", "/sandbox/users", key, sandboxUserBody("one-too-many")).Want(200)
}
