package itemsync_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"ponte/model"
	"ponte/testsupport"
)

// incrementalUser is a custom sandbox user with two rows inside the incremental window and
// one long before it; amount sets the old row's amount.
func incrementalUser(old float64) map[string]any {
	day := func(n int) string { return time.Now().UTC().AddDate(0, 0, -n).Format(time.DateOnly) }
	return map[string]any{"username": "incr.user", "password": "segredo-1",
		"accounts": []any{map[string]any{"type": "BANK", "subtype": "CHECKING_ACCOUNT", "number": "22222-2", "balance": 900,
			"transactions": []any{
				map[string]any{"date": day(60), "description": "ALUGUEL", "amount": old},
				map[string]any{"date": day(2), "description": "PADARIA", "amount": -12.5},
				map[string]any{"date": day(1), "description": "PIX RECEBIDO", "amount": 300},
			}}}}
}

// txEvents counts the item's transactions/* events by name, and the ids they name in the
// order the events were recorded: callers slice off the ids of events seen before.
func txEvents(t *testing.T, env *testsupport.Env, itemID string) (map[string]int, map[string][]string) {
	t.Helper()
	rows, err := env.DB.Pool.Query(context.Background(), `SELECT event, payload FROM events WHERE item_id = $1 AND event LIKE 'transactions/%'
		ORDER BY created_at, id`, itemID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	counts, ids := map[string]int{}, map[string][]string{}
	for rows.Next() {
		var name string
		var p map[string]any
		if err := rows.Scan(&name, &p); err != nil {
			t.Fatal(err)
		}
		counts[name]++
		if list, ok := p["transactionIds"].([]any); ok {
			for _, id := range list {
				ids[name] = append(ids[name], id.(string))
			}
		}
	}
	return counts, ids
}

// stamps is each stored transaction's updated_at and amount, by id.
func stamps(t *testing.T, env *testsupport.Env, itemID string) map[string]string {
	t.Helper()
	rows, err := env.DB.Pool.Query(context.Background(), `SELECT id::text, updated_at::text || ' ' || amount::text FROM transactions WHERE item_id = $1`, itemID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, v string
		if err := rows.Scan(&id, &v); err != nil {
			t.Fatal(err)
		}
		out[id] = v
	}
	return out
}

func resync(t *testing.T, env *testsupport.Env, key, id string, body map[string]any) {
	t.Helper()
	env.Do(t, "PATCH", "/items/"+id, key, body).Want(200)
	it, _ := env.WaitItem(t, key, id, testsupport.Settled)
	if it.Status != model.ItemUpdated || it.ExecutionStatus != model.ExecSuccess {
		t.Fatalf("item ended %s/%s", it.Status, it.ExecutionStatus)
	}
}

func TestIncrementalResync(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "incr").APIKey
	env.Do(t, "POST", "/sandbox/users", key, incrementalUser(-1500)).Want(200)
	var it model.Item
	env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "products": []string{"ACCOUNTS", "TRANSACTIONS"},
		"parameters": map[string]any{"user": "incr.user", "password": "segredo-1"}}).Want(200).JSON(&it)
	id := it.ID.String()
	env.WaitItem(t, key, id, testsupport.Settled)
	before := stamps(t, env, id)
	if len(before) != 3 {
		t.Fatalf("first sync stored %d transactions, want 3", len(before))
	}
	first, _ := txEvents(t, env, id)

	// Nothing changed: no event, no row rewritten.
	resync(t, env, key, id, map[string]any{})
	if got, _ := txEvents(t, env, id); !equalCounts(got, first) {
		t.Fatalf("an unchanged re-sync fired transactions events: %v, before %v", got, first)
	}
	if after := stamps(t, env, id); !equalStrings(after, before) {
		t.Fatalf("an unchanged re-sync rewrote rows: %v, before %v", after, before)
	}

	// The row long before the window changes at the institution: an incremental read does
	// not see it, a full one does, once.
	env.Do(t, "PUT", "/sandbox/users/incr.user", key, incrementalUser(-1600)).Want(200)
	resync(t, env, key, id, map[string]any{})
	if after := stamps(t, env, id); !equalStrings(after, before) {
		t.Fatalf("an incremental read changed rows outside its window: %v, before %v", after, before)
	}
	resync(t, env, key, id, map[string]any{"fullSync": true})
	counts, ids := txEvents(t, env, id)
	if counts["transactions/updated"] != first["transactions/updated"]+1 || len(ids["transactions/updated"]) != 1 ||
		counts["transactions/created"] != first["transactions/created"] || counts["transactions/deleted"] != 0 {
		t.Fatalf("the full read fired %v (%v), want one transactions/updated naming one row", counts, ids)
	}
	after := stamps(t, env, id)
	changed := ids["transactions/updated"][0]
	for k, v := range after {
		if (k == changed) == (v == before[k]) {
			t.Fatalf("row %s: %q before, %q after; only %s should have changed", k, before[k], v, changed)
		}
	}

	// Through GraphQL too; and again incremental afterwards, with nothing to do.
	var gq struct {
		Data   json.RawMessage
		Errors []any
	}
	env.Do(t, "POST", "/graphql", key, map[string]any{"query": `mutation($id: UUID!) { updateItem(id: $id, input: {fullSync: true}) { id } }`,
		"variables": map[string]any{"id": id}}).Want(200).JSON(&gq)
	if len(gq.Errors) > 0 {
		t.Fatalf("updateItem fullSync: %v", gq.Errors)
	}
	env.WaitItem(t, key, id, testsupport.Settled)
	resync(t, env, key, id, map[string]any{})
	if again, _ := txEvents(t, env, id); !equalCounts(again, counts) {
		t.Fatalf("re-syncs with nothing changed fired %v, before %v", again, counts)
	}
	if final := stamps(t, env, id); !equalStrings(final, after) {
		t.Fatalf("re-syncs with nothing changed rewrote rows: %v, before %v", final, after)
	}
}

func equalCounts(a, b map[string]int) bool {
	for _, k := range []string{"transactions/created", "transactions/updated", "transactions/deleted"} {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

func equalStrings(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
