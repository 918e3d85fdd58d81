package db_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/model"
)

// An account's transaction page is planned on its item's one partition and read in the
// order of the account's index, with no sort, right after the item's first history is
// stored: the ingest analyzes a partition it grew (without that, the planner saw the
// fresh partition as nearly empty and read the account's every row to sort them). A
// small later ingest leaves the statistics to autovacuum.
func TestTransactionPagePlan(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := openStore(t)
	item, acc, other := uuid.New(), uuid.New(), uuid.New()
	day := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	rows := func(from, n int) []model.Transaction {
		var list []model.Transaction
		for i := from; i < from+n; i++ {
			a := acc
			if i%4 == 3 {
				a = other
			}
			list = append(list, model.Transaction{ID: uuid.NewSHA1(item, []byte(strconv.Itoa(i))), AccountID: a,
				Date: model.NewTime(day.Add(time.Duration(i) * time.Hour)), Description: "PIX " + strconv.Itoa(i),
				Type: "DEBIT", Amount: -float64(i%90 + 1), CurrencyCode: "BRL", Status: "POSTED"})
		}
		return list
	}
	ingest := func(list []model.Transaction, accounts ...uuid.UUID) {
		t.Helper()
		if err := d.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
			_, err := tx.IngestTransactions(ctx, item, list, db.Delivery{Adds: true, Accounts: accounts}, time.Now())
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	counted := func() float64 {
		t.Helper()
		var n float64
		if err := d.Pool.QueryRow(ctx, `SELECT reltuples FROM pg_class WHERE oid = (SELECT tableoid FROM transactions WHERE item_id = $1 LIMIT 1)`, item).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	ingest(rows(0, 4000))
	if n := counted(); n != 4000 {
		t.Fatalf("the partition counts %v rows after a first history of 4000", n)
	}
	from := day.AddDate(0, 1, 0)
	for _, c := range []struct {
		name  string
		f     db.TransactionFilter
		after *db.TransactionKey
	}{
		{"first page", db.TransactionFilter{AccountID: acc}, nil},
		{"later page", db.TransactionFilter{AccountID: acc}, &db.TransactionKey{Date: day.AddDate(0, 0, 40), ID: uuid.Nil}},
		{"from a date", db.TransactionFilter{AccountID: acc, DateFrom: &from}, nil},
	} {
		sql, args := db.TransactionPageQuery("", item, c.f, c.after, 50)
		var plan json.RawMessage
		if err := d.Pool.QueryRow(ctx, `EXPLAIN (FORMAT JSON) `+sql, args...).Scan(&plan); err != nil {
			t.Fatal(err)
		}
		p := string(plan)
		if strings.Count(p, `"Relation Name"`) != 1 || strings.Contains(p, `"Node Type": "Sort"`) || !strings.Contains(p, `account_id_date_id_idx`) {
			t.Errorf("%s: want one partition read in the order of its account index, got %s", c.name, p)
		}
		// The generic plan TransactionPage runs once it knows the item's leaf (leaves.go)
		// is the same read.
		sql, args = db.TransactionPageQuery(leaf(t, d, item), item, c.f, c.after, 50)
		if p := genericPlan(t, d, sql, args); strings.Count(p, `"Relation Name"`) != 1 ||
			strings.Contains(p, `"Node Type": "Sort"`) || !strings.Contains(p, `account_id_date_id_idx`) {
			t.Errorf("%s: want the leaf's generic plan read in the order of its account index, got %s", c.name, p)
		}
	}
	// A tenth of the counted rows and 50 more grow it enough; fewer do not.
	ingest(rows(4000, 100), acc, other)
	if n := counted(); n != 4000 {
		t.Errorf("the partition counts %v rows after 100 more: analyzed again", n)
	}
	ingest(rows(4100, 500), acc, other)
	if n := counted(); n != 4600 {
		t.Errorf("the partition counts %v rows after 600 more: not analyzed again", n)
	}
}

// leaf is the partition holding item's transactions.
func leaf(t *testing.T, d *db.DB, item uuid.UUID) string {
	t.Helper()
	var name string
	if err := d.Pool.QueryRow(context.Background(), `SELECT tableoid::regclass::text FROM transactions WHERE item_id = $1 LIMIT 1`, item).Scan(&name); err != nil {
		t.Fatal(err)
	}
	return name
}

// genericPlan explains sql's generic plan for args, as a prepared statement's is.
func genericPlan(t *testing.T, d *db.DB, sql string, args []any) string {
	t.Helper()
	ctx := context.Background()
	pooled, err := d.Pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Out of the pool, so that its setting and statement close with it.
	c := pooled.Hijack()
	defer c.Close(ctx)
	literals := make([]string, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case uuid.UUID:
			literals[i] = "'" + v.String() + "'"
		case time.Time:
			literals[i] = "'" + v.Format(time.RFC3339Nano) + "'"
		case int:
			literals[i] = strconv.Itoa(v)
		default:
			t.Fatalf("no literal for %T", a)
		}
	}
	var plan json.RawMessage
	if _, err := c.Exec(ctx, `SET plan_cache_mode = force_generic_plan`); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(ctx, `PREPARE page AS `+sql); err != nil {
		t.Fatal(err)
	}
	if err := c.QueryRow(ctx, `EXPLAIN (FORMAT JSON) EXECUTE page(`+strings.Join(literals, ", ")+`)`).Scan(&plan); err != nil {
		t.Fatal(err)
	}
	return string(plan)
}

// TransactionPage and AccountWithTransactions read the item's leaf once they know it, under
// a generic plan, planned once per connection rather than on every call, and the setting that asks for it ends with the page: no pooled connection
// keeps it, and a page read inside a transaction leaves that transaction's setting alone.
// A replica that fails it sends it to the primary.
func TestTransactionPageRunsGenericPlan(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d := openStore(t)
	item, acc := uuid.New(), uuid.New()
	day := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	var list []model.Transaction
	for i := range 300 {
		list = append(list, model.Transaction{ID: uuid.NewSHA1(item, []byte(strconv.Itoa(i))), AccountID: acc,
			Date: model.NewTime(day.Add(time.Duration(i) * time.Hour)), Description: "PIX " + strconv.Itoa(i),
			Type: "DEBIT", Amount: -float64(i%90 + 1), CurrencyCode: "BRL", Status: "POSTED"})
	}
	if err := d.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		_, err := tx.IngestTransactions(ctx, item, list, db.Delivery{Adds: true}, time.Now())
		return err
	}); err != nil {
		t.Fatal(err)
	}
	const pages = 12 // more than the five custom plans PostgreSQL makes before it compares
	var first []model.JSONDocument
	for i := range pages {
		docs, keys, err := d.TransactionPage(ctx, item, db.TransactionFilter{AccountID: acc}, nil, 50)
		if err != nil {
			t.Fatal(err)
		}
		if len(docs) != 50 || len(keys) != 50 || !keys[0].Date.Equal(day) {
			t.Fatalf("page %d: %d documents, %d keys", i, len(docs), len(keys))
		}
		first = docs
		// With the account's document, the page is one statement (graphql's account(id)):
		// this store has no account row, so no page either, but its statement runs.
		if _, _, found, err := d.AccountWithTransactions(ctx, uuid.New(), item, acc, db.TransactionFilter{AccountID: acc}, 50); err != nil || found {
			t.Fatalf("an account of no client: found %v, error %v", found, err)
		}
	}
	// Every connection the pool has, held at once, so each is asked.
	var generic, custom int64
	held := make([]interface{ Release() }, 0, d.Pool.Stat().TotalConns())
	for range cap(held) {
		c, err := d.Pool.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
		var mode string
		var g, cu int64
		if err := c.QueryRow(ctx, `SELECT current_setting('plan_cache_mode'),
				(SELECT coalesce(sum(generic_plans), 0) FROM pg_prepared_statements WHERE statement LIKE '%FROM '||$1||' t%'),
				(SELECT coalesce(sum(custom_plans), 0) FROM pg_prepared_statements WHERE statement LIKE '%FROM '||$1||' t%')`, leaf(t, d, item)).Scan(&mode, &g, &cu); err != nil {
			t.Fatal(err)
		}
		if mode != "auto" {
			t.Errorf("a pooled connection kept plan_cache_mode %q", mode)
		}
		generic, custom = generic+g, custom+cu
	}
	for _, c := range held {
		c.Release()
	}
	// The first page read the parent and learned the leaf; the account with its page came
	// after it each time.
	if generic < 2*pages-1 || custom != 0 {
		t.Errorf("%d pages of each statement ran %d generic and %d custom plans on the leaf, want all generic", pages, generic, custom)
	}
	// A replica that fails the page's batch hands the read to the primary, as it does a
	// plain statement, and is left alone for a while.
	reader, down, err := db.WithUnreachableReplica(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	if docs, _, err := reader.TransactionPage(ctx, item, db.TransactionFilter{AccountID: acc}, nil, 50); err != nil || len(docs) != len(first) || string(docs[0]) != string(first[0]) {
		t.Errorf("with the replica unreachable the page read %d documents, error %v", len(docs), err)
	}
	if !down() {
		t.Error("the replica that failed a page is not marked down")
	}
	if err := d.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		docs, _, err := tx.TransactionPage(ctx, item, db.TransactionFilter{AccountID: acc}, nil, 50)
		if err != nil {
			return err
		}
		if len(docs) != len(first) || string(docs[0]) != string(first[0]) {
			t.Errorf("inside a transaction the page has %d documents, not the pool's %d", len(docs), len(first))
		}
		var mode string
		if err := tx.PGX.QueryRow(ctx, `SELECT current_setting('plan_cache_mode')`).Scan(&mode); err != nil {
			return err
		}
		if mode != "auto" {
			t.Errorf("a page read in a transaction set its plan_cache_mode to %q", mode)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
