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
	"ponte/testsupport"
)

// An account's transaction page is planned on its item's one partition and read in the
// order of the account's index, with no sort, right after the item's first history is
// stored: the ingest analyzes a partition it grew (without that, the planner saw the
// fresh partition as nearly empty and read the account's every row to sort them). A
// small later ingest leaves the statistics to autovacuum.
func TestTransactionPagePlan(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	d, err := db.Open(ctx, testsupport.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
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
		sql, args := db.TransactionPageQuery(item, c.f, c.after, 50)
		var plan json.RawMessage
		if err := d.Pool.QueryRow(ctx, `EXPLAIN (FORMAT JSON) `+sql, args...).Scan(&plan); err != nil {
			t.Fatal(err)
		}
		p := string(plan)
		if strings.Count(p, `"Relation Name"`) != 1 || strings.Contains(p, `"Node Type": "Sort"`) || !strings.Contains(p, `account_id_date_id_idx`) {
			t.Errorf("%s: want one partition read in the order of its account index, got %s", c.name, p)
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
