package collected_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/uuid"

	"ponte/model"
)

func accountReads(t *testing.T, w *world) {
	all, err := w.eng.Accounts(w.a, w.item, nil)
	if err != nil {
		t.Fatal(err)
	}
	if all.Total != len(all.Documents) || all.Total < 3 || all.Page != 1 || all.TotalPages != 1 || all.Results != nil {
		t.Fatalf("accounts page %+v", all)
	}
	accounts := accountsOf(t, all)
	for _, a := range accounts {
		if a.ItemID != w.item || a.Balance == nil {
			t.Fatalf("account %+v", a)
		}
	}

	t.Run("the type filter splits the list", func(t *testing.T) {
		n := 0
		for _, typ := range []string{"BANK", "CREDIT"} {
			page, err := w.eng.Accounts(w.a, w.item, &typ)
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range accountsOf(t, page) {
				if a.Type != typ {
					t.Fatalf("%s list holds a %s account", typ, a.Type)
				}
			}
			n += page.Total
		}
		if n != all.Total {
			t.Fatalf("BANK and CREDIT hold %d accounts, the item %d", n, all.Total)
		}
		_, err := w.eng.Accounts(w.a, w.item, ptr("SAVINGS"))
		wantCode(t, "type SAVINGS", err, model.CodeInvalidParameter)
		_, err = w.eng.AccountsOfItems(w.a, []uuid.UUID{w.item}, ptr("SAVINGS"))
		wantCode(t, "item accounts of type SAVINGS", err, model.CodeInvalidParameter)
	})

	t.Run("another application's item is unknown, before and after its owner read it", func(t *testing.T) {
		for range 2 {
			_, err := w.eng.Accounts(w.b, w.item, nil)
			wantCode(t, "accounts", err, model.CodeItemNotFound)
			if _, err := w.eng.Accounts(w.a, w.item, nil); err != nil {
				t.Fatal(err)
			}
		}
		_, err := w.eng.Accounts(w.a, uuid.New(), nil)
		wantCode(t, "an unknown item", err, model.CodeItemNotFound)
		_, err = w.eng.Accounts(w.none, w.item, nil)
		wantCode(t, "no credential", err, model.CodeAPIKeyMissing)
		_, err = w.eng.Account(w.b, w.accounts["CHECKING_ACCOUNT"])
		wantCode(t, "another application's account", err, model.CodeAccountNotFound)
		if a, err := w.eng.Account(w.a, w.accounts["CHECKING_ACCOUNT"]); err != nil || a.Subtype != "CHECKING_ACCOUNT" || a.BankData == nil {
			t.Fatalf("own account %+v (%v)", a, err)
		}
	})

	t.Run("documents are the accounts as the API writes them", func(t *testing.T) {
		for i, d := range all.Documents {
			m, a := fields(t, d), accounts[i]
			if m["id"] != a.ID.String() || m["subtype"] != a.Subtype || m["balance"] != *a.Balance || m["itemId"] != w.item.String() {
				t.Fatalf("document %v for account %+v", m, a)
			}
			if i > 0 && cap(all.Documents[i-1]) != len(all.Documents[i-1]) {
				t.Fatalf("document %d may be appended over the next", i-1)
			}
		}
	})

	t.Run("a Connect Token sees its item's accounts reduced, and no other item", func(t *testing.T) {
		page, err := w.eng.Accounts(w.token, w.item, nil)
		if err != nil || page.Total != all.Total {
			t.Fatalf("token: %+v (%v)", page, err)
		}
		for _, a := range accountsOf(t, page) {
			if a.Balance != nil || a.BankData != nil || a.CreditData != nil || a.Owner != nil || a.TaxNumber != nil || a.Number == "" {
				t.Fatalf("a Connect Token sees %+v", a)
			}
		}
		for _, d := range page.Documents {
			if m := fields(t, d); m["balance"] != nil || m["bankData"] != nil || m["id"] == nil {
				t.Fatalf("a Connect Token's document %s", d)
			}
		}
		_, err = w.eng.Accounts(w.token, w.other, nil)
		wantCode(t, "another item", err, model.CodeForbidden)
		_, err = w.eng.Account(w.token, w.accounts["CHECKING_ACCOUNT"])
		wantCode(t, "one account's full view", err, model.CodeForbidden)
		byItem, err := w.eng.AccountsOfItems(w.token, []uuid.UUID{w.item}, nil)
		if list := byItem[w.item]; err != nil || len(list) != all.Total || list[0].Balance != nil {
			t.Fatalf("item accounts for a token: %d (%v)", len(list), err)
		}
	})

	t.Run("batched reads answer every item asked for", func(t *testing.T) {
		unknown := uuid.New()
		byItem, err := w.eng.AccountsOfItems(w.a, []uuid.UUID{w.item, unknown}, ptr("CREDIT"))
		if err != nil || len(byItem) != 2 || byItem[unknown] == nil || len(byItem[unknown]) != 0 || len(byItem[w.item]) == 0 {
			t.Fatalf("accounts of items %v (%v)", byItem, err)
		}
		for _, a := range byItem[w.item] {
			if a.Type != "CREDIT" {
				t.Fatalf("a CREDIT batch holds %+v", a)
			}
		}
		_, err = w.eng.AccountsOfItems(w.a, []uuid.UUID{w.item}, ptr("X"))
		wantCode(t, "type X", err, model.CodeInvalidParameter)
		out, _ := json.Marshal(byItem[unknown])
		if string(out) != "[]" {
			t.Fatalf("an item without accounts renders %s", out)
		}
	})
}

// A read whose owner check was skipped (the owner remembered) and that finds nothing
// checks again: a deleted item or account answers as unknown, not as an empty list.
func TestDeletedResourcesAreUnknown(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx, _, item := w.application(t, "deleted", "user-ok")
	page, err := w.eng.Accounts(ctx, item, nil)
	if err != nil || page.Total == 0 {
		t.Fatalf("accounts before the deletion: %+v (%v)", page, err)
	}
	account := accountsOf(t, page)[0].ID
	f := model.TransactionFilter{AccountID: account}
	if _, err := w.eng.Transactions(ctx, f, nil, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := w.eng.LegacyTransactions(ctx, model.LegacyTransactionFilter{TransactionFilter: f}, nil, nil); err != nil {
		t.Fatal(err)
	}
	// As DELETE /items/{id} deletes (db.DeleteItem): transactions have no foreign key.
	w.env.Exec(t, `DELETE FROM transactions WHERE account_id IN (SELECT id FROM accounts WHERE item_id = $1)`, item)
	w.env.Exec(t, `DELETE FROM items WHERE id = $1`, item)
	for _, c := range []context.Context{ctx, w.a} {
		_, err = w.eng.Accounts(c, item, nil)
		wantCode(t, "a deleted item's accounts", err, model.CodeItemNotFound)
		_, err = w.eng.Transactions(c, f, nil, nil)
		wantCode(t, "a deleted account's transactions", err, model.CodeAccountNotFound)
		_, err = w.eng.LegacyTransactions(c, model.LegacyTransactionFilter{TransactionFilter: f}, nil, nil)
		wantCode(t, "a deleted account's legacy page", err, model.CodeAccountNotFound)
	}
}
