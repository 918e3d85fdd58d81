package collected

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

// TransactionsPageSize is the page size of both transaction lists (section 8).
const TransactionsPageSize = 500

// RawTransactionPage is a page of GET /v2/transactions: documents ready to send, and the
// cursor of the next page.
type RawTransactionPage struct {
	Results []json.RawMessage
	After   *string
}

// TransactionPage is a page of one account's transactions with the keys of its rows, for
// lists that give each row a cursor (GraphQL edges), and whether a next page follows.
type TransactionPage struct {
	db.TransactionRows
	More bool
	f    model.TransactionFilter
}

// EndCursor is the after cursor of the rows following the page's last, nil for an empty
// page. It is signed when asked for: a GraphQL query that reads no cursor (a dashboard's
// first page) signs none.
func (e *Engine) EndCursor(p *TransactionPage) *string {
	if len(p.Keys) == 0 {
		return nil
	}
	c := e.RowCursor(p, len(p.Keys)-1)
	return &c
}

// RowCursor is the after cursor of the rows following the page's row i.
func (e *Engine) RowCursor(p *TransactionPage, i int) string {
	return e.TransactionCursor(p.f, p.Keys[i])
}

// TransactionsV2 reads one page of an account's transactions in (date, id) order. The
// keyset cursor keeps pages stable while rows are added between reads: nothing is lost
// or repeated, and no page costs more than the one before it.
func (e *Engine) TransactionsV2(ctx context.Context, f model.TransactionFilter, after *string) (*RawTransactionPage, error) {
	page, err := e.Transactions(ctx, f, after, TransactionsPageSize)
	if err != nil {
		return nil, err
	}
	out := &RawTransactionPage{Results: page.Docs}
	if page.More {
		out.After = e.EndCursor(page)
	}
	return out, nil
}

// Transactions reads one page of limit transactions of an account the caller owns. Once
// a statement has checked the owner (collected/owners.go) the page is read alone; a page
// without rows checks the owner again, so a deleted account still answers as unknown.
func (e *Engine) Transactions(ctx context.Context, f model.TransactionFilter, after *string, limit int) (*TransactionPage, error) {
	p, err := auth.Require(ctx, auth.ReadProductData)
	if err != nil {
		return nil, err
	}
	known, owned := e.owners.known('a', f.AccountID, p.ClientID)
	if known && !owned {
		return nil, accountNotFound(f.AccountID)
	}
	var page *TransactionPage
	if owned {
		if page, err = e.transactionPage(ctx, f, after, limit); err != nil || len(page.Docs) > 0 {
			return page, err
		}
	}
	if _, err := e.ownAccount(ctx, f.AccountID); err != nil {
		return nil, err
	}
	e.owners.remember('a', f.AccountID, p.ClientID)
	if page != nil { // read above, and found empty: the account has no such rows
		return page, nil
	}
	return e.transactionPage(ctx, f, after, limit)
}

// AccountTransactions reads one page of first transactions of an account the caller
// reached through a parent it owns (an item's or a query's account list): the ownership
// statement of Transactions would repeat a check already made.
func (e *Engine) AccountTransactions(ctx context.Context, f model.TransactionFilter, first *int, after *string) (*TransactionPage, error) {
	if _, err := auth.Require(ctx, auth.ReadProductData); err != nil {
		return nil, err
	}
	limit, err := First(first, DefaultFirst)
	if err != nil {
		return nil, err
	}
	return e.transactionPage(ctx, f, after, limit)
}

// FirstTransactionPages reads the first page of first transactions of each account, all
// under one filter (its AccountID ignored), in one statement: the batched read behind a
// GraphQL list of accounts with their transactions. The accounts were reached through
// parents the caller owns.
func (e *Engine) FirstTransactionPages(ctx context.Context, accounts []uuid.UUID, f model.TransactionFilter, first *int) (map[uuid.UUID]*TransactionPage, error) {
	if _, err := auth.Require(ctx, auth.ReadProductData); err != nil {
		return nil, err
	}
	limit, err := First(first, DefaultFirst)
	if err != nil {
		return nil, err
	}
	if err := CheckTransactionFilter(f); err != nil {
		return nil, err
	}
	rows, err := e.db.FirstTransactionPages(ctx, accounts, f, limit+1)
	if err != nil {
		return nil, err
	}
	out := make(map[uuid.UUID]*TransactionPage, len(accounts))
	for _, id := range accounts {
		tf := f
		tf.AccountID = id
		r := rows[id]
		if r == nil {
			r = &db.TransactionRows{}
		}
		out[id] = e.finishPage(tf, *r, limit)
	}
	return out, nil
}

// ownAccount checks that the caller may read product data and owns the account; an
// account of another application is as unknown as one that does not exist.
func (e *Engine) ownAccount(ctx context.Context, id uuid.UUID) (*auth.Principal, error) {
	p, err := auth.Require(ctx, auth.ReadProductData)
	if err != nil {
		return nil, err
	}
	client, _, found, err := e.db.AccountOwner(ctx, id)
	if err != nil {
		return nil, err
	}
	if !found || client != p.ClientID {
		return nil, accountNotFound(id)
	}
	return p, nil
}

func accountNotFound(id uuid.UUID) error {
	return model.Fail(model.CodeAccountNotFound, "Account %s not found.", id)
}

// CheckTransactionFilter refuses a date range that ends before it starts.
func CheckTransactionFilter(f model.TransactionFilter) error {
	if f.DateFrom != nil && f.DateTo != nil && f.DateFrom.After(*f.DateTo) {
		return model.Fail(model.CodeInvalidParameter, "dateFrom (%s) is after dateTo (%s).", f.DateFrom.Format(model.TimeLayout), f.DateTo.Format(model.TimeLayout))
	}
	return nil
}

// TransactionFilterOf is the filter of GraphQL's transactions(filter:) argument.
func TransactionFilterOf(accountID uuid.UUID, in *model.TransactionFilterInput) model.TransactionFilter {
	f := model.TransactionFilter{AccountID: accountID}
	if in != nil {
		f.IDs = in.IDs
		if in.DateFrom != nil {
			f.DateFrom = &in.DateFrom.Time
		}
		if in.DateTo != nil {
			f.DateTo = &in.DateTo.Time
		}
		if in.CreatedAtFrom != nil {
			f.CreatedAtFrom = &in.CreatedAtFrom.Time
		}
	}
	return f
}

func (e *Engine) transactionPage(ctx context.Context, f model.TransactionFilter, after *string, limit int) (*TransactionPage, error) {
	if err := CheckTransactionFilter(f); err != nil {
		return nil, err
	}
	var key *db.TransactionKey
	if after != nil && *after != "" {
		k, err := e.openTxCursor(*after, f)
		if err != nil {
			return nil, err
		}
		key = k
	}
	docs, keys, err := e.db.TransactionPage(ctx, f, key, limit+1)
	if err != nil {
		return nil, err
	}
	return e.finishPage(f, db.TransactionRows{Docs: docs, Keys: keys}, limit), nil
}

// finishPage cuts the look-ahead row off a page.
func (e *Engine) finishPage(f model.TransactionFilter, rows db.TransactionRows, limit int) *TransactionPage {
	page := &TransactionPage{TransactionRows: rows, f: f}
	if len(rows.Docs) > limit {
		page.Docs, page.Keys, page.More = rows.Docs[:limit], rows.Keys[:limit], true
	}
	return page
}

// txCursor is the signed payload of a transaction list's after cursor: the position, and
// the account and filters it was issued for, so it cannot be replayed on another list.
type txCursor struct {
	Account uuid.UUID `json:"a"`
	Filter  string    `json:"f"`
	Date    int64     `json:"d"`
	ID      uuid.UUID `json:"i"`
}

func filterHash(f model.TransactionFilter) string {
	h := sha256.New()
	fmt.Fprint(h, f.IDs, f.DateFrom, f.DateTo, f.CreatedAtFrom)
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// TransactionCursor is the after cursor that continues a list with filter f after row k.
func (e *Engine) TransactionCursor(f model.TransactionFilter, k db.TransactionKey) string {
	b, _ := json.Marshal(txCursor{Account: f.AccountID, Filter: filterHash(f), Date: k.Date.UnixNano(), ID: k.ID})
	return e.auth.SignCursor(b)
}

func (e *Engine) openTxCursor(s string, f model.TransactionFilter) (*db.TransactionKey, error) {
	raw, err := e.auth.OpenCursor(s)
	var c txCursor
	if err != nil || json.Unmarshal(raw, &c) != nil {
		return nil, model.Fail(model.CodeInvalidCursor, "The after cursor is not one this service issued; pass the next value of the previous page unchanged.")
	}
	if c.Account != f.AccountID || c.Filter != filterHash(f) {
		return nil, model.Fail(model.CodeInvalidCursor, "The after cursor belongs to another account or other filters; keep the query of the previous page.")
	}
	return &db.TransactionKey{Date: time.Unix(0, c.Date).UTC(), ID: c.ID}, nil
}

// Transaction reads one transaction as its API document.
func (e *Engine) Transaction(ctx context.Context, id uuid.UUID) (json.RawMessage, error) {
	p, err := auth.Require(ctx, auth.ReadProductData)
	if err != nil {
		return nil, err
	}
	raw, found, err := e.db.Transaction(ctx, p.ClientID, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeTransactionNotFound, "Transaction %s not found.", id)
	}
	return raw, nil
}

// SetTransactionCategory applies PATCH /transactions/{id}: the chosen category sticks
// through every later sync and is recorded as feedback.
func (e *Engine) SetTransactionCategory(ctx context.Context, id uuid.UUID, categoryID string) (json.RawMessage, error) {
	p, err := auth.Require(ctx, auth.WriteProductData)
	if err != nil {
		return nil, err
	}
	if categoryID == "" {
		return nil, model.Fail(model.CodeInvalidParameter, "categoryId is required.")
	}
	if _, found, err := e.db.Category(ctx, categoryID); err != nil {
		return nil, err
	} else if !found {
		return nil, model.Fail(model.CodeInvalidParameter, "categoryId %q is not a category; see GET /categories.", categoryID)
	}
	found, err := e.db.SetTransactionCategory(ctx, p.ClientID, id, categoryID)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeTransactionNotFound, "Transaction %s not found.", id)
	}
	return e.Transaction(ctx, id)
}

// CategoryFeedback lists the caller's category corrections, newest first.
func (e *Engine) CategoryFeedback(ctx context.Context) ([]*model.CategoryFeedback, error) {
	p, err := auth.Require(ctx, auth.ReadProductData)
	if err != nil {
		return nil, err
	}
	list, err := e.db.CategoryFeedback(ctx, p.ClientID, 1000)
	return nonNil(list), err
}
