package db_test

import "testing"

// Migration 0065 on a table as it was before it (its columns, key, foreign key and
// indexes after 0064): every row is kept as it was, in the partition of its item, and the
// key, the foreign key and the per-account indexes exist again, on each partition.
func TestTransactionsPartitionMigration(t *testing.T) {
	t.Parallel()
	ctx, conn, migration, exec := migrationRig(t, "0065_transactions_partitioned.sql")
	exec(`CREATE SCHEMA before_0065`)
	exec(`SET search_path = before_0065, public`)
	exec(`CREATE TABLE transactions (
		id uuid PRIMARY KEY, item_id uuid NOT NULL, account_id uuid NOT NULL, date timestamptz NOT NULL, status text NOT NULL,
		amount numeric NOT NULL, bill_id uuid, user_category_id text REFERENCES categories (id), data text NOT NULL,
		created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now(),
		type text NOT NULL, category_id text, auto_category_id text, category_rule_id uuid, match_text text, content_hash bigint)`)
	exec(`CREATE INDEX transactions_account_date ON transactions (account_id, date, id)`)
	exec(`CREATE INDEX transactions_account_created ON transactions (account_id, created_at)`)
	exec(`CREATE INDEX transactions_account_bill ON transactions (account_id, bill_id) WHERE bill_id IS NOT NULL`)
	// 40 items of 25 rows, one with a client's category and a bill.
	exec(`INSERT INTO transactions (id, item_id, account_id, date, status, amount, bill_id, user_category_id, data, type, category_id, match_text)
		SELECT md5('t' || n)::uuid, md5('i' || n / 25)::uuid, md5('a' || n / 25)::uuid, '2026-01-01'::timestamptz + n * interval '1 hour',
			'POSTED', n * 1.5, CASE WHEN n = 7 THEN md5('bill')::uuid END,
			CASE WHEN n = 7 THEN (SELECT min(id) FROM categories) END, '{"n": ' || n || '}', 'DEBIT', NULL, 'TEXT ' || n
		FROM generate_series(0, 999) n`)
	const digest = `SELECT count(*), md5(string_agg(t::text, ',' ORDER BY id)) FROM transactions t`
	var before, after int
	var sumBefore, sumAfter string
	if err := conn.QueryRow(ctx, digest).Scan(&before, &sumBefore); err != nil {
		t.Fatal(err)
	}
	exec(migration)
	if err := conn.QueryRow(ctx, digest).Scan(&after, &sumAfter); err != nil {
		t.Fatal(err)
	}
	if after != before || sumAfter != sumBefore {
		t.Fatalf("after the migration: %d rows (digest %s), before: %d (%s)", after, sumAfter, before, sumBefore)
	}
	var parts, items, spread int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_inherits WHERE inhparent = 'transactions'::regclass`).Scan(&parts); err != nil {
		t.Fatal(err)
	}
	if parts != 16 {
		t.Errorf("%d partitions, want 16", parts)
	}
	// Each item's rows are in one partition.
	if err := conn.QueryRow(ctx, `SELECT count(DISTINCT item_id), count(DISTINCT (item_id, tableoid)) FROM transactions`).Scan(&items, &spread); err != nil {
		t.Fatal(err)
	}
	if items != 40 || spread != 40 {
		t.Errorf("%d items in %d (item, partition) pairs, want 40 in 40", items, spread)
	}
	var indexes int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_indexes WHERE schemaname = 'before_0065' AND tablename = 'transactions_p03'`).Scan(&indexes); err != nil {
		t.Fatal(err)
	}
	if indexes != 5 {
		t.Errorf("partition transactions_p03 has %d indexes, want 5 (key, three per-account, item)", indexes)
	}
	// The key and the foreign key hold.
	if _, err := conn.Exec(ctx, `INSERT INTO transactions SELECT * FROM transactions WHERE id = md5('t1')::uuid`); err == nil {
		t.Error("a row with an existing (id, item_id) was inserted")
	}
	if _, err := conn.Exec(ctx, `UPDATE transactions SET user_category_id = 'no such category' WHERE id = md5('t1')::uuid`); err == nil {
		t.Error("a row took a category that does not exist")
	}
}
