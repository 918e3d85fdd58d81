package collected_test

import (
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
	if all.Total != len(all.Results) || all.Total < 3 || all.Page != 1 || all.TotalPages != 1 {
		t.Fatalf("accounts page %+v", all)
	}
	for _, a := range all.Results {
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
			for _, a := range page.Results {
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
		_, err = w.eng.AccountDocs(w.a, nil, w.item, ptr("SAVINGS"))
		wantCode(t, "documents of type SAVINGS", err, model.CodeInvalidParameter)
		_, err = w.eng.ItemAccounts(w.a, w.item, ptr("SAVINGS"))
		wantCode(t, "item accounts of type SAVINGS", err, model.CodeInvalidParameter)
	})

	t.Run("another application's item is unknown, before and after its owner read it", func(t *testing.T) {
		for range 2 {
			_, err := w.eng.Accounts(w.b, w.item, nil)
			wantCode(t, "accounts", err, model.CodeItemNotFound)
			_, err = w.eng.AccountDocs(w.b, nil, w.item, nil)
			wantCode(t, "account documents", err, model.CodeItemNotFound)
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
		buf := []byte{}
		docs, err := w.eng.AccountDocs(w.a, &buf, w.item, nil)
		if err != nil || len(docs) != all.Total {
			t.Fatalf("%d documents (%v), %d accounts", len(docs), err, all.Total)
		}
		byID := map[string]map[string]any{}
		for _, d := range docs {
			m := fields(t, d)
			byID[m["id"].(string)] = m
		}
		for _, a := range all.Results {
			m := byID[a.ID.String()]
			if m == nil || m["subtype"] != a.Subtype || m["balance"] != *a.Balance || m["itemId"] != w.item.String() {
				t.Fatalf("document %v for account %+v", m, a)
			}
		}
	})

	t.Run("a Connect Token sees its item's accounts reduced, and no other item", func(t *testing.T) {
		page, err := w.eng.Accounts(w.token, w.item, nil)
		if err != nil || page.Total != all.Total {
			t.Fatalf("token: %+v (%v)", page, err)
		}
		for _, a := range page.Results {
			if a.Balance != nil || a.BankData != nil || a.CreditData != nil || a.Owner != nil || a.TaxNumber != nil || a.Number == "" {
				t.Fatalf("a Connect Token sees %+v", a)
			}
		}
		docs, err := w.eng.AccountDocs(w.token, nil, w.item, nil)
		if err != nil || len(docs) != all.Total {
			t.Fatalf("token documents: %d (%v)", len(docs), err)
		}
		for _, d := range docs {
			if m := fields(t, d); m["balance"] != nil || m["bankData"] != nil || m["id"] == nil {
				t.Fatalf("a Connect Token's document %s", d)
			}
		}
		_, err = w.eng.Accounts(w.token, w.other, nil)
		wantCode(t, "another item", err, model.CodeForbidden)
		_, err = w.eng.Account(w.token, w.accounts["CHECKING_ACCOUNT"])
		wantCode(t, "one account's full view", err, model.CodeForbidden)
		list, err := w.eng.ItemAccounts(w.token, w.item, nil)
		if err != nil || len(list) != all.Total || list[0].Balance != nil {
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
