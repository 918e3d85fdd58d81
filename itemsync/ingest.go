package itemsync

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/db"
	"ponte/model"
	"ponte/sandbox"
)

// accountChanges is what one execution changed in one account's transactions.
type accountChanges struct {
	created int
	minDate time.Time
	updated []uuid.UUID
	deleted []uuid.UUID
}

// ingest stores everything the execution collected, inside the execution's final
// transaction, and reports per account what changed.
func (e *Engine) ingest(ctx context.Context, tx *db.Tx, st *state, now time.Time) (map[uuid.UUID]*accountChanges, error) {
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
	if err := upsertAccounts(ctx, tx, st.it.ID, accounts, now); err != nil {
		return nil, err
	}
	changes := map[uuid.UUID]*accountChanges{}
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
		if changes, err = ingestTransactions(ctx, tx, st.it.ID, txs, now); err != nil {
			return nil, err
		}
	}
	docs := []struct {
		kind  string
		on    bool
		items []document
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
			items []document
		}{"resource", true, resources(st, accounts, now)})
		cid := uuid.NewSHA1(st.it.ID, []byte("consent"))
		docs = append(docs, struct {
			kind  string
			on    bool
			items []document
		}{"consent", true, []document{{id: cid, data: map[string]any{
			"id": cid, "itemId": st.it.ID, "products": st.it.Products,
			"openFinancePermissionsGranted": []string{"ACCOUNTS_READ", "ACCOUNTS_BALANCES_READ", "RESOURCES_READ",
				"CREDIT_CARDS_ACCOUNTS_READ", "CREDIT_CARDS_ACCOUNTS_TRANSACTIONS_READ", "CUSTOMERS_PERSONAL_IDENTIFICATIONS_READ"},
			"expiresAt": model.NewTime(now.AddDate(1, 0, 0)), "revokedAt": nil}}}})
	}
	for _, d := range docs {
		if !d.on {
			continue
		}
		if err := replaceDocuments(ctx, tx, st.it.ID, d.kind, d.items, now); err != nil {
			return nil, err
		}
	}
	return changes, nil
}

type document struct {
	id    uuid.UUID
	owner *uuid.UUID
	sort  string
	data  any
}

func docsOf[T any](list []T, key func(i int) (uuid.UUID, *uuid.UUID, string)) []document {
	out := make([]document, len(list))
	for i := range list {
		id, owner, sort := key(i)
		out[i] = document{id: id, owner: owner, sort: sort, data: &list[i]}
	}
	return out
}

func identityDocs(id *model.Identity) []document {
	if id == nil {
		return nil
	}
	return []document{{id: id.ID, data: id}}
}

func upsertAccounts(ctx context.Context, tx *db.Tx, itemID uuid.UUID, list []model.Account, now time.Time) error {
	ids := make([]uuid.UUID, 0, len(list))
	for i := range list {
		a := &list[i]
		ids = append(ids, a.ID)
		a.CreatedAt, a.UpdatedAt = model.Time{}, model.Time{}
		data, err := json.Marshal(a)
		if err != nil {
			return err
		}
		if _, err := tx.PGX.Exec(ctx, `INSERT INTO accounts (id, item_id, type, data, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $5)
			ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data, type = EXCLUDED.type,
				updated_at = CASE WHEN accounts.data IS DISTINCT FROM EXCLUDED.data THEN EXCLUDED.updated_at ELSE accounts.updated_at END`,
			a.ID, itemID, string(a.Type), data, now); err != nil {
			return fmt.Errorf("store account: %w", err)
		}
	}
	// Accounts no longer reported go, with their transactions (which have no foreign key).
	if _, err := tx.PGX.Exec(ctx, `DELETE FROM transactions WHERE account_id IN (SELECT id FROM accounts WHERE item_id = $1 AND NOT (id = ANY($2)))`, itemID, ids); err != nil {
		return err
	}
	_, err := tx.PGX.Exec(ctx, `DELETE FROM accounts WHERE item_id = $1 AND NOT (id = ANY($2))`, itemID, ids)
	return err
}

// ingestTransactions stages the snapshot with COPY and merges it in three set-based
// statements, so a history of a million rows costs a few statements, not a million, and a
// repeated execution changes nothing.
func ingestTransactions(ctx context.Context, tx *db.Tx, itemID uuid.UUID, list []model.Transaction, now time.Time) (map[uuid.UUID]*accountChanges, error) {
	var existing bool
	if err := tx.PGX.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM transactions WHERE account_id IN (SELECT id FROM accounts WHERE item_id = $1))`, itemID).Scan(&existing); err != nil {
		return nil, err
	}
	if !existing {
		return firstIngest(ctx, tx, itemID, list, now)
	}
	if _, err := tx.PGX.Exec(ctx, `CREATE TEMP TABLE tx_stage (
		id uuid, account_id uuid, date timestamptz, status text, amount numeric, bill_id uuid, type text, category_id text, data jsonb) ON COMMIT DROP`); err != nil {
		return nil, err
	}
	src, encErr := transactionRows(list, nil)
	if _, err := tx.PGX.CopyFrom(ctx, pgx.Identifier{"tx_stage"}, transactionColumns, src); err != nil {
		if *encErr != nil {
			return nil, *encErr
		}
		return nil, fmt.Errorf("stage transactions: %w", err)
	}
	changes := map[uuid.UUID]*accountChanges{}
	get := func(id uuid.UUID) *accountChanges {
		c, ok := changes[id]
		if !ok {
			c = &accountChanges{}
			changes[id] = c
		}
		return c
	}
	rows, err := tx.PGX.Query(ctx, `WITH ins AS (
			INSERT INTO transactions (id, item_id, account_id, date, status, amount, bill_id, type, category_id, data, created_at, updated_at)
			SELECT s.id, $1, s.account_id, s.date, s.status, s.amount, s.bill_id, s.type, s.category_id,
				(s.data || jsonb_build_object('createdAt', $3::text, 'updatedAt', $3::text))::text, $2, $2 FROM tx_stage s
			ON CONFLICT (id) DO NOTHING
			RETURNING account_id, date)
		SELECT account_id, count(*), min(date) FROM ins GROUP BY account_id`, itemID, now, model.NewTime(now).Format(model.TimeLayout))
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var acc uuid.UUID
		var n int
		var min time.Time
		if err := rows.Scan(&acc, &n, &min); err != nil {
			rows.Close()
			return nil, err
		}
		c := get(acc)
		c.created, c.minDate = n, min
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	collect := func(sql string, into func(*accountChanges, uuid.UUID), args ...any) error {
		rows, err := tx.PGX.Query(ctx, sql, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id, acc uuid.UUID
			if err := rows.Scan(&id, &acc); err != nil {
				return err
			}
			into(get(acc), id)
		}
		return rows.Err()
	}
	// A row changed when the sync's document differs from the stored one without what the
	// row lays over it (timestamps, and the category when the client chose one).
	if err := collect(`WITH cur AS (
			SELECT t.id, t.data::jsonb AS j, t.user_category_id IS NOT NULL AS chosen
			FROM transactions t JOIN tx_stage s ON s.id = t.id WHERE t.item_id = $1 AND t.created_at < $2),
		changed AS (
			SELECT c.id, c.j, c.chosen FROM cur c JOIN tx_stage s ON s.id = c.id
			WHERE c.j - 'createdAt' - 'updatedAt' - 'categoryId' - 'category' IS DISTINCT FROM s.data - 'createdAt' - 'updatedAt' - 'categoryId' - 'category'
				OR (NOT c.chosen AND (c.j->'categoryId', c.j->'category') IS DISTINCT FROM (s.data->'categoryId', s.data->'category')))
		UPDATE transactions t SET date = s.date, status = s.status, amount = s.amount, bill_id = s.bill_id, type = s.type,
			category_id = CASE WHEN c.chosen THEN t.category_id ELSE s.category_id END,
			data = (s.data || jsonb_build_object('createdAt', c.j->'createdAt', 'updatedAt', $3::text)
				|| CASE WHEN c.chosen THEN jsonb_build_object('categoryId', c.j->'categoryId', 'category', c.j->'category') ELSE '{}'::jsonb END)::text,
			updated_at = $2
		FROM changed c JOIN tx_stage s ON s.id = c.id WHERE t.id = c.id
		RETURNING t.id, t.account_id`, func(c *accountChanges, id uuid.UUID) { c.updated = append(c.updated, id) }, itemID, now, model.NewTime(now).Format(model.TimeLayout)); err != nil {
		return nil, err
	}
	// Only rows inside the snapshot's window can have disappeared: older history is kept.
	if err := collect(`DELETE FROM transactions t
		USING (SELECT account_id, min(date) AS since FROM tx_stage GROUP BY account_id) w
		WHERE t.item_id = $1 AND t.account_id = w.account_id AND t.date >= w.since
			AND NOT EXISTS (SELECT 1 FROM tx_stage s WHERE s.id = t.id)
		RETURNING t.id, t.account_id`, func(c *accountChanges, id uuid.UUID) { c.deleted = append(c.deleted, id) }, itemID); err != nil {
		return nil, err
	}
	return changes, nil
}

// transactionColumns are the columns transactionRows fills, after the extra ones.
var transactionColumns = []string{"id", "account_id", "date", "status", "amount", "bill_id", "type", "category_id", "data"}

// transactionRows streams list as COPY rows; extra columns come first. With stamp the
// documents carry it as createdAt and updatedAt (rows written as they are); without, no
// timestamps (staged rows, compared with stored ones before they are stamped).
func transactionRows(list []model.Transaction, stamp *time.Time, extra ...any) (pgx.CopyFromSource, *error) {
	i := 0
	var encErr error
	return pgx.CopyFromFunc(func() ([]any, error) {
		if i >= len(list) {
			return nil, nil
		}
		t := &list[i]
		i++
		t.CreatedAt, t.UpdatedAt = model.Time{}, model.Time{}
		if stamp != nil {
			t.CreatedAt, t.UpdatedAt = model.NewTime(*stamp), model.NewTime(*stamp)
		}
		data, err := json.Marshal(t)
		if err != nil {
			encErr = err
			return nil, err
		}
		var bill *uuid.UUID
		if t.CreditCardMetadata != nil && t.CreditCardMetadata.BillID != nil {
			if id, err := uuid.Parse(*t.CreditCardMetadata.BillID); err == nil {
				bill = &id
			}
		}
		row := append(extra[:len(extra):len(extra)], t.ID, t.AccountID, t.Date.Time, t.Status, t.Amount, bill, t.Type, t.CategoryID, string(data))
		return row, nil
	}), &encErr
}

// firstIngest copies an item's first history straight into the table: every row is new,
// so the staging and merge steps would only cost time.
func firstIngest(ctx context.Context, tx *db.Tx, itemID uuid.UUID, list []model.Transaction, now time.Time) (map[uuid.UUID]*accountChanges, error) {
	src, encErr := transactionRows(list, &now, itemID, now, now)
	if _, err := tx.PGX.CopyFrom(ctx, pgx.Identifier{"transactions"},
		append([]string{"item_id", "created_at", "updated_at"}, transactionColumns...), src); err != nil {
		if *encErr != nil {
			return nil, *encErr
		}
		return nil, fmt.Errorf("copy transactions: %w", err)
	}
	changes := map[uuid.UUID]*accountChanges{}
	for i := range list {
		t := &list[i]
		c, ok := changes[t.AccountID]
		if !ok {
			c = &accountChanges{minDate: t.Date.Time}
			changes[t.AccountID] = c
		}
		c.created++
		if t.Date.Before(c.minDate) {
			c.minDate = t.Date.Time
		}
	}
	return changes, nil
}

func replaceDocuments(ctx context.Context, tx *db.Tx, itemID uuid.UUID, kind string, list []document, now time.Time) error {
	if _, err := tx.PGX.Exec(ctx, `DELETE FROM product_documents WHERE item_id = $1 AND kind = $2`, itemID, kind); err != nil {
		return err
	}
	batch := &pgx.Batch{}
	for _, d := range list {
		data, err := json.Marshal(d.data)
		if err != nil {
			return err
		}
		batch.Queue(`INSERT INTO product_documents (id, kind, item_id, owner_id, sort_key, data, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`, d.id, kind, itemID, d.owner, d.sort, data, now)
	}
	if batch.Len() == 0 {
		return nil
	}
	return tx.PGX.SendBatch(ctx, batch).Close()
}

// transactionEvents records transactions/created, /updated and /deleted per account, only
// when something changed.
func (e *Engine) transactionEvents(ctx context.Context, tx *db.Tx, st *state, changes map[uuid.UUID]*accountChanges, now time.Time) error {
	it := st.it
	for acc, c := range changes {
		base := map[string]any{"itemId": it.ID.String(), "accountId": acc.String(), "triggeredBy": st.ex.TriggeredBy}
		if c.created > 0 {
			p := clone(base)
			from := model.NewTime(now)
			p["transactionsCount"] = c.created
			p["transactionsMinDate"] = model.NewTime(c.minDate)
			p["transactionsCreatedAtFrom"] = from
			q := url.Values{"accountId": {acc.String()}, "createdAtFrom": {from.Format(model.TimeLayout)}}
			p["createdTransactionsLink"] = e.cfg.BaseURL + "/v2/transactions?" + q.Encode()
			ev := &db.Event{ID: uuid.New(), ClientID: it.ClientID, Event: "transactions/created", ItemID: &it.ID, TargetURL: it.WebhookURL, Payload: p}
			p["id"] = ev.ID.String()
			if err := tx.InsertEvent(ctx, ev); err != nil {
				return err
			}
		}
		for _, kind := range []struct {
			name string
			ids  []uuid.UUID
		}{{"transactions/updated", c.updated}, {"transactions/deleted", c.deleted}} {
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
func resources(st *state, accounts []model.Account, now time.Time) []document {
	t := model.NewTime(now)
	var out []document
	for _, a := range accounts {
		typ := "ACCOUNT"
		if a.Type == "CREDIT" {
			typ = "CREDIT_CARD_ACCOUNT"
		}
		id := uuid.NewSHA1(st.it.ID, []byte("resource:"+a.ID.String()))
		out = append(out, document{id: id, sort: "1" + a.ID.String(), data: &model.ItemResource{ID: id, ItemID: st.it.ID,
			Type: typ, Status: "AVAILABLE", Name: a.Name, CreatedAt: t, UpdatedAt: t}})
	}
	if pendingResources(st.params) {
		id := uuid.NewSHA1(st.it.ID, []byte("resource:pending"))
		out = append(out, document{id: id, sort: "2", data: &model.ItemResource{ID: id, ItemID: st.it.ID,
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
