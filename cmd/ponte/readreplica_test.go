package main_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/testsupport"
)

// With DATABASE_READ_URL naming a streaming standby, the read routes are served by it: a
// change made on the primary behind the service's back stays unseen while the standby's
// replay is paused, while the caller's own write is seen by its very next read (its reads
// go to the primary until the standby has replayed the write). Once the standby has caught
// up, reads go back to it; with the standby stopped, they are served by the primary.
func TestReadReplica(t *testing.T) {
	t.Parallel()
	pair := testsupport.StartStreaming(t)
	env, keys := configured(t)
	env = append(env, "DATABASE_URL="+pair.Primary.URL("ponte"), "DATABASE_READ_URL="+pair.Standby.URL("ponte"))
	s := start(t, env...)
	key := apiKey(t, s.url, keys)

	status, item := do(t, "POST", s.url+"/items", key, map[string]any{"connectorId": 0,
		"parameters": map[string]any{"user": "user-ok", "password": "password-ok"}})
	if status != 200 {
		t.Fatalf("create item: %d %v", status, item)
	}
	itemID := item["id"].(string)
	waitFor(t, "the item's first update", func() bool {
		_, it := do(t, "GET", s.url+"/items/"+itemID, key, nil)
		return it["status"] == "UPDATED"
	})
	accountID := first(t, s.url+"/accounts?itemId="+itemID, key)["id"].(string)
	tx := first(t, s.url+"/v2/transactions?accountId="+accountID, key)
	txID := tx["id"].(string)
	var categoryID string
	for _, c := range results(t, s.url+"/categories", key) {
		if id := c.(map[string]any)["id"].(string); id != fmt.Sprint(tx["categoryId"]) {
			categoryID = id
			break
		}
	}

	primary := must(pgx.Connect(context.Background(), pair.Primary.URL("ponte")))
	defer primary.Close(context.Background())
	rename := func(name string) {
		t.Helper()
		if _, err := primary.Exec(context.Background(), `UPDATE accounts SET data = jsonb_set(data::jsonb, '{name}', to_jsonb($1::text))::text WHERE id = $2`,
			name, uuid.MustParse(accountID)); err != nil {
			t.Fatal(err)
		}
	}
	nameREST := func() string {
		t.Helper()
		status, a := do(t, "GET", s.url+"/accounts/"+accountID, key, nil)
		if status != 200 {
			t.Fatalf("GET /accounts/%s: %d %v", accountID, status, a)
		}
		return fmt.Sprint(a["name"])
	}
	nameGraphQL := func() string {
		t.Helper()
		status, m := do(t, "POST", s.url+"/graphql", key, map[string]any{"query": `query($id: UUID!) { account(id: $id) { name } }`,
			"variables": map[string]any{"id": accountID}})
		if status != 200 || m["errors"] != nil {
			t.Fatalf("GraphQL account: %d %v", status, m)
		}
		return fmt.Sprint(m["data"].(map[string]any)["account"].(map[string]any)["name"])
	}

	// Everything the client wrote (the item, its update's events) is on the standby: its
	// reads may go there.
	pair.WaitReplayed(t)
	pair.PauseReplay(t)
	before := nameREST()
	rename("renamed on the primary")
	if got := nameREST(); got != before {
		t.Fatalf("GET /accounts/{id} saw %q, written on the primary after the standby's replay paused: it read the primary", got)
	}
	if got := nameGraphQL(); got != before {
		t.Fatalf("a GraphQL query saw %q, written on the primary after the standby's replay paused: it read the primary", got)
	}

	// The caller's own write is seen at once, and so is everything else on the primary:
	// its reads are pinned there until the standby replays past the write.
	status, patched := do(t, "PATCH", s.url+"/transactions/"+txID, key, map[string]any{"categoryId": categoryID})
	if status != 200 {
		t.Fatalf("PATCH /transactions/%s: %d %v", txID, status, patched)
	}
	if status, got := do(t, "GET", s.url+"/transactions/"+txID, key, nil); status != 200 || got["categoryId"] != categoryID {
		t.Fatalf("the caller's next read after its write: %d categoryId %v, want %s", status, got["categoryId"], categoryID)
	}
	if got := nameREST(); got != "renamed on the primary" {
		t.Fatalf("after its own write the caller read %q from the paused standby", got)
	}

	// Caught up again, the standby serves the client's reads again.
	pair.ResumeReplay(t)
	pair.WaitReplayed(t)
	pair.PauseReplay(t)
	rename("renamed again")
	if got := nameREST(); got != "renamed on the primary" {
		t.Fatalf("with the standby caught up past the client's write and paused again, GET read %q: not the standby", got)
	}

	// The standby gone, reads fall back to the primary at once.
	if err := pair.Standby.Stop(); err != nil {
		t.Fatal(err)
	}
	if got := nameREST(); got != "renamed again" {
		t.Fatalf("with the standby stopped GET /accounts/{id} read %q, want the primary's %q", got, "renamed again")
	}
	if got := nameGraphQL(); got != "renamed again" {
		t.Fatalf("with the standby stopped a GraphQL query read %q, want the primary's", got)
	}
	if status, got := do(t, "GET", s.url+"/v2/transactions?accountId="+accountID, key, nil); status != 200 || len(got["results"].([]any)) == 0 {
		t.Fatalf("with the standby stopped GET /v2/transactions: %d %v", status, got)
	}
}

// results is the results list of a GET.
func results(t *testing.T, url, key string) []any {
	t.Helper()
	status, m := do(t, "GET", url, key, nil)
	list, _ := m["results"].([]any)
	if status != 200 || len(list) == 0 {
		t.Fatalf("GET %s: %d %v", url, status, m)
	}
	return list
}

func first(t *testing.T, url, key string) map[string]any {
	return results(t, url, key)[0].(map[string]any)
}
