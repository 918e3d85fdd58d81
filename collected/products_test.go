package collected_test

import (
	"math"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/collected"
	"ponte/db"
	"ponte/model"
)

func productReads(t *testing.T, w *world) {
	item, card, checking := &w.item, ptr(w.accounts["CREDIT_CARD"]), ptr(w.accounts["CHECKING_ACCOUNT"])
	list := func(kind string, itemID, ownerID *uuid.UUID, typ *string, page, size *int) *model.DocumentPage {
		t.Helper()
		p, err := w.eng.ProductList(w.a, kind, itemID, ownerID, typ, page, size)
		if err != nil {
			t.Fatalf("%s list: %v", kind, err)
		}
		return p
	}
	inv := list("investment", item, nil, nil, nil, nil)
	if inv.Total < 4 || len(inv.Documents) != inv.Total || inv.Page != 1 {
		t.Fatalf("investments: %d of %d", len(inv.Documents), inv.Total)
	}
	for _, d := range inv.Documents {
		if fields(t, d)["itemId"] != w.item.String() {
			t.Fatalf("an investment of another item: %s", d)
		}
	}
	equity := list("investment", item, nil, ptr("EQUITY"), nil, nil)
	if equity.Total == 0 || equity.Total >= inv.Total {
		t.Fatalf("EQUITY investments %d of %d", equity.Total, inv.Total)
	}
	for _, d := range equity.Documents {
		if fields(t, d)["type"] != "EQUITY" {
			t.Fatalf("the EQUITY list holds %s", d)
		}
	}
	second := list("investment", item, nil, nil, ptr(2), ptr(2))
	if second.Total != inv.Total || second.Page != 2 || second.TotalPages != (inv.Total+1)/2 || len(second.Documents) != 2 ||
		fields(t, second.Documents[0])["id"] != fields(t, inv.Documents[2])["id"] {
		t.Fatalf("page 2 of 2: %+v", second)
	}
	if past := list("investment", item, nil, nil, ptr(50), ptr(2)); past.Total != inv.Total || len(past.Documents) != 0 {
		t.Fatalf("a page past the end: %d rows of %d", len(past.Documents), past.Total)
	}
	invID := uuid.MustParse(fields(t, inv.Documents[0])["id"].(string))
	if txs := list("investment_transaction", nil, &invID, nil, nil, nil); txs.Total == 0 {
		t.Fatal("an investment without transactions")
	}
	if bills := list("bill", nil, card, nil, nil, nil); bills.Total < 10 {
		t.Fatalf("%d bills on the card", bills.Total)
	}
	if st := list("statement", nil, checking, nil, nil, nil); st.Total < 12 {
		t.Fatalf("%d statements", st.Total)
	}
	if loans := list("loan", item, nil, nil, nil, nil); loans.Total == 0 {
		t.Fatal("no loans")
	}

	t.Run("one document by id, and the not-found of each kind", func(t *testing.T) {
		if doc, err := w.eng.ProductByID(w.a, "investment", invID); err != nil || fields(t, doc)["id"] != invID.String() {
			t.Fatalf("investment by id: %s (%v)", doc, err)
		}
		_, err := w.eng.ProductByID(w.b, "investment", invID)
		wantCode(t, "another application's investment", err, model.CodeInvestmentNotFound)
		for kind, code := range map[string]model.Code{"loan": model.CodeLoanNotFound, "bill": model.CodeBillNotFound,
			"statement": model.CodeStatementNotFound, "consent": model.CodeConsentNotFound, "identity": model.CodeIdentityNotFound,
			"investment_transaction": model.CodeInvestmentTransactionNotFound} {
			_, err := w.eng.ProductByID(w.a, kind, uuid.New())
			wantCode(t, "an unknown "+kind, err, code)
		}
		idn, err := w.eng.IdentityByItem(w.a, w.item)
		if err != nil || fields(t, idn)["itemId"] != w.item.String() {
			t.Fatalf("identity %s (%v)", idn, err)
		}
		_, err = w.eng.IdentityByItem(w.b, w.item)
		wantCode(t, "another application's identity", err, model.CodeItemNotFound)
	})

	t.Run("an unknown or foreign parent is a 404, not an empty list", func(t *testing.T) {
		cases := []struct {
			name            string
			kind            string
			itemID, ownerID *uuid.UUID
			code            model.Code
		}{
			{"another application's item", "investment", item, nil, model.CodeItemNotFound},
			{"an unknown item", "loan", ptr(uuid.New()), nil, model.CodeItemNotFound},
			{"another application's card", "bill", nil, card, model.CodeAccountNotFound},
			{"another application's investment", "investment_transaction", nil, &invID, model.CodeInvestmentNotFound},
		}
		for _, c := range cases {
			_, err := w.eng.ProductList(w.b, c.kind, c.itemID, c.ownerID, nil, nil, nil)
			wantCode(t, c.name, err, c.code)
		}
		_, err := w.eng.ProductList(w.a, "investment_transaction", nil, ptr(uuid.New()), nil, nil, nil)
		wantCode(t, "an unknown investment", err, model.CodeInvestmentNotFound)
		_, err = w.eng.ProductList(w.a, "investment", item, nil, nil, nil, ptr(0))
		wantCode(t, "pageSize 0", err, model.CodeInvalidParameter)
		_, err = w.eng.ProductList(w.token, "investment", item, nil, nil, nil, nil)
		wantCode(t, "a Connect Token", err, model.CodeForbidden)
		if err := w.eng.CheckParent(w.a, "bill", nil, card); err != nil {
			t.Fatalf("own card: %v", err)
		}
		wantCode(t, "check another's parent", w.eng.CheckParent(w.b, "bill", nil, card), model.CodeAccountNotFound)
		wantCode(t, "check without a credential", w.eng.CheckParent(w.none, "bill", nil, card), model.CodeAPIKeyMissing)
	})
}

// Product connections page by key: pages join up to the whole list, a cursor continues
// only its own list, and the total counts the scope.
func documentPages(t *testing.T, w *world) {
	scope := db.DocumentScope{Kind: "bill", OwnerID: ptr(w.accounts["CREDIT_CARD"])}
	whole, err := w.eng.Documents(w.a, scope, ptr(collected.MaxFirst), nil, collected.DocumentWant{Total: true})
	if err != nil || whole.HasNextPage || whole.Total != len(whole.Docs) || whole.Total < 10 || whole.Cursors != nil {
		t.Fatalf("all bills: %d docs, total %d, next %v (%v)", len(whole.Docs), whole.Total, whole.HasNextPage, err)
	}
	var ids []any
	var after *string
	for pages := 0; ; pages++ {
		if pages > 100 {
			t.Fatal("the pages never end")
		}
		page, err := w.eng.Documents(w.a, scope, ptr(3), after, collected.DocumentWant{Cursors: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Cursors) != len(page.Docs) || (len(page.Docs) > 0 && page.Cursors[len(page.Cursors)-1] != *page.EndCursor) {
			t.Fatalf("%d cursors for %d rows", len(page.Cursors), len(page.Docs))
		}
		for _, d := range page.Docs {
			ids = append(ids, fields(t, d)["id"])
		}
		if !page.HasNextPage {
			break
		}
		after = page.EndCursor
	}
	if len(ids) != len(whole.Docs) {
		t.Fatalf("pages of 3 gave %d bills, one page %d", len(ids), len(whole.Docs))
	}
	for i, d := range whole.Docs {
		if fields(t, d)["id"] != ids[i] {
			t.Fatalf("row %d differs between one page and pages of 3", i)
		}
	}
	first, _ := w.eng.Documents(w.a, scope, ptr(2), nil, collected.DocumentWant{})
	statements := db.DocumentScope{Kind: "statement", OwnerID: ptr(w.accounts["CHECKING_ACCOUNT"])}
	_, err = w.eng.Documents(w.a, statements, ptr(2), first.EndCursor, collected.DocumentWant{})
	wantCode(t, "a cursor of another list", err, model.CodeInvalidCursor)
	_, err = w.eng.Documents(w.a, scope, ptr(2), ptr("forged"), collected.DocumentWant{})
	wantCode(t, "a forged cursor", err, model.CodeInvalidCursor)
	_, err = w.eng.Documents(w.a, scope, ptr(0), nil, collected.DocumentWant{})
	wantCode(t, "first 0", err, model.CodeInvalidParameter)
	// The query keeps to the caller's items: another application sees no rows of the scope.
	if other, err := w.eng.Documents(w.b, scope, nil, nil, collected.DocumentWant{Total: true}); err != nil || len(other.Docs) != 0 || other.Total != 0 {
		t.Fatalf("another application reads %d of a's bills (total %d, %v)", len(other.Docs), other.Total, err)
	}
}

// cents is a JSON amount in centavos.
func cents(v any) int64 { return int64(math.Round(math.Abs(v.(float64)) * 100)) }

// Spending sums DEBIT as spent and CREDIT as received: checked here against the account's
// own transactions.
func spendingReads(t *testing.T, w *world) {
	checking := w.accounts["CHECKING_ACCOUNT"]
	txs := allTransactions(t, w, w.a, model.TransactionFilter{AccountID: checking}, collected.MaxFirst)
	var spent, received int64
	months := map[string]int{}
	for _, d := range txs {
		switch d["type"] {
		case "DEBIT":
			spent += cents(d["amount"])
		case "CREDIT":
			received += cents(d["amount"])
		}
		at, _ := time.Parse(time.RFC3339Nano, d["date"].(string))
		months[at.UTC().Format("2006-01")]++
	}
	s, err := w.eng.Spending(w.a, &checking, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var gotSpent, gotReceived int64
	count := 0
	for i, c := range s.ByCategory {
		gotSpent += int64(math.Round(c.Spent * 100))
		gotReceived += int64(math.Round(c.Received * 100))
		count += c.Count
		if i > 0 && c.Spent > s.ByCategory[i-1].Spent {
			t.Fatalf("categories not ordered by spending: %v after %v", c.Spent, s.ByCategory[i-1].Spent)
		}
	}
	if gotSpent != spent || gotReceived != received || count != len(txs) {
		t.Fatalf("spending: spent %d received %d over %d rows; the transactions say %d, %d over %d", gotSpent, gotReceived, count, spent, received, len(txs))
	}
	if len(s.ByMonth) != len(months) {
		t.Fatalf("%d months, the transactions span %d", len(s.ByMonth), len(months))
	}
	for i, m := range s.ByMonth {
		if m.Count != months[m.Month] || (i > 0 && m.Month <= s.ByMonth[i-1].Month) {
			t.Fatalf("month %s: %d rows, counted %d", m.Month, m.Count, months[m.Month])
		}
	}

	t.Run("an item sums its accounts", func(t *testing.T) {
		byItem, err := w.eng.Spending(w.a, nil, &w.item, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		viaItem, err := w.eng.ItemSpending(w.a, w.item, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		total := func(s *model.Spending) (n int) {
			for _, m := range s.ByMonth {
				n += m.Count
			}
			return n
		}
		all := 0
		for _, id := range w.accounts {
			one, err := w.eng.AccountSpending(w.a, id, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			all += total(one)
		}
		if total(byItem) != all || total(viaItem) != all || all <= len(txs) {
			t.Fatalf("the item counts %d and %d rows, its accounts %d", total(byItem), total(viaItem), all)
		}
	})

	t.Run("arguments and ownership", func(t *testing.T) {
		_, err := w.eng.Spending(w.a, nil, nil, nil, nil)
		wantCode(t, "neither", err, model.CodeInvalidParameter)
		_, err = w.eng.Spending(w.a, &checking, &w.item, nil, nil)
		wantCode(t, "both", err, model.CodeInvalidParameter)
		from, to := model.NewTime(time.Now()), model.NewTime(time.Now().AddDate(0, -1, 0))
		_, err = w.eng.Spending(w.a, &checking, nil, &from, &to)
		wantCode(t, "from after to", err, model.CodeInvalidParameter)
		_, err = w.eng.Spending(w.b, &checking, nil, nil, nil)
		wantCode(t, "another application's account", err, model.CodeAccountNotFound)
		_, err = w.eng.Spending(w.b, nil, &w.item, nil, nil)
		wantCode(t, "another application's item", err, model.CodeItemNotFound)
		_, err = w.eng.ItemSpending(w.token, w.item, nil, nil)
		wantCode(t, "a Connect Token", err, model.CodeForbidden)
		// A window after every transaction sums nothing, and renders empty lists.
		future := model.NewTime(time.Now().AddDate(1, 0, 0))
		none, err := w.eng.AccountSpending(w.a, checking, &future, nil)
		if err != nil || none.ByCategory == nil || none.ByMonth == nil || len(none.ByCategory)+len(none.ByMonth) != 0 {
			t.Fatalf("an empty window: %+v (%v)", none, err)
		}
	})
}
