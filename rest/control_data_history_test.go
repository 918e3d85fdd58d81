package rest_test

import (
	"testing"

	"ponte/model"
	"ponte/testsupport"
)

// Transaction changes of sandbox control carry their history like the bills': when each
// was asked for, and when the execution that collected it ended (REST and GraphQL); an
// execution that leaves transactions out marks nothing; changed again, one waits again.
func TestSandboxTransactionChangesHistory(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a, b := env.NewClient(t, "txhist-a"), env.NewClient(t, "txhist-b")
	it := sbItem(t, env, a.APIKey, "user-ok")
	id := it.ID.String()
	path := "/sandbox/items/" + id + "/transactions"
	list := func() []model.SandboxTransactionChange {
		var out []model.SandboxTransactionChange
		env.Do(t, "GET", path, a.APIKey, nil).Want(200).JSON(&out)
		return out
	}
	if got := list(); got == nil || len(got) != 0 {
		t.Fatalf("no changes yet: %+v", got)
	}
	acc := env.AccountIDs(t, a.APIKey, id)["CHECKING_ACCOUNT"]
	var added []model.SandboxTransactionChange
	env.Do(t, "POST", path, a.APIKey, map[string]any{"transactions": []any{map[string]any{"accountId": acc, "date": "2026-01-15T12:00:00.000Z",
		"description": "Padaria", "amount": -12.5, "type": "DEBIT"}}}).Want(200).JSON(&added)
	if len(added) != 1 || added[0].RequestedAt.IsZero() || added[0].AppliedAt != nil {
		t.Fatalf("added %+v", added)
	}
	txID := added[0].TransactionID.String()

	// An execution that leaves transactions out does not collect the change: still pending.
	env.Do(t, "POST", "/sandbox/items/"+id+"/next-execution", a.APIKey, map[string]any{"executionStatus": "PARTIAL_SUCCESS",
		"unavailableProducts": []string{"TRANSACTIONS"}}).Want(200)
	env.Do(t, "POST", "/sandbox/items/"+id+"/sync", a.APIKey, nil).Want(200)
	env.WaitItem(t, a.APIKey, id, testsupport.Settled)
	if got := list(); len(got) != 1 || got[0].AppliedAt != nil || !got[0].RequestedAt.Equal(added[0].RequestedAt.Time) {
		t.Fatalf("after an execution without transactions: %+v", got)
	}

	sbSync(t, env, a.APIKey, id)
	synced := env.Item(t, a.APIKey, id)
	first := list()
	if len(first) != 1 || first[0].AppliedAt == nil || !first[0].AppliedAt.Equal(synced.LastUpdatedAt.Time) || first[0].Operation != "ADD" {
		t.Fatalf("collected %+v, item ended at %v", first, synced.LastUpdatedAt)
	}
	d := env.GraphQL(t, a.APIKey, `query($id: UUID!) { sandboxTransactionChanges(id: $id) { transactionId requestedAt appliedAt } }`,
		map[string]any{"id": id}).OK(t)
	if l := d["sandboxTransactionChanges"].([]any); len(l) != 1 || l[0].(map[string]any)["transactionId"] != txID || l[0].(map[string]any)["appliedAt"] == nil {
		t.Fatalf("GraphQL list %v", l)
	}
	sbSync(t, env, a.APIKey, id)
	if got := list(); !got[0].AppliedAt.Equal(first[0].AppliedAt.Time) {
		t.Fatalf("a second execution moved the mark: %+v", got)
	}
	// Changed again (GraphQL): pending again, with the new request's time.
	d = env.GraphQL(t, a.APIKey, `mutation($id: UUID!, $tx: UUID!) { sandboxChangeTransaction(id: $id, transactionId: $tx, input: {description: "Padaria 2"}) {
		operation requestedAt appliedAt } }`, map[string]any{"id": id, "tx": txID}).OK(t)
	if r := d["sandboxChangeTransaction"].(map[string]any); r["appliedAt"] != nil || r["operation"] != "ADD" || r["requestedAt"] == nil {
		t.Fatalf("changed again %v", r)
	}
	if got := list(); got[0].AppliedAt != nil || !got[0].RequestedAt.After(first[0].RequestedAt.Time) {
		t.Fatalf("changed again, listed %+v", got)
	}

	// Hostile callers.
	env.Do(t, "GET", path, b.APIKey, nil).WantError(404, model.CodeItemNotFound.String())
	env.Do(t, "GET", path, "", nil).WantError(401, model.CodeAPIKeyMissing.String())
	token := env.Do(t, "POST", "/connect_token", a.APIKey, map[string]any{"itemId": id}).Want(200).String("accessToken")
	env.Do(t, "GET", path, token, nil).WantError(403, model.CodeForbidden.String())
	env.Do(t, "GET", "/sandbox/items/not-a-uuid/transactions", a.APIKey, nil).Want(400)
	env.GraphQL(t, b.APIKey, `query($id: UUID!) { sandboxTransactionChanges(id: $id) { transactionId } }`, map[string]any{"id": id}).
		WantCode(t, model.CodeItemNotFound.String())
	var files model.Item
	env.Do(t, "POST", "/items", a.APIKey, map[string]any{"connectorId": 900, "parameters": map[string]any{}}).Want(200).JSON(&files)
	env.WaitItem(t, a.APIKey, files.ID.String(), testsupport.Settled)
	env.Do(t, "GET", "/sandbox/items/"+files.ID.String()+"/transactions", a.APIKey, nil).WantError(403, model.CodeSandboxOnly.String())
}
