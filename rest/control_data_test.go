package rest_test

import (
	"testing"

	"ponte/model"
	"ponte/testsupport"
)

// Sandbox control of data: transactions added, changed and removed
// through REST and GraphQL reach the client through the item's next execution, with the
// transactions/* events of the ordinary ingest; then hostile callers and input.

// sbEventsNamed is the item's events of one name, payloads oldest first.
func sbEventsNamed(t *testing.T, env *testsupport.Env, key, itemID, name string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, e := range env.Events(t, key, itemID) {
		if p := e["payload"].(map[string]any); p["event"] == name {
			out = append(out, p)
		}
	}
	return out
}

// sbSync runs the item's next execution and waits for it to end.
func sbSync(t *testing.T, env *testsupport.Env, key, id string) {
	t.Helper()
	env.Do(t, "POST", "/sandbox/items/"+id+"/sync", key, nil).Want(200)
	it, _ := env.WaitItem(t, key, id, testsupport.Settled)
	sbWant(t, it, model.ItemUpdated, model.ExecSuccess)
}

func TestSandboxControlData(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a, b := env.NewClient(t, "data-a"), env.NewClient(t, "data-b")
	it := sbItem(t, env, a.APIKey, "user-ok")
	id := it.ID.String()
	path := "/sandbox/items/" + id + "/transactions"
	var accounts struct{ Results []model.Account }
	env.Do(t, "GET", "/accounts?itemId="+id, a.APIKey, nil).Want(200).JSON(&accounts)
	var acc model.Account
	for _, x := range accounts.Results {
		if x.Type == "BANK" {
			acc = x
		}
	}
	var page struct{ Results []model.Transaction }
	env.Do(t, "GET", "/transactions?accountId="+acc.ID.String()+"&pageSize=500", a.APIKey, nil).Want(200).JSON(&page)
	if len(page.Results) < 2 {
		t.Fatalf("account %s has %d transactions", acc.ID, len(page.Results))
	}
	changed, removed := page.Results[0], page.Results[1]

	// Add (REST), change and remove (REST and GraphQL): nothing shows until the next execution.
	var added []model.SandboxTransactionChange
	env.Do(t, "POST", path, a.APIKey, map[string]any{"transactions": []any{
		map[string]any{"accountId": acc.ID, "date": "2026-01-15T12:00:00.000Z", "description": "Padaria Sandbox", "amount": -12.5, "type": "DEBIT"},
		map[string]any{"accountId": acc.ID, "date": "2026-01-16T12:00:00.000Z", "description": "Pix recebido", "amount": 100, "type": "CREDIT", "status": "PENDING", "category": "05000000"},
	}}).Want(200).JSON(&added)
	if len(added) != 2 || added[0].Operation != "ADD" || added[1].Status == nil || *added[1].Status != "PENDING" || *added[0].Status != "POSTED" {
		t.Fatalf("added %+v", added)
	}
	env.Do(t, "GET", "/transactions/"+added[0].TransactionID.String(), a.APIKey, nil).WantError(404, model.CodeTransactionNotFound.String())
	var ch model.SandboxTransactionChange
	env.Do(t, "PATCH", path+"/"+changed.ID.String(), a.APIKey, map[string]any{"description": "Mudou", "amount": -7.77}).Want(200).JSON(&ch)
	if ch.Operation != "CHANGE" || *ch.Description != "Mudou" || ch.AccountID != acc.ID {
		t.Fatalf("change %+v", ch)
	}
	d := env.GraphQL(t, a.APIKey, `mutation($id: UUID!, $t: UUID!) { sandboxRemoveTransaction(id: $id, transactionId: $t) { operation transactionId } }`,
		map[string]any{"id": id, "t": removed.ID}).OK(t)
	if r := d["sandboxRemoveTransaction"].(map[string]any); r["operation"] != "REMOVE" || r["transactionId"] != removed.ID.String() {
		t.Fatalf("GraphQL remove %v", r)
	}
	// A pending addition can be changed before any execution collects it.
	d = env.GraphQL(t, a.APIKey, `mutation($id: UUID!, $t: UUID!) { sandboxChangeTransaction(id: $id, transactionId: $t, input: {status: "POSTED"}) { operation status description } }`,
		map[string]any{"id": id, "t": added[1].TransactionID}).OK(t)
	if r := d["sandboxChangeTransaction"].(map[string]any); r["operation"] != "ADD" || r["status"] != "POSTED" || r["description"] != "Pix recebido" {
		t.Fatalf("GraphQL change of an addition %v", r)
	}

	sbSync(t, env, a.APIKey, id)
	var got model.Transaction
	env.Do(t, "GET", "/transactions/"+added[0].TransactionID.String(), a.APIKey, nil).Want(200).JSON(&got)
	if got.Description != "Padaria Sandbox" || got.Amount != -12.5 || got.Type != "DEBIT" || got.AccountID != acc.ID {
		t.Fatalf("added transaction %+v", got)
	}
	env.Do(t, "GET", "/transactions/"+added[1].TransactionID.String(), a.APIKey, nil).Want(200).JSON(&got)
	if got.Status != "POSTED" || got.CategoryID == nil || *got.CategoryID != "05000000" {
		t.Fatalf("added transaction %+v", got)
	}
	env.Do(t, "GET", "/transactions/"+changed.ID.String(), a.APIKey, nil).Want(200).JSON(&got)
	if got.Description != "Mudou" || got.Amount != -7.77 {
		t.Fatalf("changed transaction %+v", got)
	}
	env.Do(t, "GET", "/transactions/"+removed.ID.String(), a.APIKey, nil).WantError(404, model.CodeTransactionNotFound.String())

	// The generator adds the day's own transactions too: the events are looked for by
	// account and id, and each change fires once, however many executions follow.
	ours := func() int {
		n := 0
		for _, p := range sbEventsNamed(t, env, a.APIKey, id, "transactions/created") {
			if p["accountId"] == acc.ID.String() && p["transactionsMinDate"] == "2026-01-15T12:00:00.000Z" && p["triggeredBy"] == "SYNC" {
				n++
			}
		}
		return n
	}
	wantIDs := func(name, want string) {
		t.Helper()
		n := 0
		for _, p := range sbEventsNamed(t, env, a.APIKey, id, name) {
			for _, x := range p["transactionIds"].([]any) {
				if x == want && p["accountId"] == acc.ID.String() && p["triggeredBy"] == "SYNC" {
					n++
				}
			}
		}
		if n != 1 {
			t.Fatalf("%s names %s %d times, want once", name, want, n)
		}
	}
	if n := ours(); n != 1 {
		t.Fatalf("transactions/created of the added transactions: %d events", n)
	}
	wantIDs("transactions/updated", changed.ID.String())
	wantIDs("transactions/deleted", removed.ID.String())

	// The changes stay: a later execution keeps them and fires nothing for them again.
	sbSync(t, env, a.APIKey, id)
	if n := ours(); n != 1 {
		t.Fatalf("a second execution fired transactions/created again (%d)", n)
	}
	wantIDs("transactions/updated", changed.ID.String())
	wantIDs("transactions/deleted", removed.ID.String())
	env.Do(t, "GET", "/transactions/"+added[0].TransactionID.String(), a.APIKey, nil).Want(200)
	env.Do(t, "GET", "/transactions/"+removed.ID.String(), a.APIKey, nil).WantError(404, model.CodeTransactionNotFound.String())

	// A removed transaction, and one the item never had, are 404.
	env.Do(t, "PATCH", path+"/"+removed.ID.String(), a.APIKey, map[string]any{"description": "x"}).WantError(404, model.CodeTransactionNotFound.String())
	env.Do(t, "DELETE", path+"/"+removed.ID.String(), a.APIKey, nil).WantError(404, model.CodeTransactionNotFound.String())
	env.Do(t, "DELETE", path+"/"+it.ID.String(), a.APIKey, nil).WantError(404, model.CodeTransactionNotFound.String())

	// Bad input: refused, nothing recorded.
	good := map[string]any{"accountId": acc.ID, "date": "2026-01-15T12:00:00.000Z", "description": "x", "amount": 1, "type": "CREDIT"}
	with := func(k string, v any) map[string]any { return sbWith(good, k, v) }
	for _, tx := range []map[string]any{with("amount", 0), with("amount", 1.234), with("type", "BOTH"), with("status", "DONE"),
		with("description", "  "), with("accountId", it.ID), with("category", "abc"), with("date", nil)} {
		env.Do(t, "POST", path, a.APIKey, map[string]any{"transactions": []any{good, tx}}).WantError(400, model.CodeInvalidParameter.String())
	}
	env.Do(t, "POST", path, a.APIKey, map[string]any{"transactions": []any{}}).WantError(400, model.CodeInvalidParameter.String())
	env.Do(t, "PATCH", path+"/"+changed.ID.String(), a.APIKey, map[string]any{}).WantError(400, model.CodeInvalidParameter.String())
	env.Do(t, "PATCH", path+"/"+changed.ID.String(), a.APIKey, map[string]any{"amount": 0.001}).WantError(400, model.CodeInvalidParameter.String())

	sbRefuseStrangers(t, env, sbKind{noun: "transactions", item: id, owner: a.APIKey, stranger: b.APIKey, good: good,
		target: changed.ID.String(), patch: map[string]any{"description": "x"}})
	env.GraphQL(t, b.APIKey, `mutation($id: UUID!, $t: UUID!) { sandboxRemoveTransaction(id: $id, transactionId: $t) { operation } }`,
		map[string]any{"id": id, "t": changed.ID}).WantCode(t, model.CodeItemNotFound.String())

	// An addition through GraphQL; then nothing refused reached the data.
	d = env.GraphQL(t, a.APIKey, `mutation($id: UUID!, $acc: UUID!) { sandboxAddTransactions(id: $id, transactions: [{accountId: $acc,
		date: "2026-02-01T10:00:00.000Z", description: "Via GraphQL", amount: 42.1, type: "CREDIT"}]) { transactionId operation amount } }`,
		map[string]any{"id": id, "acc": acc.ID}).OK(t)
	viaGQL := d["sandboxAddTransactions"].([]any)[0].(map[string]any)
	if viaGQL["operation"] != "ADD" || viaGQL["amount"] != 42.1 {
		t.Fatalf("GraphQL addition %v", viaGQL)
	}
	sbSync(t, env, a.APIKey, id)
	env.Do(t, "GET", "/transactions/"+viaGQL["transactionId"].(string), a.APIKey, nil).Want(200).JSON(&got)
	if got.Description != "Via GraphQL" || got.Amount != 42.1 {
		t.Fatalf("GraphQL addition collected as %+v", got)
	}
	env.Do(t, "GET", "/transactions/"+changed.ID.String(), a.APIKey, nil).Want(200).JSON(&got)
	if got.Description != "Mudou" {
		t.Fatalf("a refused call changed the transaction: %+v", got)
	}
}
