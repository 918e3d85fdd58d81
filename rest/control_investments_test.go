package rest_test

import (
	"strings"
	"testing"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/testsupport"
)

// Sandbox control of investments: investments and investment transactions added, changed
// and removed through REST and GraphQL reach the client through the item's next
// execution and no event; each change is listed with when an execution collected it;
// then hostile callers and input.
func TestSandboxControlInvestments(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a, b := env.NewClient(t, "inv-a"), env.NewClient(t, "inv-b")
	it := sbItem(t, env, a.APIKey, "user-ok")
	id := it.ID.String()
	path := "/sandbox/items/" + id + "/investments"
	var invs struct{ Results []model.Investment }
	env.Do(t, "GET", "/investments?itemId="+id, a.APIKey, nil).Want(200).JSON(&invs)
	if len(invs.Results) < 3 {
		t.Fatalf("the sandbox item has %d investments", len(invs.Results))
	}
	changed, removed := invs.Results[0], invs.Results[1]
	txsOf := func(inv string) []model.InvestmentTransaction {
		var page struct{ Results []model.InvestmentTransaction }
		env.Do(t, "GET", "/investments/"+inv+"/transactions?pageSize=500", a.APIKey, nil).Want(200).JSON(&page)
		return page.Results
	}
	oldTxs := txsOf(changed.ID.String())
	removedTxs := txsOf(removed.ID.String())
	if len(oldTxs) == 0 || len(removedTxs) == 0 {
		t.Fatalf("investments without transactions: %d, %d", len(oldTxs), len(removedTxs))
	}
	oldTx := oldTxs[0]
	listChanges := func() []model.SandboxInvestmentChange {
		var out []model.SandboxInvestmentChange
		env.Do(t, "GET", path, a.APIKey, nil).Want(200).JSON(&out)
		return out
	}
	if got := listChanges(); got == nil || len(got) != 0 {
		t.Fatalf("no changes yet: %+v", got)
	}

	// Add an investment (REST) and a transaction to it (GraphQL), change a collected one
	// and its transaction (REST), remove another (GraphQL): nothing shows until the next
	// execution.
	var added []model.SandboxInvestmentChange
	env.Do(t, "POST", path, a.APIKey, map[string]any{"investments": []any{map[string]any{"name": "CDB Sandbox 120% CDI", "type": "FIXED_INCOME",
		"subtype": "CDB", "balance": 5000.25, "dueDate": "2029-01-10T00:00:00.000Z"}}}).Want(200).JSON(&added)
	if len(added) != 1 || added[0].Operation != "ADD" || added[0].TransactionID != nil || *added[0].Balance != 5000.25 ||
		added[0].RequestedAt.IsZero() || added[0].AppliedAt != nil {
		t.Fatalf("added %+v", added)
	}
	newInv := added[0].InvestmentID.String()
	env.Do(t, "GET", "/investments/"+newInv, a.APIKey, nil).WantError(404, model.CodeInvestmentNotFound.String())
	d := env.GraphQL(t, a.APIKey, `mutation($id: UUID!, $inv: UUID!) { sandboxAddInvestmentTransactions(id: $id, investmentId: $inv,
		transactions: [{type: "BUY", date: "2026-01-05T10:00:00.000Z", amount: 5000.25, quantity: 1, description: "APLICACAO CDB SANDBOX"}]) {
		investmentId transactionId operation movementType appliedAt } }`, map[string]any{"id": id, "inv": newInv}).OK(t)
	addedTx := d["sandboxAddInvestmentTransactions"].([]any)[0].(map[string]any)
	if addedTx["investmentId"] != newInv || addedTx["transactionId"] == nil || addedTx["operation"] != "ADD" || addedTx["movementType"] != "CREDIT" ||
		addedTx["appliedAt"] != nil {
		t.Fatalf("GraphQL transaction addition %v", addedTx)
	}
	var ch model.SandboxInvestmentChange
	env.Do(t, "PATCH", path+"/"+changed.ID.String(), a.APIKey, map[string]any{"name": "Renomeado", "balance": 42.1}).Want(200).JSON(&ch)
	if ch.Operation != "CHANGE" || *ch.Name != "Renomeado" || *ch.Balance != 42.1 || ch.TransactionID != nil {
		t.Fatalf("change %+v", ch)
	}
	txPath := path + "/" + changed.ID.String() + "/transactions/" + oldTx.ID.String()
	env.Do(t, "PATCH", txPath, a.APIKey, map[string]any{"amount": 77.7, "description": "MUDADA"}).Want(200).JSON(&ch)
	if ch.Operation != "CHANGE" || *ch.Amount != 77.7 || ch.TransactionID == nil || *ch.TransactionID != oldTx.ID || ch.InvestmentID != changed.ID {
		t.Fatalf("transaction change %+v", ch)
	}
	d = env.GraphQL(t, a.APIKey, `mutation($id: UUID!, $inv: UUID!) { sandboxRemoveInvestment(id: $id, investmentId: $inv) { operation investmentId } }`,
		map[string]any{"id": id, "inv": removed.ID}).OK(t)
	if r := d["sandboxRemoveInvestment"].(map[string]any); r["operation"] != "REMOVE" || r["investmentId"] != removed.ID.String() {
		t.Fatalf("GraphQL remove %v", r)
	}
	if got := listChanges(); len(got) != 5 {
		t.Fatalf("pending changes %+v", got)
	}
	env.Do(t, "GET", "/investments/"+removed.ID.String(), a.APIKey, nil).Want(200)
	before := len(env.Events(t, a.APIKey, id))

	sbSync(t, env, a.APIKey, id)
	var got model.Investment
	env.Do(t, "GET", "/investments/"+newInv, a.APIKey, nil).Want(200).JSON(&got)
	if got.Name != "CDB Sandbox 120% CDI" || got.Type != "FIXED_INCOME" || got.Balance != 5000.25 || got.ItemID != it.ID || got.DueDate == nil {
		t.Fatalf("added investment %+v", got)
	}
	if txs := txsOf(newInv); len(txs) != 1 || txs[0].ID.String() != addedTx["transactionId"] || *txs[0].Amount != 5000.25 || txs[0].Type != "BUY" {
		t.Fatalf("added investment's transactions %+v", txs)
	}
	env.Do(t, "GET", "/investments/"+changed.ID.String(), a.APIKey, nil).Want(200).JSON(&got)
	if got.Name != "Renomeado" || got.Balance != 42.1 || got.Type != changed.Type {
		t.Fatalf("changed investment %+v", got)
	}
	var gotTx *model.InvestmentTransaction
	for _, tx := range txsOf(changed.ID.String()) {
		if tx.ID == oldTx.ID {
			gotTx = &tx
		}
	}
	if gotTx == nil || *gotTx.Amount != 77.7 || *gotTx.Description != "MUDADA" || gotTx.Type != oldTx.Type {
		t.Fatalf("changed transaction %+v", gotTx)
	}
	env.Do(t, "GET", "/investments/"+removed.ID.String(), a.APIKey, nil).WantError(404, model.CodeInvestmentNotFound.String())
	applied := func(c model.SandboxInvestmentChange) *model.Time { return c.AppliedAt }
	history := listChanges()
	sbAllMarked(t, history, applied, env.Item(t, a.APIKey, id))
	// No investment event exists in the interface: the sync fired none of its own.
	sbNoEventOf(t, env, a.APIKey, id, before, "invest")

	// A later execution keeps the changes, and the marks stay the first one's.
	sbSync(t, env, a.APIKey, id)
	env.Do(t, "GET", "/investments/"+newInv, a.APIKey, nil).Want(200)
	env.Do(t, "GET", "/investments/"+removed.ID.String(), a.APIKey, nil).WantError(404, model.CodeInvestmentNotFound.String())
	sbMarksKept(t, listChanges(), history, applied)
	// Changed again, the change waits again.
	env.Do(t, "PATCH", txPath, a.APIKey, map[string]any{"date": "2025-12-01T00:00:00.000Z"}).Want(200).JSON(&ch)
	if ch.AppliedAt != nil || *ch.Amount != 77.7 || ch.Date == nil {
		t.Fatalf("changed again %+v", ch)
	}

	// Removed, or never had: 404 with the resource's code.
	rmTx := path + "/" + removed.ID.String() + "/transactions/" + removedTxs[0].ID.String()
	env.Do(t, "PATCH", path+"/"+removed.ID.String(), a.APIKey, map[string]any{"balance": 1}).WantError(404, model.CodeInvestmentNotFound.String())
	env.Do(t, "DELETE", path+"/"+removed.ID.String(), a.APIKey, nil).WantError(404, model.CodeInvestmentNotFound.String())
	env.Do(t, "DELETE", rmTx, a.APIKey, nil).WantError(404, model.CodeInvestmentNotFound.String())
	env.Do(t, "POST", path+"/"+uuid.NewString()+"/transactions", a.APIKey, map[string]any{"transactions": []any{
		map[string]any{"type": "BUY", "date": "2026-01-01T00:00:00.000Z", "amount": 1}}}).WantError(404, model.CodeInvestmentNotFound.String())
	// A transaction of another investment of the same item is not this one's.
	env.Do(t, "DELETE", path+"/"+newInv+"/transactions/"+oldTx.ID.String(), a.APIKey, nil).WantError(404, model.CodeInvestmentTransactionNotFound.String())
	env.Do(t, "DELETE", path+"/"+newInv+"/transactions/"+uuid.NewString(), a.APIKey, nil).WantError(404, model.CodeInvestmentTransactionNotFound.String())
	var rm model.SandboxInvestmentChange
	env.Do(t, "DELETE", path+"/"+newInv+"/transactions/"+addedTx["transactionId"].(string), a.APIKey, nil).Want(200).JSON(&rm)
	if rm.Operation != "REMOVE" || rm.TransactionID == nil {
		t.Fatalf("transaction removal %+v", rm)
	}
	env.Do(t, "PATCH", path+"/"+newInv+"/transactions/"+addedTx["transactionId"].(string), a.APIKey, map[string]any{"amount": 1}).
		WantError(404, model.CodeInvestmentTransactionNotFound.String())

	// Bad input: refused, nothing recorded.
	count := len(listChanges())
	goodInv := map[string]any{"name": "X", "type": "EQUITY", "balance": 10}
	goodTx := map[string]any{"type": "SELL", "date": "2026-01-01T00:00:00.000Z", "amount": 10}
	with := sbWith
	for _, inv := range []map[string]any{with(goodInv, "name", nil), with(goodInv, "name", "  "), with(goodInv, "name", strings.Repeat("n", 201)),
		with(goodInv, "name", "a\x00b"), with(goodInv, "type", "CRYPTO"), with(goodInv, "type", nil), with(goodInv, "balance", -1),
		with(goodInv, "balance", 1.234), with(goodInv, "balance", 1e12), with(goodInv, "quantity", -1), with(goodInv, "subtype", ""),
		with(goodInv, "balance", "ten")} {
		env.Do(t, "POST", path, a.APIKey, map[string]any{"investments": []any{goodInv, inv}}).WantError(400, model.CodeInvalidParameter.String())
	}
	txs := path + "/" + changed.ID.String() + "/transactions"
	for _, tx := range []map[string]any{with(goodTx, "type", "GIFT"), with(goodTx, "type", "TRANSFER"), with(goodTx, "movementType", "UP"),
		with(goodTx, "date", nil), with(goodTx, "amount", 0), with(goodTx, "amount", -5), with(goodTx, "amount", 0.001),
		with(goodTx, "value", -1), with(goodTx, "description", strings.Repeat("d", 201))} {
		env.Do(t, "POST", txs, a.APIKey, map[string]any{"transactions": []any{goodTx, tx}}).WantError(400, model.CodeInvalidParameter.String())
	}
	many := make([]any, 51)
	for i := range many {
		many[i] = goodInv
	}
	env.Do(t, "POST", path, a.APIKey, map[string]any{"investments": many}).WantError(400, model.CodeInvalidParameter.String())
	env.Do(t, "POST", path, a.APIKey, map[string]any{"investments": []any{}}).WantError(400, model.CodeInvalidParameter.String())
	env.Do(t, "POST", txs, a.APIKey, map[string]any{}).WantError(400, model.CodeInvalidParameter.String())
	env.Do(t, "PATCH", path+"/"+changed.ID.String(), a.APIKey, map[string]any{}).WantError(400, model.CodeInvalidParameter.String())
	env.Do(t, "PATCH", path+"/"+changed.ID.String(), a.APIKey, map[string]any{"balance": -0.01}).WantError(400, model.CodeInvalidParameter.String())
	env.Do(t, "PATCH", txPath, a.APIKey, map[string]any{}).WantError(400, model.CodeInvalidParameter.String())
	env.Do(t, "PATCH", txPath, a.APIKey, map[string]any{"amount": 0}).WantError(400, model.CodeInvalidParameter.String())
	env.Do(t, "PATCH", path+"/not-a-uuid", a.APIKey, map[string]any{"balance": 1}).Want(400)
	if n := len(listChanges()); n != count {
		t.Fatalf("refused calls recorded changes: %d, then %d", count, n)
	}

	sbRefuseStrangers(t, env, sbKind{noun: "investments", item: id, owner: a.APIKey, stranger: b.APIKey, good: goodInv,
		target: changed.ID.String(), patch: map[string]any{"balance": 1}})
	env.Do(t, "DELETE", txPath, b.APIKey, nil).WantError(404, model.CodeItemNotFound.String())
	env.Do(t, "POST", txs, b.APIKey, map[string]any{"transactions": []any{goodTx}}).WantError(404, model.CodeItemNotFound.String())
	// An item created without investments would never collect the change: refused.
	var narrow model.Item
	env.Do(t, "POST", "/items", a.APIKey, map[string]any{"connectorId": 0, "products": []string{"ACCOUNTS", "TRANSACTIONS"},
		"parameters": map[string]any{"user": "user-ok", "password": "password-ok"}}).Want(200).JSON(&narrow)
	env.WaitItem(t, a.APIKey, narrow.ID.String(), testsupport.Settled)
	env.Do(t, "POST", "/sandbox/items/"+narrow.ID.String()+"/investments", a.APIKey, map[string]any{"investments": []any{goodInv}}).
		WantError(400, model.CodeInvalidParameter.String())
	env.GraphQL(t, b.APIKey, `mutation($id: UUID!, $inv: UUID!) { sandboxRemoveInvestment(id: $id, investmentId: $inv) { operation } }`,
		map[string]any{"id": id, "inv": changed.ID}).WantCode(t, model.CodeItemNotFound.String())
	env.GraphQL(t, b.APIKey, `query($id: UUID!) { sandboxInvestmentChanges(id: $id) { investmentId } }`, map[string]any{"id": id}).
		WantCode(t, model.CodeItemNotFound.String())
	env.GraphQL(t, a.APIKey, `mutation($id: UUID!) { sandboxAddInvestments(id: $id, investments: [{name: "X", type: "EQUITY", balance: -5}]) { investmentId } }`,
		map[string]any{"id": id}).WantCode(t, model.CodeInvalidParameter.String())

	// GraphQL: an investment change and a transaction change, listed, then collected.
	d = env.GraphQL(t, a.APIKey, `mutation($id: UUID!, $inv: UUID!, $tx: UUID!) {
		a: sandboxChangeInvestment(id: $id, investmentId: $inv, input: {quantity: 3}) { operation quantity }
		b: sandboxChangeInvestmentTransaction(id: $id, investmentId: $inv, transactionId: $tx, input: {description: "VIA GRAPHQL"}) { operation description amount } }`,
		map[string]any{"id": id, "inv": changed.ID, "tx": oldTx.ID}).OK(t)
	if r := d["b"].(map[string]any); r["operation"] != "CHANGE" || r["description"] != "VIA GRAPHQL" || r["amount"] != 77.7 {
		t.Fatalf("GraphQL transaction change %v", r)
	}
	d = env.GraphQL(t, a.APIKey, `query($id: UUID!) { sandboxInvestmentChanges(id: $id) { investmentId transactionId appliedAt } }`, map[string]any{"id": id}).OK(t)
	list := d["sandboxInvestmentChanges"].([]any)
	if last := list[len(list)-1].(map[string]any); last["transactionId"] != oldTx.ID.String() || last["appliedAt"] != nil {
		t.Fatalf("GraphQL list %v", list)
	}
	sbSync(t, env, a.APIKey, id)
	env.Do(t, "GET", "/investments/"+changed.ID.String(), a.APIKey, nil).Want(200).JSON(&got)
	if got.Balance != 42.1 || got.Quantity == nil || *got.Quantity != 3 {
		t.Fatalf("GraphQL change collected as %+v", got)
	}
	if txs := txsOf(newInv); len(txs) != 0 {
		t.Fatalf("a removed transaction stayed: %+v", txs)
	}
}
