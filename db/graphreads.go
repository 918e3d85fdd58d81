package db

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
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
	Docs []json.RawMessage
	Keys []TransactionKey
}

// FirstTransactionPages reads the first limit transactions of each account under one
// filter, in one statement (a lateral join per account): the dataloader of
// accounts → transactions. f.AccountID is ignored.
func (c *conn) FirstTransactionPages(ctx context.Context, accountIDs []uuid.UUID, f TransactionFilter, limit int) (map[uuid.UUID]*TransactionRows, error) {
	args := []any{accountIDs, f.DateFrom, f.DateTo, f.CreatedAtFrom, limit}
	idsCond := ""
	if len(f.IDs) > 0 {
		idsCond = " AND t.id = ANY($" + strconv.Itoa(len(args)+1) + ")"
		args = append(args, f.IDs)
	}
	rows, err := c.pg.Query(ctx, `SELECT a.id, x.doc, x.date, x.id FROM unnest($1::uuid[]) AS a(id)
		CROSS JOIN LATERAL (SELECT `+transactionJSON+` AS doc, t.date, t.id FROM transactions t
			WHERE t.account_id = a.id
			AND ($2::timestamptz IS NULL OR t.date >= $2) AND ($3::timestamptz IS NULL OR t.date <= $3)
			AND ($4::timestamptz IS NULL OR t.created_at >= $4)`+idsCond+`
			ORDER BY t.date, t.id LIMIT $5) x`, args...)
	if err != nil {
		return nil, err
	}
	out := make(map[uuid.UUID]*TransactionRows, len(accountIDs))
	for _, id := range accountIDs {
		out[id] = &TransactionRows{}
	}
	type pageRow struct {
		account uuid.UUID
		doc     []byte
		key     TransactionKey
	}
	var a pageRow
	dest := []any{&a.account, &a.doc, &a.key.Date, &a.key.ID} // once, as in docsAndKeys
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (pageRow, error) {
		a = pageRow{}
		err := r.Scan(dest...)
		return a, err
	})
	if err != nil {
		return nil, err
	}
	for _, a := range list {
		p := out[a.account]
		p.Docs = append(p.Docs, a.doc)
		p.Keys = append(p.Keys, a.key)
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
func (c *conn) ProductDocumentPage(ctx context.Context, clientID uuid.UUID, s DocumentScope, after *DocumentKey, limit int) ([]json.RawMessage, []DocumentKey, error) {
	var afterSort *string
	var afterID *uuid.UUID
	if after != nil {
		afterSort, afterID = &after.Sort, &after.ID
	}
	rows, err := c.pg.Query(ctx, `SELECT `+documentJSON+`, p.sort_key, p.id
		FROM product_documents p JOIN items i ON i.id = p.item_id
		WHERE p.kind = $1 AND i.client_id = $2`+documentWhere+`
		AND ($7::text IS NULL OR (p.sort_key, p.id) > ($7, $8::uuid))
		ORDER BY p.sort_key, p.id LIMIT $9`, s.Kind, clientID, s.ItemID, s.OwnerID, s.ID, s.Type, afterSort, afterID, limit)
	if err != nil {
		return nil, nil, err
	}
	return docsAndKeys(rows, func(doc *[]byte, k *DocumentKey) []any { return []any{doc, &k.Sort, &k.ID} })
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

// AccountWithTransactions reads one account of clientID's items and the first limit of its
// transactions under f in one statement: GraphQL's account(id) { transactions } checked
// the owner and read the page in two round trips, and under load the database's work per
// statement, not Go's, sets the rate a dashboard can hold. found is false for other
// clients' accounts. Without withDocument the account's document is neither sent nor
// decoded (a dashboard that asks only for an account's transactions spent 50 µs decoding
// it), and the account comes back with its id alone.
func (d *DB) AccountWithTransactions(ctx context.Context, clientID, id uuid.UUID, f TransactionFilter, limit int, withDocument bool) (*model.Account, TransactionRows, bool, error) {
	args := []any{id, clientID, f.DateFrom, f.DateTo, f.CreatedAtFrom, limit, withDocument}
	idsCond := ""
	if len(f.IDs) > 0 {
		idsCond = " AND t.id = ANY($" + strconv.Itoa(len(args)+1) + ")"
		args = append(args, f.IDs)
	}
	// The account's row and the page's rows are the two halves of a UNION ALL, in no
	// promised order; Go tells them apart and restores the page's order if needed. Measured
	// per statement, PostgreSQL spent 104 µs on this, 150 µs with a window numbering the
	// page's rows under the account's columns, and 330 µs with the account's document
	// repeated on every row.
	rows, err := d.pg.Query(ctx, `WITH a AS (SELECT a.id, a.data FROM accounts a JOIN items i ON i.id = a.item_id
			WHERE a.id = $1 AND i.client_id = $2)
		SELECT true, CASE WHEN $7 THEN data END, NULL::text, NULL::timestamptz, NULL::uuid FROM a
		UNION ALL
		(SELECT false, NULL, `+transactionJSON+`, t.date, t.id FROM transactions t WHERE t.account_id = (SELECT id FROM a)
			AND ($3::timestamptz IS NULL OR t.date >= $3) AND ($4::timestamptz IS NULL OR t.date <= $4)
			AND ($5::timestamptz IS NULL OR t.created_at >= $5)`+idsCond+`
			ORDER BY t.date, t.id LIMIT $6)`, args...)
	if err != nil {
		return nil, TransactionRows{}, false, err
	}
	var account *model.Account
	type pageRow struct {
		doc []byte
		key TransactionKey
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (pageRow, error) {
		var isAccount bool
		var raw, doc []byte
		var date *time.Time
		var txID *uuid.UUID
		if err := r.Scan(&isAccount, &raw, &doc, &date, &txID); err != nil {
			return pageRow{}, err
		}
		if isAccount {
			if !withDocument {
				account = &model.Account{ID: id}
				return pageRow{}, nil
			}
			a, err := scanAccount(raw)
			account = a
			return pageRow{}, err
		}
		return pageRow{doc, TransactionKey{Date: *date, ID: *txID}}, nil
	})
	if err != nil || account == nil {
		return nil, TransactionRows{}, false, err
	}
	list = slices.DeleteFunc(list, func(r pageRow) bool { return r.doc == nil }) // the account's row
	cmpRows := func(a, b pageRow) int {
		if c := a.key.Date.Compare(b.key.Date); c != 0 {
			return c
		}
		return bytes.Compare(a.key.ID[:], b.key.ID[:])
	}
	if !slices.IsSortedFunc(list, cmpRows) {
		slices.SortFunc(list, cmpRows)
	}
	page := TransactionRows{Docs: make([]json.RawMessage, len(list)), Keys: make([]TransactionKey, len(list))}
	for i, r := range list {
		page.Docs[i], page.Keys[i] = r.doc, r.key
	}
	return account, page, true, nil
}
