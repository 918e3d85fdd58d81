package db

import (
	"bytes"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"pgregory.net/rapid"

	"ponte/model"
)

// TestFirstHistoryOrderInvariants draws histories over a few accounts (dates and ids
// repeating) and checks what a first history's COPY sends: every row of the list exactly
// once, each completed by prepare exactly once, in (account_id, date, id) order, and the
// caller's list left in its own order.
func TestFirstHistoryOrderInvariants(t *testing.T) {
	t.Parallel()
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	rapid.Check(t, func(r *rapid.T) {
		accounts := []uuid.UUID{uuid.New(), uuid.New(), uuid.New()}
		n := rapid.IntRange(0, 60).Draw(r, "rows")
		list := make([]model.Transaction, n)
		for i := range list {
			list[i] = model.Transaction{
				ID:        uuid.NewSHA1(accounts[0], []byte{byte(rapid.IntRange(0, 255).Draw(r, "id")), byte(i)}),
				AccountID: accounts[rapid.IntRange(0, len(accounts)-1).Draw(r, "account")],
				Date:      model.NewTime(base.AddDate(0, 0, rapid.IntRange(0, 5).Draw(r, "day"))),
				Type:      "DEBIT", Status: "POSTED", Amount: -1,
			}
		}
		if rapid.Bool().Draw(r, "delivered by account and date") {
			slices.SortStableFunc(list, func(x, y model.Transaction) int {
				if c := bytes.Compare(x.AccountID[:], y.AccountID[:]); c != 0 {
					return c
				}
				return x.Date.Compare(y.Date.Time)
			})
		}
		given := make([]uuid.UUID, n)
		for i := range list {
			given[i] = list[i].ID
		}
		prepared := map[uuid.UUID]int{}
		stamp := base
		src, encErr := preparedRows(list, accountOrder(list), func(t *model.Transaction) {
			prepared[t.ID]++
			t.Description = "prepared"
		}, &stamp)
		var sent []model.Transaction
		byID := map[uuid.UUID]model.Transaction{}
		for i := range list {
			byID[list[i].ID] = list[i]
		}
		for src.Next() {
			v, err := src.Values()
			if err != nil {
				r.Fatalf("row %d: %v (%v)", len(sent), err, *encErr)
			}
			id := v[0].(uuid.UUID)
			sent = append(sent, model.Transaction{ID: id, AccountID: v[1].(uuid.UUID), Date: model.NewTime(v[2].(time.Time))})
		}
		if len(sent) != n {
			r.Fatalf("sent %d rows of %d", len(sent), n)
		}
		seen := map[uuid.UUID]bool{}
		for i, s := range sent {
			if seen[s.ID] {
				r.Fatalf("row %s sent twice", s.ID)
			}
			seen[s.ID] = true
			if prepared[s.ID] != 1 {
				r.Fatalf("row %s prepared %d times", s.ID, prepared[s.ID])
			}
			if i == 0 {
				continue
			}
			p := sent[i-1]
			c := bytes.Compare(p.AccountID[:], s.AccountID[:])
			if c == 0 {
				c = p.Date.Compare(s.Date.Time)
			}
			if c == 0 {
				c = bytes.Compare(p.ID[:], s.ID[:])
			}
			if c > 0 {
				r.Fatalf("row %d (%s %s %s) sent after (%s %s %s)", i, s.AccountID, s.Date, s.ID, p.AccountID, p.Date, p.ID)
			}
		}
		for i := range list {
			if list[i].ID != given[i] {
				r.Fatalf("the caller's list was reordered at %d", i)
			}
			if list[i].Description != "prepared" {
				r.Fatalf("row %d of the caller's list not completed in place", i)
			}
		}
	})
}
