package itemsync

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/merchants"
	"ponte/model"
)

// collection is what an execution's institution delivered, product by product.
type collection struct {
	Page
	outcomes map[model.Product]Outcome
}

func (c *collection) add(p *Page) error {
	c.Accounts = append(c.Accounts, p.Accounts...)
	// A page's slices are the engine's once delivered (see Institution.Collect), so the
	// first page of transactions is taken as it is: a history of millions of rows is
	// not copied before it is stored.
	if c.Transactions == nil {
		c.Transactions = p.Transactions
	} else {
		c.Transactions = append(c.Transactions, p.Transactions...)
	}
	c.Investments = append(c.Investments, p.Investments...)
	c.InvestmentTransactions = append(c.InvestmentTransactions, p.InvestmentTransactions...)
	if p.Identity != nil {
		c.Identity = p.Identity
	}
	c.Loans = append(c.Loans, p.Loans...)
	if p.CreditInfo != nil {
		c.CreditInfo = p.CreditInfo
	}
	c.Bills = append(c.Bills, p.Bills...)
	c.Statements = append(c.Statements, p.Statements...)
	c.Resources = append(c.Resources, p.Resources...)
	if p.Consent != nil {
		c.Consent = p.Consent
	}
	return nil
}

// adds is true when every product delivered adds to what is stored (statement files).
func (c *collection) adds() bool {
	for _, o := range c.outcomes {
		if !o.Adds {
			return false
		}
	}
	return len(c.outcomes) > 0
}

func (c *collection) pendingResources() bool {
	for _, r := range c.Resources {
		if r.Status == "PENDING_AUTHORISATION" {
			return true
		}
	}
	return false
}

// ingest stores everything the execution collected, inside the execution's final
// transaction, and reports per account what changed.
func (e *Engine) ingest(ctx context.Context, tx *db.Tx, st *state, got *collection, now time.Time) (map[uuid.UUID]*db.TransactionChanges, error) {
	wanted := func(p model.Product) bool {
		out, asked := got.outcomes[p]
		return asked && !out.Unavailable
	}
	// The rules' shared lock comes first, before any row of the item is locked: the
	// recategorization holds it exclusively while it updates transactions, so taking it
	// later could wait on a job that waits on this transaction's rows.
	rules, err := tx.ClientCategoryRules(ctx, st.it.ClientID)
	if err != nil {
		return nil, err
	}
	adds := got.adds()
	store := tx.ReplaceAccounts
	if adds {
		store = tx.AddAccounts
	}
	if err := store(ctx, st.it.ID, got.Accounts, now); err != nil {
		return nil, err
	}
	changes := map[uuid.UUID]*db.TransactionChanges{}
	if wanted(model.ProductTransactions) {
		txs := keptTransactions(got.Transactions, got.Accounts)
		names, err := e.categoryNames(ctx)
		if err != nil {
			return nil, err
		}
		// The merchant directory gives each known merchant its names, CNAE and category,
		// as GET /merchants shows them, and the categorizer the CNAE's category.
		byCNAE, err := merchants.Enrich(ctx, tx, txs)
		if err != nil {
			return nil, err
		}
		subtypes := make(map[uuid.UUID]string, len(got.Accounts))
		for _, a := range got.Accounts {
			subtypes[a.ID] = a.Subtype
		}
		// Categorizing is per row: the store does it as it writes each row, so a first
		// history's categorizing runs beside PostgreSQL's writing instead of before it.
		d := db.Delivery{Adds: adds, Since: got.outcomes[model.ProductTransactions].Since, Prepare: func(t *model.Transaction) {
			categorize(t, names, byCNAE)
			applyCategoryRules(t, rules, subtypes[t.AccountID], names)
		}}
		for _, a := range got.Accounts {
			d.Accounts = append(d.Accounts, a.ID)
		}
		if changes, err = tx.IngestTransactions(ctx, st.it.ID, txs, d, now); err != nil {
			return nil, err
		}
		readKey := transactionsReadKey(st)
		st.it.TransactionsReadAt, st.it.TransactionsReadKey = &now, &readKey
	}
	docs := []struct {
		kind  string
		on    bool
		items []db.Document
	}{
		{"investment", wanted(model.ProductInvestments), docsOf(got.Investments, func(i int) (uuid.UUID, *uuid.UUID, string) {
			return got.Investments[i].ID, nil, got.Investments[i].Name
		})},
		{"investment_transaction", wanted(model.ProductInvestmentsTransactions), docsOf(got.InvestmentTransactions, func(i int) (uuid.UUID, *uuid.UUID, string) {
			t := got.InvestmentTransactions[i]
			return t.ID, &t.InvestmentID, t.Date.Format(time.RFC3339Nano)
		})},
		{"identity", wanted(model.ProductIdentity) && got.Identity != nil, identityDocs(got.Identity)},
		{"loan", wanted(model.ProductLoans), docsOf(got.Loans, func(i int) (uuid.UUID, *uuid.UUID, string) {
			return got.Loans[i].ID, nil, ""
		})},
		{"credit_information", wanted(model.ProductCreditInfo) && got.CreditInfo != nil, creditInfoDocs(got.CreditInfo)},
		{"bill", wanted(model.ProductCreditCards), docsOf(got.Bills, func(i int) (uuid.UUID, *uuid.UUID, string) {
			b := got.Bills[i]
			return b.ID, &b.AccountID, b.DueDate.Format(time.RFC3339Nano)
		})},
		{"statement", wanted(model.ProductAccounts), docsOf(got.Statements, func(i int) (uuid.UUID, *uuid.UUID, string) {
			s := got.Statements[i]
			return s.ID, &s.AccountID, s.Date.Format(time.RFC3339Nano)
		})},
	}
	if st.c.IsOpenFinance {
		docs = append(docs, struct {
			kind  string
			on    bool
			items []db.Document
		}{"resource", true, resourceDocs(got.Resources)})
		if got.Consent != nil {
			docs = append(docs, struct {
				kind  string
				on    bool
				items []db.Document
			}{"consent", true, []db.Document{{ID: uuid.NewSHA1(st.it.ID, []byte("consent")), Data: got.Consent}}})
		}
	}
	for _, d := range docs {
		// What a statement file adds never empties a product it says nothing of.
		if !d.on || (adds && len(d.items) == 0) {
			continue
		}
		if err := tx.ReplaceDocuments(ctx, st.it.ID, d.kind, d.items, now); err != nil {
			return nil, err
		}
	}
	// The item's history: the data changes of sandbox control this execution collected.
	if st.sess != nil {
		if err := markCollected(ctx, tx, st, wanted, now); err != nil {
			return nil, err
		}
	}
	return changes, nil
}

// keptTransactions is txs without the rows of accounts not delivered. The list is
// filtered in place (the collection owns it), so a history whose rows all belong to
// delivered accounts, the usual case, is neither copied nor moved.
func keptTransactions(txs []model.Transaction, accounts []model.Account) []model.Transaction {
	kept := make(map[uuid.UUID]bool, len(accounts))
	for _, a := range accounts {
		kept[a.ID] = true
	}
	n := 0
	for i := range txs {
		if !kept[txs[i].AccountID] {
			continue
		}
		if n != i {
			txs[n] = txs[i]
		}
		n++
	}
	clear(txs[n:])
	return txs[:n]
}

// resourceDocs orders an Open Finance consent's resources: the collected accounts, then
// those still pending the user's authorisation.
func resourceDocs(list []model.ItemResource) []db.Document {
	out := make([]db.Document, len(list))
	for i := range list {
		sort := fmt.Sprintf("1%08d", i)
		if list[i].Status == "PENDING_AUTHORISATION" {
			sort = fmt.Sprintf("2%08d", i)
		}
		out[i] = db.Document{ID: list[i].ID, Sort: sort, Data: &list[i]}
	}
	return out
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

// categorize fills category and categoryId when the institution sent none; byCNAE is the
// category the merchant directory gives each merchant CNPJ it knows.
func categorize(t *model.Transaction, names map[string]string, byCNAE map[string]string) {
	if t.CategoryID != nil {
		return
	}
	in := CategorizeInput{Description: t.Description, Credit: t.Type == "CREDIT"}
	if t.Merchant != nil {
		in.MerchantName = t.Merchant.Name
		in.DirectoryCategory = byCNAE[t.Merchant.CNPJ]
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

func creditInfoDocs(c *model.CreditInformation) []db.Document {
	if c == nil {
		return nil
	}
	return []db.Document{{ID: c.ID, Data: c}}
}
