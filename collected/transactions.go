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

// EndCursor is the after cursor of the rows following the page's last, nil for an empty
// page. It is signed when asked for: a GraphQL query that reads no cursor (a dashboard's
// first page) signs none.
func (e *Engine) EndCursor(p *model.TransactionConnection) *string {
	if len(p.Keys) == 0 {
		return nil
	}
	c := e.RowCursor(p, len(p.Keys)-1)
	return &c
}

// RowCursor is the after cursor of the rows following the page's row i.
func (e *Engine) RowCursor(p *model.TransactionConnection, i int) string {
	return e.TransactionCursor(p.Filter, p.Keys[i])
}

// Transactions reads one page of first transactions of an account of the caller, after the
// cursor, in (date, id) order (GET /v2/transactions reads pages of 500). The keyset cursor
// keeps pages stable while rows are added between reads: nothing is lost or repeated, and
// no page costs more than the one before it.
func (e *Engine) Transactions(ctx context.Context, f model.TransactionFilter, first *int, after *string) (*model.TransactionConnection, error) {
	p, err := auth.Require(ctx, auth.ReadProductData)
	if err != nil {
		return nil, err
	}
	limit, err := First(first, DefaultFirst)
	if err != nil {
		return nil, err
	}
	if err := CheckTransactionFilter(f); err != nil {
		return nil, err
	}
	var key *db.TransactionKey
	if after != nil && *after != "" {
		if key, err = e.openTxCursor(*after, f); err != nil {
			return nil, err
		}
	}
	var rows db.TransactionRows
	ours, err := e.checked(ctx, 'a', f.AccountID, p.ClientID, e.accountOwner, func(item uuid.UUID) (n int, err error) {
		rows.Docs, rows.Keys, err = e.reads(ctx).TransactionPage(ctx, item, f, key, limit+1)
		return len(rows.Docs), err
	})
	if err != nil {
		return nil, err
	}
	if !ours {
		return nil, accountNotFound(f.AccountID)
	}
	return finishPage(f, rows, limit), nil
}

// FirstTransactionPages reads the first page of first transactions of each account, all
// under one filter (its AccountID ignored), in one statement: the batched read behind a
// GraphQL list of accounts with their transactions. The accounts were reached through
// parents the caller owns.
func (e *Engine) FirstTransactionPages(ctx context.Context, accounts []*model.Account, f model.TransactionFilter, first *int) (map[uuid.UUID]*model.TransactionConnection, error) {
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
	ids, items := make([]uuid.UUID, len(accounts)), make([]uuid.UUID, len(accounts))
	for i, a := range accounts {
		ids[i], items[i] = a.ID, a.ItemID
	}
	rows, err := e.reads(ctx).FirstTransactionPages(ctx, ids, items, f, limit+1)
	if err != nil {
		return nil, err
	}
	out := make(map[uuid.UUID]*model.TransactionConnection, len(accounts))
	for _, id := range ids {
		tf := f
		tf.AccountID = id
		r := rows[id]
		if r == nil {
			r = &db.TransactionRows{}
		}
		out[id] = finishPage(tf, *r, limit)
	}
	return out, nil
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

// finishPage makes a page of rows read with one row of look-ahead, which says whether a
// next page follows.
func finishPage(f model.TransactionFilter, rows db.TransactionRows, limit int) *model.TransactionConnection {
	c := &model.TransactionConnection{Documents: rows.Docs, Keys: rows.Keys, Filter: f}
	if c.Documents == nil {
		c.Documents = []model.JSONDocument{}
	}
	if len(rows.Docs) > limit {
		c.Documents, c.Keys, c.PageInfo.HasNextPage = rows.Docs[:limit], rows.Keys[:limit], true
	}
	return c
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
func (e *Engine) Transaction(ctx context.Context, id uuid.UUID) (model.JSONDocument, error) {
	p, err := auth.Require(ctx, auth.ReadProductData)
	if err != nil {
		return nil, err
	}
	raw, found, err := e.reads(ctx).Transaction(ctx, p.ClientID, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeTransactionNotFound, "Transaction %s not found.", id)
	}
	return model.JSONDocument(raw), nil
}

// SetTransactionCategory applies PATCH /transactions/{id}: the chosen category sticks
// through every later sync and is recorded as feedback.
func (e *Engine) SetTransactionCategory(ctx context.Context, id uuid.UUID, categoryID string) (model.JSONDocument, error) {
	p, err := auth.Require(ctx, auth.WriteProductData)
	if err != nil {
		return nil, err
	}
	if categoryID == "" {
		return nil, model.Fail(model.CodeInvalidParameter, "categoryId is required.")
	}
	if _, found, err := e.reads(ctx).Category(ctx, categoryID); err != nil {
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
	list, err := e.reads(ctx).CategoryFeedback(ctx, p.ClientID, 1000)
	return nonNil(list), err
}
