package db

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
)

// TestTransactionRows checks the COPY rows of a history: extra columns first, then
// transactionColumns; documents stamped only when asked; a bill id column only from a
// well-formed billId.
func TestTransactionRows(t *testing.T) {
	t.Parallel()
	bill := uuid.New()
	billText, junk := bill.String(), "not-a-uuid"
	item := uuid.New()
	stamp := time.Date(2025, 3, 4, 5, 6, 7, 891_234_567, time.UTC)
	list := []model.Transaction{
		{ID: uuid.New(), Type: "DEBIT", Status: "POSTED", Amount: -12.5},
		{ID: uuid.New(), CreditCardMetadata: &model.CreditCardMetadata{BillID: &billText}},
		{ID: uuid.New(), CreditCardMetadata: &model.CreditCardMetadata{BillID: &junk}},
	}
	wantBill := []*uuid.UUID{nil, &bill, nil}
	for _, c := range []struct {
		name      string
		stamp     *time.Time
		extra     []any
		createdAt string
	}{
		{"staged", nil, nil, "0001-01-01T00:00:00.000Z"},
		{"first history", &stamp, []any{item, stamp, stamp}, "2025-03-04T05:06:07.891Z"},
	} {
		src, encErr := transactionRows(list, c.stamp, c.extra...)
		for i := range list {
			if !src.Next() {
				t.Fatalf("%s: row %d missing", c.name, i)
			}
			row, err := src.Values()
			if err != nil {
				t.Fatalf("%s: row %d: %v", c.name, i, err)
			}
			if len(row) != len(c.extra)+len(transactionColumns) {
				t.Fatalf("%s: row %d has %d values, want %d", c.name, i, len(row), len(c.extra)+len(transactionColumns))
			}
			for j, v := range c.extra {
				if row[j] != v {
					t.Errorf("%s: row %d value %d is %v, want the extra %v", c.name, i, j, row[j], v)
				}
			}
			cols := row[len(c.extra):]
			if cols[0] != list[i].ID {
				t.Errorf("%s: row %d id %v, want %v", c.name, i, cols[0], list[i].ID)
			}
			got, _ := cols[5].(*uuid.UUID)
			if (got == nil) != (wantBill[i] == nil) || (got != nil && *got != *wantBill[i]) {
				t.Errorf("%s: row %d bill_id %v, want %v", c.name, i, got, wantBill[i])
			}
			var doc struct{ CreatedAt, UpdatedAt string }
			if err := json.Unmarshal(cols[len(cols)-1].([]byte), &doc); err != nil {
				t.Fatalf("%s: row %d data: %v", c.name, i, err)
			}
			if doc.CreatedAt != c.createdAt || doc.UpdatedAt != c.createdAt {
				t.Errorf("%s: row %d document stamped %q/%q, want %q", c.name, i, doc.CreatedAt, doc.UpdatedAt, c.createdAt)
			}
		}
		if src.Next() {
			t.Errorf("%s: more rows than transactions", c.name)
		}
		if *encErr != nil {
			t.Errorf("%s: encoding error %v", c.name, *encErr)
		}
	}
}

// TestPreparedRows checks that completing each row as it is encoded gives exactly the COPY
// rows of completing the whole list first and encoding it after.
func TestPreparedRows(t *testing.T) {
	t.Parallel()
	item, acc := uuid.New(), uuid.New()
	stamp := time.Date(2025, 3, 4, 5, 6, 7, 891_234_567, time.UTC)
	rule := uuid.New()
	prepare := func(tr *model.Transaction) {
		id, name := "05000000", "Food"
		tr.CategoryID, tr.Category = &id, &name
		tr.AutoCategoryID = &id
		if tr.Amount < -10 {
			tr.CategoryOrigin = &model.CategoryOrigin{Type: model.OriginAutomatic, RuleID: &rule}
		}
	}
	history := func() []model.Transaction {
		var list []model.Transaction
		for i := range 50 {
			list = append(list, model.Transaction{ID: uuid.NewSHA1(item, []byte{byte(i)}), AccountID: acc, Type: "DEBIT",
				Status: "POSTED", Amount: -float64(i) / 4, Description: "Padaria do Zé", Date: model.NewTime(stamp.AddDate(0, 0, -i))})
		}
		return list
	}
	before := history()
	for i := range before {
		prepare(&before[i])
	}
	want, wantErr := transactionRows(before, &stamp, item, stamp, stamp)
	got, gotErr := preparedRows(history(), nil, prepare, &stamp, item, stamp, stamp)
	for i := 0; ; i++ {
		w, g := want.Next(), got.Next()
		if w != g {
			t.Fatalf("row %d: reference has a row %v, prepared %v", i, w, g)
		}
		if !w {
			break
		}
		wv, _ := want.Values()
		gv, err := got.Values()
		if err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
		wj, _ := json.Marshal(wv)
		gj, _ := json.Marshal(gv)
		if string(wj) != string(gj) {
			t.Errorf("row %d:\n got %s\nwant %s", i, gj, wj)
		}
	}
	if *wantErr != nil || *gotErr != nil {
		t.Errorf("encoding errors %v, %v", *wantErr, *gotErr)
	}
}
