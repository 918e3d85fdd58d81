package collected_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/collected"
	"ponte/model"
)

// allTransactions pages through an account's transactions under f, limit a page, and
// returns their documents in order.
func allTransactions(t *testing.T, w *world, ctx context.Context, f model.TransactionFilter, limit int) []map[string]any {
	t.Helper()
	var out []map[string]any
	var after *string
	for range 1000 {
		page, err := w.eng.Transactions(ctx, f, &limit, after)
		if err != nil {
			t.Fatal(err)
		}
		more := page.PageInfo.HasNextPage
		if len(page.Documents) > limit || (more && len(page.Documents) != limit) || len(page.Keys) != len(page.Documents) {
			t.Fatalf("a page of %d rows (limit %d), more %v", len(page.Documents), limit, more)
		}
		for _, d := range page.Documents {
			out = append(out, fields(t, d))
		}
		if !more {
			return out
		}
		after = w.eng.EndCursor(page)
	}
	t.Fatal("the pages never end")
	return nil
}

// inOrder reports whether documents follow (date, id) with no row twice.
func inOrder(docs []map[string]any) bool {
	seen := map[string]bool{}
	for i, d := range docs {
		id := d["id"].(string)
		if seen[id] {
			return false
		}
		seen[id] = true
		if i > 0 {
			p := docs[i-1]
			if pd, dd := p["date"].(string), d["date"].(string); pd > dd || (pd == dd && p["id"].(string) > id) {
				return false
			}
		}
	}
	return true
}

func transactionReads(t *testing.T, w *world) {
	checking := w.accounts["CHECKING_ACCOUNT"]
	f := model.TransactionFilter{AccountID: checking}
	whole := allTransactions(t, w, w.a, f, collected.MaxFirst)
	if len(whole) < 20 || !inOrder(whole) {
		t.Fatalf("%d transactions, in order %v", len(whole), inOrder(whole))
	}
	for _, d := range whole {
		if d["accountId"] != checking.String() {
			t.Fatalf("a transaction of another account: %v", d)
		}
	}

	t.Run("small pages give the same rows as one", func(t *testing.T) {
		paged := allTransactions(t, w, w.a, f, 7)
		if len(paged) != len(whole) || !inOrder(paged) {
			t.Fatalf("pages of 7 gave %d rows, one page %d", len(paged), len(whole))
		}
		for i := range paged {
			if paged[i]["id"] != whole[i]["id"] {
				t.Fatalf("row %d: %v, want %v", i, paged[i]["id"], whole[i]["id"])
			}
		}
		one, err := w.eng.Transactions(w.a, f, nil, nil)
		if err != nil || len(one.Documents) != min(len(whole), collected.DefaultFirst) || one.PageInfo.HasNextPage != (len(whole) > collected.DefaultFirst) {
			t.Fatalf("a page of the default size: %d rows, more %v (%v)", len(one.Documents), one.PageInfo.HasNextPage, err)
		}
	})

	t.Run("a cursor continues only the list it came from", func(t *testing.T) {
		first, err := w.eng.Transactions(w.a, f, ptr(3), nil)
		if err != nil || !first.PageInfo.HasNextPage || len(first.Keys) != 3 {
			t.Fatalf("first page %+v (%v)", first, err)
		}
		after := w.eng.EndCursor(first)
		if c := w.eng.RowCursor(first, 2); c != *after {
			t.Fatal("the last row's cursor is not the end cursor")
		}
		next, err := w.eng.Transactions(w.a, f, ptr(3), after)
		if err != nil || fields(t, next.Documents[0])["id"] != whole[3]["id"] {
			t.Fatalf("the next page starts at %v, want row 4 (%v)", fields(t, next.Documents[0])["id"], err)
		}
		savings := model.TransactionFilter{AccountID: w.accounts["SAVINGS_ACCOUNT"]}
		_, err = w.eng.Transactions(w.a, savings, ptr(3), after)
		wantCode(t, "on another account", err, model.CodeInvalidCursor)
		narrowed := f
		narrowed.DateFrom = ptr(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC))
		_, err = w.eng.Transactions(w.a, narrowed, ptr(3), after)
		wantCode(t, "under other filters", err, model.CodeInvalidCursor)
		_, err = w.eng.Transactions(w.a, f, ptr(3), ptr("not-a-cursor"))
		wantCode(t, "made up", err, model.CodeInvalidCursor)
		if empty := w.eng.EndCursor(&model.TransactionConnection{}); empty != nil {
			t.Fatalf("an empty page's end cursor %v", *empty)
		}
	})

	t.Run("filters", func(t *testing.T) {
		mid, _ := time.Parse(time.RFC3339Nano, whole[len(whole)/2]["date"].(string))
		from, to := mid.AddDate(0, 0, -10), mid
		ranged := allTransactions(t, w, w.a, model.TransactionFilter{AccountID: checking, DateFrom: &from, DateTo: &to}, 50)
		want := 0
		for _, d := range whole {
			if at, _ := time.Parse(time.RFC3339Nano, d["date"].(string)); !at.Before(from) && !at.After(to) {
				want++
			}
		}
		if len(ranged) != want || want == 0 {
			t.Fatalf("%d transactions from %s to %s, counted %d", len(ranged), from, to, want)
		}
		ids := []uuid.UUID{uuid.MustParse(whole[0]["id"].(string)), uuid.MustParse(whole[5]["id"].(string))}
		if got := allTransactions(t, w, w.a, model.TransactionFilter{AccountID: checking, IDs: ids}, 50); len(got) != 2 {
			t.Fatalf("two ids gave %d rows", len(got))
		}
		_, err := w.eng.Transactions(w.a, model.TransactionFilter{AccountID: checking, DateFrom: &to, DateTo: &from}, ptr(10), nil)
		wantCode(t, "dateFrom after dateTo", err, model.CodeInvalidParameter)
	})

	t.Run("another application's account is unknown, before and after its owner read it", func(t *testing.T) {
		_, err := w.eng.Transactions(w.b, f, ptr(10), nil)
		wantCode(t, "after the owner's read", err, model.CodeAccountNotFound)
		fresh := model.TransactionFilter{AccountID: w.accounts["CREDIT_CARD"]}
		_, err = w.eng.Transactions(w.b, fresh, ptr(10), nil)
		wantCode(t, "before the owner's read", err, model.CodeAccountNotFound)
		_, err = w.eng.Transactions(w.a, model.TransactionFilter{AccountID: uuid.New()}, ptr(10), nil)
		wantCode(t, "an unknown account", err, model.CodeAccountNotFound)
		_, err = w.eng.Transactions(w.token, f, ptr(10), nil)
		wantCode(t, "a Connect Token", err, model.CodeForbidden)
		_, _, err = w.eng.AccountWithTransactions(w.b, f, nil, true)
		wantCode(t, "account with transactions", err, model.CodeAccountNotFound)
		_, err = w.eng.Transaction(w.b, uuid.MustParse(whole[0]["id"].(string)))
		wantCode(t, "one transaction", err, model.CodeTransactionNotFound)
	})

	t.Run("an account with its first page", func(t *testing.T) {
		for _, withDocument := range []bool{true, false} {
			acc, page, err := w.eng.AccountWithTransactions(w.a, f, ptr(4), withDocument)
			if err != nil || acc.ID != checking || len(page.Documents) != 4 || !page.PageInfo.HasNextPage || fields(t, page.Documents[0])["id"] != whole[0]["id"] {
				t.Fatalf("with document %v: %+v, %v (%v)", withDocument, acc, page, err)
			}
			if withDocument && acc.Subtype != "CHECKING_ACCOUNT" {
				t.Fatalf("the account's document: %+v", acc)
			}
		}
		_, _, err := w.eng.AccountWithTransactions(w.a, f, ptr(0), false)
		wantCode(t, "first 0", err, model.CodeInvalidParameter)
		for _, withDocument := range []bool{true, false} {
			_, _, err = w.eng.AccountWithTransactions(w.a, model.TransactionFilter{AccountID: uuid.New()}, nil, withDocument)
			wantCode(t, "an unknown account", err, model.CodeAccountNotFound)
		}
		// Another application's account, its owner not yet read by anyone.
		_, _, err = w.eng.AccountWithTransactions(w.b, model.TransactionFilter{AccountID: w.accounts["SAVINGS_ACCOUNT"]}, nil, true)
		wantCode(t, "another application's account", err, model.CodeAccountNotFound)
	})

	t.Run("batched first pages", func(t *testing.T) {
		unknown := uuid.New()
		batch := []*model.Account{{ID: checking, ItemID: w.item}, {ID: unknown, ItemID: w.item}}
		pages, err := w.eng.FirstTransactionPages(w.a, batch, model.TransactionFilter{}, ptr(5))
		if err != nil || len(pages) != 2 || len(pages[checking].Documents) != 5 || !pages[checking].PageInfo.HasNextPage || len(pages[unknown].Documents) != 0 {
			t.Fatalf("first pages %v (%v)", pages, err)
		}
		if fields(t, pages[checking].Documents[0])["id"] != whole[0]["id"] {
			t.Fatal("the batched page does not start at the account's first row")
		}
		next, err := w.eng.Transactions(w.a, f, ptr(5), w.eng.EndCursor(pages[checking]))
		if err != nil || fields(t, next.Documents[0])["id"] != whole[5]["id"] {
			t.Fatalf("the batched page's cursor continues at %v (%v)", fields(t, next.Documents[0])["id"], err)
		}
		_, err = w.eng.FirstTransactionPages(w.a, batch[:1], model.TransactionFilter{}, ptr(collected.MaxFirst+1))
		wantCode(t, "first over the maximum", err, model.CodeInvalidParameter)
		_, err = w.eng.Transactions(w.a, f, ptr(-1), nil)
		wantCode(t, "first -1", err, model.CodeInvalidParameter)
	})

	t.Run("one transaction", func(t *testing.T) {
		raw, err := w.eng.Transaction(w.a, uuid.MustParse(whole[3]["id"].(string)))
		if err != nil {
			t.Fatal(err)
		}
		var one map[string]any
		_ = json.Unmarshal(raw, &one)
		if one["id"] != whole[3]["id"] || one["amount"] != whole[3]["amount"] {
			t.Fatalf("transaction %v, listed as %v", one, whole[3])
		}
		_, err = w.eng.Transaction(w.a, uuid.New())
		wantCode(t, "an unknown transaction", err, model.CodeTransactionNotFound)
	})
}

func legacyReads(t *testing.T, w *world) {
	checking := w.accounts["CHECKING_ACCOUNT"]
	f := model.LegacyTransactionFilter{TransactionFilter: model.TransactionFilter{AccountID: checking}}
	whole := allTransactions(t, w, w.a, f.TransactionFilter, collected.MaxFirst)
	first, err := w.eng.LegacyTransactions(w.a, f, nil, ptr(10))
	if err != nil || first.Total != len(whole) || first.Page != 1 || len(first.Documents) != 10 || first.TotalPages != (len(whole)+9)/10 {
		t.Fatalf("first legacy page: total %d of %d rows, page %d of %d (%v)", first.Total, len(whole), first.Page, first.TotalPages, err)
	}
	// Pages follow the same order, the total from the remembered count.
	second, err := w.eng.LegacyTransactions(w.a, f, ptr(2), ptr(10))
	if err != nil || second.Total != len(whole) || fields(t, second.Documents[0])["id"] != whole[10]["id"] {
		t.Fatalf("second page starts at %v (%v)", fields(t, second.Documents[0])["id"], err)
	}
	from, to := time.Now(), time.Now().AddDate(0, 0, -1)
	_, err = w.eng.LegacyTransactions(w.a, model.LegacyTransactionFilter{TransactionFilter: model.TransactionFilter{AccountID: checking, DateFrom: &from, DateTo: &to}}, nil, nil)
	wantCode(t, "from after to", err, model.CodeInvalidParameter)
	_, err = w.eng.LegacyTransactions(w.a, f, ptr(0), nil)
	wantCode(t, "page 0", err, model.CodeInvalidParameter)
	_, err = w.eng.LegacyTransactions(w.b, f, nil, nil)
	wantCode(t, "another application's account", err, model.CodeAccountNotFound)

	retired := collected.New(w.env.DB, w.env.Auth, w.env.Sync, func() time.Time { return collected.LegacySunset })
	_, err = retired.LegacyTransactions(w.a, f, nil, nil)
	wantCode(t, "at the sunset", err, model.CodeEndpointSunset)
}

func categoryCorrections(t *testing.T, w *world) {
	f := model.TransactionFilter{AccountID: w.accounts["CHECKING_ACCOUNT"]}
	page, err := w.eng.Transactions(w.a, f, ptr(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	tx := fields(t, page.Documents[0])
	id := uuid.MustParse(tx["id"].(string))
	cats, err := w.eng.Categories(w.a, nil, nil, ptr(500))
	if err != nil {
		t.Fatal(err)
	}
	var chosen string
	for _, c := range cats.Results {
		if c.ID != tx["categoryId"] {
			chosen = c.ID
			break
		}
	}
	_, err = w.eng.SetTransactionCategory(w.a, id, "")
	wantCode(t, "no category", err, model.CodeInvalidParameter)
	_, err = w.eng.SetTransactionCategory(w.a, id, "99999999")
	wantCode(t, "not a category", err, model.CodeInvalidParameter)
	_, err = w.eng.SetTransactionCategory(w.b, id, chosen)
	wantCode(t, "another application's transaction", err, model.CodeTransactionNotFound)
	_, err = w.eng.SetTransactionCategory(w.token, id, chosen)
	wantCode(t, "a Connect Token", err, model.CodeForbidden)
	raw, err := w.eng.SetTransactionCategory(w.a, id, chosen)
	if err != nil || fields(t, raw)["categoryId"] != chosen {
		t.Fatalf("after the correction %s (%v)", raw, err)
	}
	if again, _ := w.eng.Transaction(w.a, id); fields(t, again)["categoryId"] != chosen {
		t.Fatalf("read again: %s", again)
	}
	fb, err := w.eng.CategoryFeedback(w.a)
	if err != nil || len(fb) != 1 || fb[0].TransactionID != id || fb[0].CategoryID != chosen ||
		(fb[0].PreviousCategoryID == nil) != (tx["categoryId"] == nil) || fb[0].Description != tx["description"] {
		t.Fatalf("feedback %+v (%v)", fb, err)
	}
	if other, err := w.eng.CategoryFeedback(w.b); err != nil || other == nil || len(other) != 0 {
		t.Fatalf("another application's feedback %v (%v)", other, err)
	}
}
