package graph_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"ponte/model"
	"ponte/testsupport"
)

// GraphQL's reads of an item's transactions name the item, so each is planned on the
// item's one partition of transactions: with every other partition locked by another
// transaction, the batched first pages of an item's accounts and the item's spending (as a
// field and at the root) still answer, and answer what they answered before the lock. A
// statement that named only accounts would have to open the other partitions and wait.
func TestItemTransactionReadsOnePartition(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "one partition").APIKey
	var it model.Item
	env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "products": []string{"ACCOUNTS", "TRANSACTIONS"},
		"parameters": map[string]any{"user": "user-ok", "password": "password-ok"}}).Want(200).JSON(&it)
	env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
	ctx := context.Background()
	var own string
	if err := env.DB.Pool.QueryRow(ctx, `SELECT tableoid::regclass::text FROM transactions WHERE item_id = $1 LIMIT 1`, it.ID).Scan(&own); err != nil {
		t.Fatal(err)
	}
	const sums = `{ byCategory { categoryId spent received count } byMonth { month spent received count } }`
	queries := map[string]string{
		"first pages of the item's accounts": `query($i: UUID!) { item(id: $i) { accounts { nodes { id
			transactions(first: 7) { pageInfo { hasNextPage endCursor } nodes { id date amount description } } } } } }`,
		"first pages of the root's accounts": `query($i: UUID!) { accounts(itemId: $i) { results { id
			transactions(first: 3) { nodes { id amount } } } } }`,
		"the item's spending":            `query($i: UUID!) { item(id: $i) { spending ` + sums + ` } }`,
		"the root's spending of an item": `query($i: UUID!) { spending(itemId: $i) ` + sums + ` }`,
	}
	vars := map[string]any{"i": it.ID}
	before := map[string]string{}
	for name, q := range queries {
		d, _ := json.Marshal(env.GraphQL(t, key, q, vars).OK(t))
		before[name] = string(d)
	}

	locker, err := env.DB.Pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = locker.Rollback(ctx) }()
	if _, err := locker.Exec(ctx, `DO $$ DECLARE p text; BEGIN
		FOR p IN SELECT relid::regclass::text FROM pg_partition_tree('transactions') WHERE isleaf AND relid::regclass::text <> '`+own+`' LOOP
			EXECUTE 'LOCK TABLE ' || p || ' IN ACCESS EXCLUSIVE MODE';
		END LOOP; END $$`); err != nil {
		t.Fatal(err)
	}
	for name, q := range queries {
		done := make(chan string, 1)
		go func() {
			r := env.GraphQL(t, key, q, vars)
			d, _ := json.Marshal(r.Data)
			if len(r.Errors) > 0 {
				d, _ = json.Marshal(r.Errors)
			}
			done <- string(d)
		}()
		select {
		case got := <-done:
			if got != before[name] {
				t.Errorf("%s with the other partitions locked:\n%s\nbefore:\n%s", name, got, before[name])
			}
		case <-time.After(30 * time.Second):
			// Releasing the locks lets the blocked statement, and the test, end.
			_ = locker.Rollback(ctx)
			<-done
			t.Fatalf("%s waited on another item's partition", name)
		}
	}
}
