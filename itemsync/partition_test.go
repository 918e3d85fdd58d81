package itemsync_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/db"
	"ponte/model"
	"ponte/testsupport"
)

// The transactions key is (id, item_id): a transaction id is unique within its item by
// construction, and the store never lets one item's rows touch another's. Two items
// holding the same id (which ids made per item never do) each keep their own row, and
// one item's re-ingest and deletion leave the other's alone.
func TestTransactionKeyIsPerItem(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	ctx := context.Background()
	w := newRuleWorld(t, env, "key-per-item")
	itemB, accB, accA := w.sibling(t)
	shared := uuid.New()
	day := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tx := func(acc uuid.UUID, id uuid.UUID, desc string) model.Transaction {
		return model.Transaction{ID: id, AccountID: acc, Date: model.NewTime(day), Description: desc, Type: "DEBIT",
			Amount: -1, CurrencyCode: "BRL", Status: "POSTED"}
	}
	ingest := func(item uuid.UUID, list ...model.Transaction) map[uuid.UUID]*db.TransactionChanges {
		t.Helper()
		var changes map[uuid.UUID]*db.TransactionChanges
		if err := env.DB.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
			var err error
			changes, err = tx.IngestTransactions(ctx, item, list, db.Delivery{}, time.Now())
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return changes
	}
	descOf := func(item uuid.UUID) (string, int) {
		t.Helper()
		var desc string
		var n int
		err := env.DB.Pool.QueryRow(ctx, `SELECT coalesce(max(data::jsonb->>'description'), ''), count(*) FROM transactions
			WHERE id = $1 AND item_id = $2`, shared, item).Scan(&desc, &n)
		if err != nil {
			t.Fatal(err)
		}
		return desc, n
	}
	keep := uuid.New()
	// Item A already holds the user-ok history: this is a merge (stage, insert, update, delete).
	ingest(w.item, tx(accA, shared, "A"), tx(accA, keep, "A2"))
	if c := ingest(itemB, tx(accB, shared, "B")); c[accB] == nil || c[accB].Created != 1 {
		t.Fatalf("item B's row with item A's id: changes %+v, want one created", c[accB])
	}
	if d, n := descOf(w.item); d != "A" || n != 1 {
		t.Errorf("item A's row: %q (%d rows), want %q", d, n, "A")
	}
	if d, n := descOf(itemB); d != "B" || n != 1 {
		t.Errorf("item B's row: %q (%d rows), want %q", d, n, "B")
	}
	// A's snapshot without the shared id deletes A's row only; B's changed row updates B's.
	if c := ingest(w.item, tx(accA, keep, "A2")); c[accA] == nil || len(c[accA].Deleted) != 1 {
		t.Fatalf("item A's re-ingest: changes %+v, want one deleted", c[accA])
	}
	if c := ingest(itemB, tx(accB, shared, "B2")); c[accB] == nil || len(c[accB].Updated) != 1 {
		t.Fatalf("item B's re-ingest: changes %+v, want one updated", c[accB])
	}
	if _, n := descOf(w.item); n != 0 {
		t.Errorf("item A still holds %d rows of the id it no longer reports", n)
	}
	if d, n := descOf(itemB); d != "B2" || n != 1 {
		t.Errorf("item B's row: %q (%d rows), want %q", d, n, "B2")
	}
	if err := env.DB.InTx(ctx, func(ctx context.Context, tx *db.Tx) error { return tx.DeleteItem(ctx, itemB) }); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := env.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM transactions WHERE item_id = $1`, w.item).Scan(&left); err != nil || left == 0 {
		t.Errorf("item B's deletion left item A %d transactions (%v)", left, err)
	}
}

// A sync's statements on transactions name the item, so each is planned on the item's one
// partition: with every other partition locked by another transaction, an item's first
// ingest, its unchanged, changed, incremental and additive re-ingests, the reads of the
// sandbox's fired events and an account's pages (given its item) all finish. A statement
// that named only an account or an id would have to open the other partitions and wait for
// their locks.
func TestTransactionStatementsReadOnePartition(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	ctx := context.Background()
	w := newRuleWorld(t, env, "one-partition")
	item, acc, _ := w.sibling(t)
	day := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	row := func(n int, desc string) model.Transaction {
		return model.Transaction{ID: uuid.NewSHA1(item, []byte{byte(n)}), AccountID: acc, Date: model.NewTime(day.AddDate(0, 0, n)),
			Description: desc, Type: "DEBIT", Amount: -float64(n + 1), CurrencyCode: "BRL", Status: "POSTED"}
	}
	first := []model.Transaction{row(0, "A"), row(1, "B"), row(2, "C")}
	ingest := func(ctx context.Context, list []model.Transaction, d db.Delivery) (map[uuid.UUID]*db.TransactionChanges, error) {
		var changes map[uuid.UUID]*db.TransactionChanges
		err := env.DB.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
			var err error
			changes, err = tx.IngestTransactions(ctx, item, slices.Clone(list), d, time.Now())
			return err
		})
		return changes, err
	}
	if _, err := ingest(ctx, first, db.Delivery{}); err != nil {
		t.Fatal(err)
	}
	var own string
	if err := env.DB.Pool.QueryRow(ctx, `SELECT tableoid::regclass::text FROM transactions WHERE item_id = $1 LIMIT 1`, item).Scan(&own); err != nil {
		t.Fatal(err)
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
	since := day.AddDate(0, 0, 2)
	steps := []struct {
		name  string
		run   func(context.Context) (map[uuid.UUID]*db.TransactionChanges, error)
		check func(*db.TransactionChanges) bool
	}{
		{"unchanged re-ingest", func(ctx context.Context) (map[uuid.UUID]*db.TransactionChanges, error) {
			return ingest(ctx, first, db.Delivery{})
		}, func(c *db.TransactionChanges) bool { return c == nil }},
		{"re-ingest with one changed, one gone, one new", func(ctx context.Context) (map[uuid.UUID]*db.TransactionChanges, error) {
			return ingest(ctx, []model.Transaction{row(0, "A"), row(1, "B2"), row(3, "D")}, db.Delivery{})
		}, func(c *db.TransactionChanges) bool {
			return c != nil && c.Created == 1 && len(c.Updated) == 1 && len(c.Deleted) == 1
		}},
		{"incremental re-ingest", func(ctx context.Context) (map[uuid.UUID]*db.TransactionChanges, error) {
			return ingest(ctx, []model.Transaction{row(4, "E")}, db.Delivery{Since: &since, Accounts: []uuid.UUID{acc}})
		}, func(c *db.TransactionChanges) bool { return c != nil && c.Created == 1 && len(c.Deleted) == 1 }},
		{"additive re-ingest", func(ctx context.Context) (map[uuid.UUID]*db.TransactionChanges, error) {
			return ingest(ctx, []model.Transaction{row(5, "F"), row(0, "A")}, db.Delivery{Adds: true})
		}, func(c *db.TransactionChanges) bool { return c != nil && c.Created == 1 && len(c.Updated) == 0 }},
		{"fired events' reads", func(ctx context.Context) (map[uuid.UUID]*db.TransactionChanges, error) {
			s, err := env.DB.AccountTransactionSummary(ctx, acc)
			if err != nil {
				return nil, err
			}
			ids, err := env.DB.LatestTransactionIDs(ctx, acc, 10)
			if err != nil {
				return nil, err
			}
			n, err := env.DB.CountAccountTransactions(ctx, acc, ids)
			if err != nil || s.Count != 4 || len(ids) != 4 || n != 4 {
				return nil, fmt.Errorf("summary %d, latest %d, counted %d (%v); want 4 each", s.Count, len(ids), n, err)
			}
			return nil, nil
		}, func(c *db.TransactionChanges) bool { return c == nil }},
		{"an account's pages", func(ctx context.Context) (map[uuid.UUID]*db.TransactionChanges, error) {
			f := db.TransactionFilter{AccountID: acc, DateFrom: &day}
			// Twice: the first read learns the item's leaf, the second reads it (leaves.go).
			for range 2 {
				docs, _, err := env.DB.TransactionPage(ctx, item, f, nil, 10)
				if err != nil || len(docs) != 4 {
					return nil, fmt.Errorf("the page: %d rows (%v); want 4", len(docs), err)
				}
			}
			pages, err := env.DB.FirstTransactionPages(ctx, []uuid.UUID{acc}, []uuid.UUID{item}, f, 10)
			if err != nil || len(pages[acc].Docs) != 4 {
				return nil, fmt.Errorf("the batched first page: %v (%v); want 4 rows", pages[acc], err)
			}
			a, rows, found, err := env.DB.AccountWithTransactions(ctx, w.app.id, item, acc, f, 10)
			if err != nil || !found || a == nil || len(rows.Docs) != 4 {
				return nil, fmt.Errorf("the account with its page: found %v, %d rows (%v); want 4", found, len(rows.Docs), err)
			}
			return nil, nil
		}, func(c *db.TransactionChanges) bool { return c == nil }},
	}
	for _, s := range steps {
		// A statement waiting on a locked partition never ends by itself.
		sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		changes, err := s.run(sctx)
		cancel()
		if err != nil {
			t.Fatalf("%s with the other partitions locked: %v", s.name, err)
		}
		if !s.check(changes[acc]) {
			t.Errorf("%s: changes %+v", s.name, changes[acc])
		}
	}
}

// An item's documents are rewritten only when they change: the same list again keeps each
// document's row and dates; a changed one moves its updatedAt only, and an unlisted one goes.
func TestReplaceDocumentsWritesOnlyChanges(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	ctx := context.Background()
	w := newRuleWorld(t, env, "documents")
	a, b := uuid.New(), uuid.New()
	replace := func(at time.Time, list ...db.Document) {
		t.Helper()
		if err := env.DB.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
			return tx.ReplaceDocuments(ctx, w.item, "loan", list, at)
		}); err != nil {
			t.Fatal(err)
		}
	}
	dates := func() map[uuid.UUID][2]time.Time {
		t.Helper()
		rows, err := env.DB.Pool.Query(ctx, `SELECT id, created_at, updated_at FROM product_documents WHERE item_id = $1 AND kind = 'loan'`, w.item)
		if err != nil {
			t.Fatal(err)
		}
		out := map[uuid.UUID][2]time.Time{}
		var id uuid.UUID
		var c, u time.Time
		if _, err := pgx.ForEachRow(rows, []any{&id, &c, &u}, func() error { out[id] = [2]time.Time{c.UTC(), u.UTC()}; return nil }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	replace(t0, db.Document{ID: a, Data: map[string]any{"v": 1}}, db.Document{ID: b, Data: map[string]any{"v": 2}})
	replace(t0.Add(time.Hour), db.Document{ID: a, Data: map[string]any{"v": 1}}, db.Document{ID: b, Data: map[string]any{"v": 2}})
	if got := dates(); len(got) != 2 || got[a] != [2]time.Time{t0, t0} || got[b] != [2]time.Time{t0, t0} {
		t.Fatalf("after an unchanged replace: %v, want both created and updated at %s", got, t0)
	}
	replace(t0.Add(2*time.Hour), db.Document{ID: a, Data: map[string]any{"v": 3}})
	if got := dates(); len(got) != 1 || got[a] != [2]time.Time{t0, t0.Add(2 * time.Hour)} {
		t.Fatalf("after a change and a removal: %v, want only %s created %s, updated 2h later", got, a, t0)
	}
}
