package itemsync_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/model"
	"ponte/testsupport"
)

// An item's first history is completed row by row as it is copied (Delivery.Prepare). The
// rows stored are exactly the documents of completing the list first and encoding it
// after, and a row failing in the middle of the copy leaves none of the item's rows.
func TestFirstHistoryPreparedAsCopied(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	ctx := context.Background()
	w := newRuleWorld(t, env, "first-history")
	item, acc, _ := w.sibling(t)
	day := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	const n = 3000
	history := func() []model.Transaction {
		list := make([]model.Transaction, n)
		for i := range list {
			list[i] = model.Transaction{ID: uuid.NewSHA1(item, fmt.Appendf(nil, "%d", i)), AccountID: acc,
				Date: model.NewTime(day.Add(-time.Duration(i) * time.Hour)), Description: fmt.Sprintf("PADARIA %d", i%7),
				Type: "DEBIT", Amount: -float64(i%500) / 4, CurrencyCode: "BRL", Status: "POSTED"}
		}
		return list
	}
	cat, name := "05000000", "Food"
	prepare := func(tr *model.Transaction) {
		if tr.Description == "PADARIA 3" {
			tr.CategoryID, tr.Category, tr.AutoCategoryID = &cat, &name, &cat
			tr.CategoryOrigin = &model.CategoryOrigin{Type: model.OriginAutomatic}
		}
	}
	ingest := func(list []model.Transaction, prepare func(*model.Transaction), now time.Time) (map[uuid.UUID]*db.TransactionChanges, error) {
		var changes map[uuid.UUID]*db.TransactionChanges
		err := env.DB.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
			var err error
			changes, err = tx.IngestTransactions(ctx, item, list, db.Delivery{Prepare: prepare}, now)
			return err
		})
		return changes, err
	}
	stored := func() int {
		var c int
		if err := env.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM transactions WHERE item_id = $1`, item).Scan(&c); err != nil {
			t.Fatal(err)
		}
		return c
	}

	// A row that cannot be encoded, past the first COPY buffers: the copy fails, and with it
	// the whole transaction.
	seen := 0
	if _, err := ingest(history(), func(tr *model.Transaction) {
		prepare(tr)
		if seen++; seen == n-10 {
			tr.Amount = math.NaN()
		}
	}, time.Now()); err == nil {
		t.Fatal("a history with a row that cannot be encoded was stored")
	}
	if c := stored(); c != 0 {
		t.Fatalf("a failed first history left %d rows", c)
	}

	now := time.Now().UTC().Truncate(time.Millisecond)
	changes, err := ingest(history(), prepare, now)
	if err != nil {
		t.Fatal(err)
	}
	if c := changes[acc]; c == nil || c.Created != n || !c.MinDate.Equal(day.Add(-(n-1)*time.Hour)) || len(changes) != 1 {
		t.Fatalf("changes %+v, want %d created from %s on one account", changes[acc], n, day.Add(-(n-1)*time.Hour))
	}
	ref := history()
	for i := range ref {
		prepare(&ref[i])
		ref[i].CreatedAt, ref[i].UpdatedAt = model.NewTime(now), model.NewTime(now)
	}
	rows, err := env.DB.Pool.Query(ctx, `SELECT id, data, category_id, auto_category_id, created_at FROM transactions WHERE item_id = $1`, item)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[uuid.UUID]*model.Transaction{}
	for i := range ref {
		byID[ref[i].ID] = &ref[i]
	}
	got := 0
	for rows.Next() {
		var id uuid.UUID
		var data string
		var catID, autoID *string
		var created time.Time
		if err := rows.Scan(&id, &data, &catID, &autoID, &created); err != nil {
			t.Fatal(err)
		}
		got++
		r := byID[id]
		if r == nil {
			t.Fatalf("stored row %s is no row of the history", id)
		}
		want, _ := json.Marshal(r)
		if data != string(want) {
			t.Errorf("row %s:\n stored %s\n   want %s", id, data, want)
		}
		if (catID == nil) != (r.CategoryID == nil) || (autoID == nil) != (r.AutoCategoryID == nil) || !created.Equal(now) {
			t.Errorf("row %s: category %v, auto %v, created %s; want %v, %v, %s", id, catID, autoID, created, r.CategoryID, r.AutoCategoryID, now)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if got != n {
		t.Errorf("stored %d rows, want %d", got, n)
	}
}
