package db

import (
	"bytes"
	"context"
	"sort"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"ponte/model"
)

// AccountsOfItems lists the accounts of several items in one statement, in the order of
// Accounts within each item: the dataloader of items → accounts.
func (c *conn) AccountsOfItems(ctx context.Context, itemIDs []uuid.UUID, typ *string) ([]*model.Account, error) {
	rows, err := c.pg.Query(ctx, `SELECT data FROM accounts
		WHERE item_id = ANY($1) AND ($2::text IS NULL OR type = $2) ORDER BY item_id, type DESC, subtype, id`, itemIDs, typ)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, accountRow)
}

// TransactionRows are one account's rows of a transaction page: documents and their keys.
type TransactionRows struct {
	Docs []model.JSONDocument
	Keys []TransactionKey
}

// FirstTransactionPages reads the first limit transactions of each account under one
// filter, in one statement (a lateral join per account): the dataloader of
// accounts → transactions. f.AccountID is ignored. itemIDs[i] is the item of
// accountIDs[i]: naming the items lets PostgreSQL plan only their partitions (see
// accountTransactions).
func (c *conn) FirstTransactionPages(ctx context.Context, accountIDs, itemIDs []uuid.UUID, f TransactionFilter, limit int) (map[uuid.UUID]*TransactionRows, error) {
	args := []any{accountIDs, itemIDs}
	filters := transactionFilters(f, &args)
	args = append(args, limit)
	rows, err := c.pg.Query(ctx, `SELECT a.id, x.doc, x.date, x.id FROM unnest($1::uuid[]) AS a(id)
		CROSS JOIN LATERAL (SELECT `+transactionJSON+` AS doc, t.date, t.id FROM transactions t
			WHERE t.item_id = ANY($2) AND t.account_id = a.id`+filters+`
			ORDER BY t.date, t.id LIMIT $`+strconv.Itoa(len(args))+`) x`, args...)
	if err != nil {
		return nil, err
	}
	out := make(map[uuid.UUID]*TransactionRows, len(accountIDs))
	for _, id := range accountIDs {
		out[id] = &TransactionRows{}
	}
	var accounts []uuid.UUID
	var keys []TransactionKey
	var account uuid.UUID
	var k TransactionKey
	dest := []any{&account, nil, &k.Date, &k.ID} // once, as in docsAndKeys; nil: the document, read raw
	docs, err := collectDocs(rows, 1, func(r pgx.CollectableRow) error {
		if err := r.Scan(dest...); err != nil {
			return err
		}
		accounts, keys = append(accounts, account), append(keys, k)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i, doc := range docs {
		p := out[accounts[i]]
		p.Docs = append(p.Docs, doc)
		p.Keys = append(p.Keys, keys[i])
	}
	return out, nil
}

// DocumentKey is a position in the (sort_key, id) order of product documents.
type DocumentKey struct {
	Sort string    `json:"s"`
	ID   uuid.UUID `json:"i"`
}

// ProductDocumentPage reads up to limit documents after the key, in their stored order: the
// keyset form of ProductDocuments, for connections.
func (c *conn) ProductDocumentPage(ctx context.Context, clientID uuid.UUID, s DocumentScope, after *DocumentKey, limit int) ([]model.JSONDocument, []DocumentKey, error) {
	var afterSort *string
	var afterID *uuid.UUID
	if after != nil {
		afterSort, afterID = &after.Sort, &after.ID
	}
	rows, err := c.pg.Query(ctx, `SELECT (`+documentJSON+`)::text, p.sort_key, p.id
		FROM product_documents p JOIN items i ON i.id = p.item_id
		WHERE p.kind = $1 AND i.client_id = $2`+documentWhere+`
		AND ($7::text IS NULL OR (p.sort_key, p.id) > ($7, $8::uuid))
		ORDER BY p.sort_key, p.id LIMIT $9`, s.Kind, clientID, s.ItemID, s.OwnerID, s.ID, s.Type, afterSort, afterID, limit)
	if err != nil {
		return nil, nil, err
	}
	return docsAndKeys(rows, func(k *DocumentKey) []any { return []any{&k.Sort, &k.ID} })
}

// ProductDocumentCount counts the documents of a scope.
func (c *conn) ProductDocumentCount(ctx context.Context, clientID uuid.UUID, s DocumentScope) (int, error) {
	var n int
	err := c.pg.QueryRow(ctx, `SELECT count(*) FROM product_documents p JOIN items i ON i.id = p.item_id
		WHERE p.kind = $1 AND i.client_id = $2`+documentWhere, s.Kind, clientID, s.ItemID, s.OwnerID, s.ID, s.Type).Scan(&n)
	return n, err
}

// SpendingRow is one group of a spending aggregate.
type SpendingRow struct {
	ByMonth  bool
	Key      *string
	Category *string
	Spent    float64
	Received float64
	Count    int
}

// Spending sums the transactions of some accounts by category and by month, in SQL.
func (c *conn) Spending(ctx context.Context, accountIDs []uuid.UUID, from, to *time.Time) ([]SpendingRow, error) {
	rows, err := c.pg.Query(ctx, `WITH t AS (
			SELECT t.category_id AS cat, t.date, abs(t.amount) AS amount, t.type AS typ
			FROM transactions t WHERE t.account_id = ANY($1)
			AND ($2::timestamptz IS NULL OR t.date >= $2) AND ($3::timestamptz IS NULL OR t.date <= $3))
		SELECT false, cat, (SELECT description_translated FROM categories WHERE id = cat),
			coalesce(sum(amount) FILTER (WHERE typ = 'DEBIT'), 0)::float8, coalesce(sum(amount) FILTER (WHERE typ = 'CREDIT'), 0)::float8, count(*)
		FROM t GROUP BY cat
		UNION ALL
		SELECT true, to_char(date AT TIME ZONE 'UTC', 'YYYY-MM'), NULL,
			coalesce(sum(amount) FILTER (WHERE typ = 'DEBIT'), 0)::float8, coalesce(sum(amount) FILTER (WHERE typ = 'CREDIT'), 0)::float8, count(*)
		FROM t GROUP BY 2`, accountIDs, from, to)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowToStructByPos[SpendingRow])
}

// AccountIDsOfItem lists an item's account ids.
func (c *conn) AccountIDsOfItem(ctx context.Context, itemID uuid.UUID) ([]uuid.UUID, error) {
	rows, err := c.pg.Query(ctx, `SELECT id FROM accounts WHERE item_id = $1`, itemID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
}

// AccountWithTransactions reads one account of clientID's items, of item, and the first
// limit of its transactions under f in one statement: reading the account and then the
// page was two round trips, and under load the database's work per statement, not Go's,
// sets the rate a dashboard can hold. found is false for other clients' accounts. The item
// names the page's partition (see accountTransactions); like TransactionPage, once the
// item's leaf is known it reads the leaf (leaves.go) under a generic plan (genericplan.go).
func (d *DB) AccountWithTransactions(ctx context.Context, clientID, item, id uuid.UUID, f TransactionFilter, limit int) (*model.Account, TransactionRows, bool, error) {
	args := []any{id, clientID, item}
	filters := transactionFilters(f, &args)
	args = append(args, limit)
	// The account's row and the page's rows are the two halves of a UNION ALL, in no
	// promised order; Go tells them apart and restores the page's order if needed. Measured
	// per statement, PostgreSQL spent 104 µs on this, 150 µs with a window numbering the
	// page's rows under the account's columns, and 330 µs with the account's document
	// repeated on every row.
	// Until the item's leaf is known, the parent is read, and each row says its leaf.
	leaf := leafOf(item)
	query, from, accountLeaf := d.queryGenericPlan, ` FROM `+leaf+` t`, ""
	if leaf == "" {
		query, from, accountLeaf = d.pg.Query, `, `+leafColumn+` FROM transactions t`, `, NULL::text`
	}
	rows, err := query(ctx, `WITH a AS (SELECT a.id, a.data FROM accounts a JOIN items i ON i.id = a.item_id
			WHERE a.id = $1 AND i.client_id = $2 AND a.item_id = $3)
		SELECT data, NULL::text, NULL::timestamptz, NULL::uuid`+accountLeaf+` FROM a
		UNION ALL
		(SELECT NULL, `+transactionJSON+`, t.date, t.id`+from+`
			WHERE t.item_id = $3 AND t.account_id = (SELECT id FROM a)`+filters+`
			ORDER BY t.date, t.id LIMIT $`+strconv.Itoa(len(args))+`)`, args...)
	if err != nil {
		return nil, TransactionRows{}, false, err
	}
	var account *model.Account
	var keys []TransactionKey
	var raw []byte
	var date *time.Time
	var txID *uuid.UUID
	var rowLeaf *string
	learned := ""
	dest := []any{&raw, nil, &date, &txID}
	if leaf == "" {
		dest = append(dest, &rowLeaf)
	}
	docs, err := collectDocs(rows, 1, func(r pgx.CollectableRow) error {
		raw, date, txID, rowLeaf = nil, nil, nil, nil
		if err := r.Scan(dest...); err != nil {
			return err
		}
		if rowLeaf != nil {
			learned = *rowLeaf
		}
		if date == nil { // the account's row
			a, err := scanAccount(raw)
			account = a
			keys = append(keys, TransactionKey{})
			return err
		}
		keys = append(keys, TransactionKey{Date: *date, ID: *txID})
		return nil
	})
	if err != nil || account == nil {
		return nil, TransactionRows{}, false, err
	}
	page := TransactionRows{Docs: make([]model.JSONDocument, 0, len(docs)), Keys: make([]TransactionKey, 0, len(docs))}
	for i, doc := range docs {
		if doc != nil {
			page.Docs, page.Keys = append(page.Docs, doc), append(page.Keys, keys[i])
		}
	}
	if !sort.IsSorted(page) {
		sort.Sort(page)
	}
	if learned != "" {
		learnLeaf(item, learned)
	}
	return account, page, true, nil
}

// TransactionRows sort in the list's order, (date, id).
func (p TransactionRows) Len() int { return len(p.Docs) }

func (p TransactionRows) Less(i, j int) bool {
	if c := p.Keys[i].Date.Compare(p.Keys[j].Date); c != 0 {
		return c < 0
	}
	return bytes.Compare(p.Keys[i].ID[:], p.Keys[j].ID[:]) < 0
}

func (p TransactionRows) Swap(i, j int) {
	p.Docs[i], p.Docs[j] = p.Docs[j], p.Docs[i]
	p.Keys[i], p.Keys[j] = p.Keys[j], p.Keys[i]
}
