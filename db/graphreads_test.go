package db_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/model"
	"ponte/testsupport"
)

// The GraphQL reads that find an account's item inside the statement (an account with its
// first page, an account's spending) execute on the item's one partition of transactions:
// EXPLAIN ANALYZE shows every other partition pruned or never executed. Those that are
// given the item are planned on its partition alone.
func TestGraphReadsExecuteOnePartition(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	ctx := context.Background()
	c := env.NewClient(t, "one partition")
	var it model.Item
	env.Do(t, "POST", "/items", c.APIKey, map[string]any{"connectorId": 0, "products": []string{"ACCOUNTS", "TRANSACTIONS"},
		"parameters": map[string]any{"user": "user-ok", "password": "password-ok"}}).Want(200).JSON(&it)
	env.WaitItem(t, c.APIKey, it.ID.String(), testsupport.Settled)
	var own string
	var account, client uuid.UUID
	if err := env.DB.Pool.QueryRow(ctx, `SELECT t.tableoid::regclass::text, t.account_id, i.client_id
		FROM transactions t JOIN items i ON i.id = t.item_id WHERE t.item_id = $1 LIMIT 1`, it.ID).Scan(&own, &account, &client); err != nil {
		t.Fatal(err)
	}
	// executed lists the partitions of transactions a statement's plan ran.
	executed := func(name, sql string, args ...any) []string {
		t.Helper()
		var out []byte
		if err := env.DB.Pool.QueryRow(ctx, `EXPLAIN (ANALYZE, FORMAT JSON) `+sql, args...).Scan(&out); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var plans []struct{ Plan map[string]any }
		if err := json.Unmarshal(out, &plans); err != nil || len(plans) != 1 {
			t.Fatalf("%s: %v %s", name, err, out)
		}
		var ran []string
		var walk func(n map[string]any)
		walk = func(n map[string]any) {
			if rel, _ := n["Relation Name"].(string); strings.HasPrefix(rel, "transactions") {
				if loops, _ := n["Actual Loops"].(float64); loops > 0 && !slices.Contains(ran, rel) {
					ran = append(ran, rel)
				}
			}
			sub, _ := n["Plans"].([]any)
			for _, p := range sub {
				walk(p.(map[string]any))
			}
		}
		walk(plans[0].Plan)
		return ran
	}
	for _, s := range []struct {
		name string
		sql  string
		args []any
	}{
		{"an account with its first page", db.AccountWithTransactionsSQL(""), []any{account, client, nil, nil, nil, 51}},
		{"an account's spending", db.SpendingSQL, []any{nil, account, nil, nil}},
		{"an item's spending", db.SpendingSQL, []any{it.ID, nil, nil, nil}},
	} {
		if got := executed(s.name, s.sql, s.args...); !slices.Equal(got, []string{own}) {
			t.Errorf("%s ran on partitions %v, want only the item's %s", s.name, got, own)
		}
	}
}
