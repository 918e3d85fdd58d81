package itemsync

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/model"
	"ponte/sandbox"
)

// ingest stores everything the execution collected, inside the execution's final
// transaction, and reports per account what changed.
func (e *Engine) ingest(ctx context.Context, tx *db.Tx, st *state, now time.Time) (map[uuid.UUID]*db.TransactionChanges, error) {
	snap := sandbox.Generate(st.it.ID, st.c.ID, st.scenario.Username, st.ex.Number, now)
	skip := map[model.Product]bool{}
	for _, p := range st.scenario.FailedProducts {
		skip[p] = true
	}
	wanted := func(p model.Product) bool {
		for _, q := range st.it.Products {
			if q == p {
				return !skip[p]
			}
		}
		return false
	}
	accounts := snap.Accounts[:0:0]
	for _, a := range snap.Accounts {
		isCard := a.Type == "CREDIT"
		if (isCard && wanted(model.ProductCreditCards)) || (!isCard && wanted(model.ProductAccounts)) {
			accounts = append(accounts, a)
		}
	}
	if err := tx.ReplaceAccounts(ctx, st.it.ID, accounts, now); err != nil {
		return nil, err
	}
	changes := map[uuid.UUID]*db.TransactionChanges{}
	if wanted(model.ProductTransactions) {
		kept := map[uuid.UUID]bool{}
		for _, a := range accounts {
			kept[a.ID] = true
		}
		txs := snap.Transactions[:0:0]
		for _, t := range snap.Transactions {
			if kept[t.AccountID] {
				txs = append(txs, t)
			}
		}
		names, err := e.categoryNames(ctx)
		if err != nil {
			return nil, err
		}
		for i := range txs {
			categorize(&txs[i], names)
		}
		if changes, err = tx.IngestTransactions(ctx, st.it.ID, txs, now); err != nil {
			return nil, err
		}
	}
	docs := []struct {
		kind  string
		on    bool
		items []db.Document
	}{
		{"investment", wanted(model.ProductInvestments), docsOf(snap.Investments, func(i int) (uuid.UUID, *uuid.UUID, string) {
			return snap.Investments[i].ID, nil, snap.Investments[i].Name
		})},
		{"investment_transaction", wanted(model.ProductInvestmentsTransactions), docsOf(snap.InvestmentTransactions, func(i int) (uuid.UUID, *uuid.UUID, string) {
			t := snap.InvestmentTransactions[i]
			return t.ID, &t.InvestmentID, t.Date.Format(time.RFC3339Nano)
		})},
		{"identity", wanted(model.ProductIdentity) && snap.Identity != nil, identityDocs(snap.Identity)},
		{"loan", wanted(model.ProductLoans), docsOf(snap.Loans, func(i int) (uuid.UUID, *uuid.UUID, string) {
			return snap.Loans[i].ID, nil, ""
		})},
		{"bill", wanted(model.ProductCreditCards), docsOf(snap.Bills, func(i int) (uuid.UUID, *uuid.UUID, string) {
			b := snap.Bills[i]
			return b.ID, &b.AccountID, b.DueDate.Format(time.RFC3339Nano)
		})},
		{"statement", wanted(model.ProductAccounts), docsOf(snap.Statements, func(i int) (uuid.UUID, *uuid.UUID, string) {
			s := snap.Statements[i]
			return s.ID, &s.AccountID, s.Date.Format(time.RFC3339Nano)
		})},
	}
	if st.c.IsOpenFinance {
		docs = append(docs, struct {
			kind  string
			on    bool
			items []db.Document
		}{"resource", true, resources(st, accounts, now)})
		cid := uuid.NewSHA1(st.it.ID, []byte("consent"))
		docs = append(docs, struct {
			kind  string
			on    bool
			items []db.Document
		}{"consent", true, []db.Document{{ID: cid, Data: map[string]any{
			"id": cid, "itemId": st.it.ID, "products": st.it.Products,
			"openFinancePermissionsGranted": []string{"ACCOUNTS_READ", "ACCOUNTS_BALANCES_READ", "RESOURCES_READ",
				"CREDIT_CARDS_ACCOUNTS_READ", "CREDIT_CARDS_ACCOUNTS_TRANSACTIONS_READ", "CUSTOMERS_PERSONAL_IDENTIFICATIONS_READ"},
			"expiresAt": model.NewTime(now.AddDate(1, 0, 0)), "revokedAt": nil}}}})
	}
	for _, d := range docs {
		if !d.on {
			continue
		}
		if err := tx.ReplaceDocuments(ctx, st.it.ID, d.kind, d.items, now); err != nil {
			return nil, err
		}
	}
	return changes, nil
}

func docsOf[T any](list []T, key func(i int) (uuid.UUID, *uuid.UUID, string)) []db.Document {
	out := make([]db.Document, len(list))
	for i := range list {
		id, owner, sort := key(i)
		out[i] = db.Document{ID: id, Owner: owner, Sort: sort, Data: &list[i]}
	}
	return out
}

func identityDocs(id *model.Identity) []db.Document {
	if id == nil {
		return nil
	}
	return []db.Document{{ID: id.ID, Data: id}}
}

// transactionEvents records transactions/created, /updated and /deleted per account, only
// when something changed.
func (e *Engine) transactionEvents(ctx context.Context, tx *db.Tx, st *state, changes map[uuid.UUID]*db.TransactionChanges, now time.Time) error {
	it := st.it
	for acc, c := range changes {
		base := map[string]any{"itemId": it.ID.String(), "accountId": acc.String(), "triggeredBy": st.ex.TriggeredBy}
		if c.Created > 0 {
			p := clone(base)
			from := model.NewTime(now)
			p["transactionsCount"] = c.Created
			p["transactionsMinDate"] = model.NewTime(c.MinDate)
			p["transactionsCreatedAtFrom"] = from
			p["createdTransactionsLink"] = model.CreatedTransactionsLink(e.cfg.BaseURL, acc, from, now)
			ev := &db.Event{ID: uuid.New(), ClientID: it.ClientID, Event: "transactions/created", ItemID: &it.ID, TargetURL: it.WebhookURL, Payload: p}
			p["id"] = ev.ID.String()
			if err := tx.InsertEvent(ctx, ev); err != nil {
				return err
			}
		}
		for _, kind := range []struct {
			name string
			ids  []uuid.UUID
		}{{"transactions/updated", c.Updated}, {"transactions/deleted", c.Deleted}} {
			if len(kind.ids) == 0 {
				continue
			}
			p := clone(base)
			ids := make([]string, len(kind.ids))
			for i, id := range kind.ids {
				ids[i] = id.String()
			}
			p["transactionIds"] = ids
			p["clientId"] = it.ClientID.String()
			if err := tx.InsertEvent(ctx, &db.Event{ClientID: it.ClientID, Event: kind.name, ItemID: &it.ID, TargetURL: it.WebhookURL, Payload: p}); err != nil {
				return err
			}
		}
	}
	return nil
}

func clone(m map[string]any) map[string]any {
	out := make(map[string]any, len(m)+6)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// resources lists what the Open Finance consent covers: the collected accounts, and, for
// CPFs starting with 999 (the documented sandbox switch), one account still pending the
// user's authorisation at the institution.
func resources(st *state, accounts []model.Account, now time.Time) []db.Document {
	t := model.NewTime(now)
	var out []db.Document
	for _, a := range accounts {
		typ := "ACCOUNT"
		if a.Type == "CREDIT" {
			typ = "CREDIT_CARD_ACCOUNT"
		}
		id := uuid.NewSHA1(st.it.ID, []byte("resource:"+a.ID.String()))
		out = append(out, db.Document{ID: id, Sort: "1" + a.ID.String(), Data: &model.ItemResource{ID: id, ItemID: st.it.ID,
			Type: typ, Status: "AVAILABLE", Name: a.Name, CreatedAt: t, UpdatedAt: t}})
	}
	if pendingResources(st.params) {
		id := uuid.NewSHA1(st.it.ID, []byte("resource:pending"))
		out = append(out, db.Document{ID: id, Sort: "2", Data: &model.ItemResource{ID: id, ItemID: st.it.ID,
			Type: "ACCOUNT", Status: "PENDING_AUTHORISATION", Name: "Conta conjunta", CreatedAt: t, UpdatedAt: t}})
	}
	return out
}

func pendingResources(params map[string]string) bool {
	return strings.HasPrefix(params["cpf"], "999")
}

// categorize fills category and categoryId when the institution sent none.
func categorize(t *model.Transaction, names map[string]string) {
	if t.CategoryID != nil {
		return
	}
	in := CategorizeInput{Description: t.Description, Credit: t.Type == "CREDIT"}
	if t.Merchant != nil {
		in.MerchantName = t.Merchant.Name
		if t.Merchant.Category != nil {
			in.MerchantCat = *t.Merchant.Category
		}
	}
	if t.CreditCardMetadata != nil && t.CreditCardMetadata.PayeeMCC != nil {
		in.MCC = *t.CreditCardMetadata.PayeeMCC
	}
	if t.OperationType != nil {
		in.OperationType = *t.OperationType
	}
	id := Categorize(in)
	if id == "" {
		return
	}
	name, ok := names[id]
	if !ok {
		return
	}
	t.CategoryID, t.Category = &id, &name
}
