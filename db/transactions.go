package db

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/model"
)

// TransactionFilter holds the filters of the transaction lists.
type TransactionFilter = model.TransactionFilter

// TransactionKey is a position in the (date, id) order of an account's transactions.
type TransactionKey = model.TransactionKey

// transactionJSON is a stored row's API document: rows keep it whole (timestamps and the
// client's category included, see migration 0007), so a page goes from PostgreSQL to the
// client as stored.
const transactionJSON = `t.data`

// APITimeSQL formats a timestamptz expression as the API's dates in SQL.
func APITimeSQL(expr string) string {
	return `to_char((` + expr + `) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
}

// accountTransactions is the WHERE clause of the transactions of an account of item ($1
// the item, $2 the account), with the filters that are set (transactionFilters).
//
// The item is a parameter, not looked up inside the statement, so that PostgreSQL prunes
// to its one partition while planning a read of the parent; once the item's leaf is known
// the reads name the leaf itself (leaves.go). Looked up inside, the item is known only
// while executing, and every call planned all sixteen partitions (0.4-0.6 ms of
// PostgreSQL's CPU, against 0.08 ms to execute the page).
func accountTransactions(item uuid.UUID, f TransactionFilter, args *[]any) string {
	*args = append(*args, item, f.AccountID)
	return ` WHERE t.item_id = $1 AND t.account_id = $2` + transactionFilters(f, args)
}

// transactionFilters are the conditions of f's filters that are set (its account aside),
// each with its argument added to args. A filter left out is left out of the text too, not
// written as "$n IS NULL OR ...", which makes PostgreSQL plan each call afresh: its plan
// for the unknown value differs from the one for NULL.
func transactionFilters(f TransactionFilter, args *[]any) string {
	var b strings.Builder
	cond := func(sql string, v any) {
		*args = append(*args, v)
		b.WriteString(strings.ReplaceAll(sql, "$", "$"+strconv.Itoa(len(*args))))
	}
	if f.DateFrom != nil {
		cond(` AND t.date >= $`, *f.DateFrom)
	}
	if f.DateTo != nil {
		cond(` AND t.date <= $`, *f.DateTo)
	}
	if f.CreatedAtFrom != nil {
		cond(` AND t.created_at >= $`, *f.CreatedAtFrom)
	}
	if len(f.IDs) > 0 {
		cond(` AND t.id = ANY($)`, f.IDs)
	}
	return b.String()
}

// TransactionPage reads up to limit transactions of an account of item after the key, in
// (date, id) order, as ready JSON documents, with each one's key. Once the item's leaf is
// known it reads the leaf (leaves.go) under a generic plan (genericplan.go).
func (c *conn) TransactionPage(ctx context.Context, item uuid.UUID, f TransactionFilter, after *TransactionKey, limit int) ([]model.JSONDocument, []TransactionKey, error) {
	leaf := leafOf(item)
	sql, args := transactionPageQuery(leaf, item, f, after, limit)
	query, learned := c.queryGenericPlan, ""
	targets := func(k *TransactionKey) []any { return []any{&k.Date, &k.ID} }
	if leaf == "" {
		query = c.pg.Query
		targets = func(k *TransactionKey) []any { return []any{&k.Date, &k.ID, &learned} }
	}
	rows, err := query(ctx, sql, args...)
	if err != nil {
		return nil, nil, err
	}
	docs, keys, err := docsAndKeys(rows, targets)
	if learned != "" {
		learnLeaf(item, learned)
	}
	return docs, keys, err
}

// transactionPageQuery is TransactionPage's statement: on item's leaf, or, when leaf is "",
// on the parent with leafColumn last.
func transactionPageQuery(leaf string, item uuid.UUID, f TransactionFilter, after *TransactionKey, limit int) (string, []any) {
	var args []any
	where := accountTransactions(item, f, &args)
	if after != nil {
		args = append(args, after.Date, after.ID)
		where += ` AND (t.date, t.id) > ($` + strconv.Itoa(len(args)-1) + `, $` + strconv.Itoa(len(args)) + `)`
	}
	args = append(args, limit)
	from := `, t.date, t.id FROM ` + leaf + ` t`
	if leaf == "" {
		from = `, t.date, t.id, ` + leafColumn + ` FROM transactions t`
	}
	return `SELECT ` + transactionJSON + from + where + `
		ORDER BY t.date, t.id LIMIT $` + strconv.Itoa(len(args)), args
}

// AccountOwner returns the client that owns an account, and its item.
func (c *conn) AccountOwner(ctx context.Context, id uuid.UUID) (client, item uuid.UUID, found bool, err error) {
	err = c.pg.QueryRow(ctx, `SELECT i.client_id, i.id FROM accounts a JOIN items i ON i.id = a.item_id WHERE a.id = $1`, id).Scan(&client, &item)
	if isNoRows(err) {
		return client, item, false, nil
	}
	return client, item, err == nil, err
}

// Transaction reads one transaction of clientID's items as its API document.
func (c *conn) Transaction(ctx context.Context, clientID, id uuid.UUID) (json.RawMessage, bool, error) {
	var raw []byte
	err := c.pg.QueryRow(ctx, `SELECT `+transactionJSON+` FROM transactions t
		JOIN accounts a ON a.id = t.account_id JOIN items i ON i.id = a.item_id
		WHERE t.id = $1 AND i.client_id = $2`, id, clientID).Scan(&raw)
	if isNoRows(err) {
		return nil, false, nil
	}
	return raw, err == nil, err
}

// SetTransactionCategory records the client's category for a transaction, and the choice
// as categorization feedback, in one transaction. found is false for unknown transactions.
func (d *DB) SetTransactionCategory(ctx context.Context, clientID, id uuid.UUID, categoryID string) (bool, error) {
	found := false
	err := d.InTx(ctx, func(ctx context.Context, tx *Tx) error {
		var desc string
		var previous *string
		var itemID uuid.UUID
		err := tx.pg.QueryRow(ctx, `SELECT t.data::jsonb->>'description', t.category_id, t.item_id
			FROM transactions t JOIN accounts a ON a.id = t.account_id JOIN items i ON i.id = a.item_id
			WHERE t.id = $1 AND i.client_id = $2 FOR UPDATE OF t`, id, clientID).Scan(&desc, &previous, &itemID)
		if isNoRows(err) {
			return nil
		}
		if err != nil {
			return err
		}
		found = true
		if _, err := tx.pg.Exec(ctx, `UPDATE transactions SET user_category_id = $2, category_id = $2, category_rule_id = NULL, content_hash = NULL, updated_at = now(),
			data = (data::jsonb || jsonb_build_object('categoryId', $2::text, 'category', (SELECT description_translated FROM categories WHERE id = $2),
				'categoryOrigin', '{"type": "MANUAL"}'::jsonb,
				'updatedAt', `+APITimeSQL("now()")+`))::text WHERE id = $1 AND item_id = $3`, id, categoryID, itemID); err != nil {
			return err
		}
		_, err = tx.pg.Exec(ctx, `INSERT INTO category_feedback (id, client_id, transaction_id, description, previous_category_id, category_id)
			VALUES ($1, $2, $3, $4, $5, $6)`, uuid.New(), clientID, id, desc, previous, categoryID)
		return err
	})
	return found, err
}

// CategoryFeedback lists a client's category choices, newest first.
func (c *conn) CategoryFeedback(ctx context.Context, clientID uuid.UUID, limit int) ([]*model.CategoryFeedback, error) {
	rows, err := c.pg.Query(ctx, `SELECT id, transaction_id, description, previous_category_id, category_id, created_at
		FROM category_feedback WHERE client_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`, clientID, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (*model.CategoryFeedback, error) {
		f := &model.CategoryFeedback{}
		var at time.Time
		err := r.Scan(&f.ID, &f.TransactionID, &f.Description, &f.PreviousCategoryID, &f.CategoryID, &at)
		f.CreatedAt = model.NewTime(at)
		return f, err
	})
}

// DocumentScope selects product documents of one kind: by item, by owner, or one by id.
type DocumentScope = model.DocumentScope

// documentJSON renders a product document with its row's timestamps.
const documentJSON = `p.data || jsonb_build_object(
	'createdAt', to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
	'updatedAt', to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`

// documentWhere applies a DocumentScope's filters, as $3 to $6.
const documentWhere = `
	AND ($3::uuid IS NULL OR p.item_id = $3) AND ($4::uuid IS NULL OR p.owner_id = $4) AND ($5::uuid IS NULL OR p.id = $5)
	AND ($6::text IS NULL OR p.data->>'type' = $6)`

// ProductDocuments reads documents of clientID's items, in their stored order, with the
// row timestamps laid over them; total counts every match, limit and offset page them.
func (d *DB) ProductDocuments(ctx context.Context, clientID uuid.UUID, s DocumentScope, limit, offset int) ([]model.JSONDocument, int, error) {
	const from = ` FROM product_documents p JOIN items i ON i.id = p.item_id WHERE p.kind = $1 AND i.client_id = $2` + documentWhere
	return pageWithTotal(ctx, d.pg, `SELECT `+documentJSON+`, count(*) OVER ()`+from+` ORDER BY p.sort_key, p.id LIMIT $7 OFFSET $8`,
		`SELECT count(*)`+from, 6, []any{s.Kind, clientID, s.ItemID, s.OwnerID, s.ID, s.Type, limit, offset}, offset,
		func(r pgx.CollectableRow, total *int) (model.JSONDocument, error) {
			var raw []byte
			err := r.Scan(&raw, total)
			return raw, err
		})
}

// LegacyTransactionFilter adds the filters of the deprecated GET /transactions.
type LegacyTransactionFilter = model.LegacyTransactionFilter

// legacyWhere is accountTransactions with GET /transactions' bill filter.
func legacyWhere(item uuid.UUID, f LegacyTransactionFilter, args *[]any) string {
	where := accountTransactions(item, f.TransactionFilter, args)
	if f.BillID != nil {
		*args = append(*args, *f.BillID)
		where += ` AND t.bill_id = $` + strconv.Itoa(len(*args))
	}
	return where
}

// LegacyTransactionPage reads one OFFSET page of GET /transactions of an account of item,
// in (date, id) order.
func (c *conn) LegacyTransactionPage(ctx context.Context, item uuid.UUID, f LegacyTransactionFilter, limit, offset int) ([]model.JSONDocument, error) {
	var args []any
	where := legacyWhere(item, f, &args)
	args = append(args, limit, offset)
	rows, err := c.pg.Query(ctx, `SELECT `+transactionJSON+` FROM transactions t`+where+`
		ORDER BY t.date, t.id LIMIT $`+strconv.Itoa(len(args)-1)+` OFFSET $`+strconv.Itoa(len(args)), args...)
	if err != nil {
		return nil, err
	}
	return collectDocs(rows, 0, nil)
}

// LegacyTransactionCount counts the matches of a GET /transactions filter.
func (c *conn) LegacyTransactionCount(ctx context.Context, item uuid.UUID, f LegacyTransactionFilter) (int, error) {
	var args []any
	where := legacyWhere(item, f, &args)
	var n int
	err := c.pg.QueryRow(ctx, `SELECT count(*) FROM transactions t`+where, args...).Scan(&n)
	return n, err
}

// AccountVersion is the last change of an account's item; counts of its transactions stay
// valid while it holds (syncs change the item at every step).
// found is false when the account does not exist.
func (c *conn) AccountVersion(ctx context.Context, accountID uuid.UUID) (v time.Time, found bool, err error) {
	err = c.pg.QueryRow(ctx, `SELECT i.updated_at FROM accounts a JOIN items i ON i.id = a.item_id WHERE a.id = $1`, accountID).Scan(&v)
	if isNoRows(err) {
		return v, false, nil
	}
	return v, err == nil, err
}
