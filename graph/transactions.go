package graph

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

// TransactionsV2 reads one page of an account's transactions in (date, id) order. The
// keyset cursor keeps pages stable while rows are added between reads: nothing is lost
// or repeated, and no page costs more than the one before it.
func (r *Resolver) TransactionsV2(ctx context.Context, f model.TransactionFilter, after *string) (*RawTransactionPage, error) {
	page, err := r.transactionPage(ctx, f, after, TransactionsPageSize, false)
	if err != nil {
		return nil, err
	}
	return &RawTransactionPage{Results: page.Docs, After: page.next}, nil
}

// txPage is a page of transactions with what a connection needs.
type txPage struct {
	db.TransactionRows
	next *string
}

// transactionPage authorizes and reads one page of limit transactions; the rows of a
// connection's edges each get a cursor when edges is true.
func (r *Resolver) transactionPage(ctx context.Context, f model.TransactionFilter, after *string, limit int, checked bool) (*txPage, error) {
	if !checked {
		p, err := auth.Require(ctx, auth.ReadProductData)
		if err != nil {
			return nil, err
		}
		client, _, found, err := r.DB.AccountOwner(ctx, f.AccountID)
		if err != nil {
			return nil, err
		}
		if !found || client != p.ClientID {
			return nil, model.Fail(model.CodeAccountNotFound, "Account %s not found.", f.AccountID)
		}
	}
	if f.DateFrom != nil && f.DateTo != nil && f.DateFrom.After(*f.DateTo) {
		return nil, model.Fail(model.CodeInvalidParameter, "dateFrom (%s) is after dateTo (%s).", f.DateFrom.Format(model.TimeLayout), f.DateTo.Format(model.TimeLayout))
	}
	var key *db.TransactionKey
	if after != nil && *after != "" {
		k, err := r.openTxCursor(*after, f)
		if err != nil {
			return nil, err
		}
		key = k
	}
	docs, keys, err := r.DB.TransactionPage(ctx, f, key, limit+1)
	if err != nil {
		return nil, err
	}
	return r.finishTxPage(f, db.TransactionRows{Docs: docs, Keys: keys}, limit), nil
}

// finishTxPage cuts the look-ahead row off a page and makes the next cursor.
func (r *Resolver) finishTxPage(f model.TransactionFilter, rows db.TransactionRows, limit int) *txPage {
	page := &txPage{TransactionRows: rows}
	if len(rows.Docs) > limit {
		page.Docs, page.Keys = rows.Docs[:limit], rows.Keys[:limit]
		c := r.txCursor(f, page.Keys[limit-1])
		page.next = &c
	}
	return page
}

func (r *Resolver) txCursor(f model.TransactionFilter, k db.TransactionKey) string {
	b, _ := json.Marshal(txCursor{Account: f.AccountID, Filter: filterHash(f), Date: k.Date.UnixNano(), ID: k.ID})
	return r.Auth.SignCursor(b)
}

func (r *Resolver) openTxCursor(s string, f model.TransactionFilter) (*db.TransactionKey, error) {
	raw, err := r.Auth.OpenCursor(s)
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
func (r *Resolver) Transaction(ctx context.Context, id uuid.UUID) (json.RawMessage, error) {
	p, err := auth.Require(ctx, auth.ReadProductData)
	if err != nil {
		return nil, err
	}
	raw, found, err := r.DB.Transaction(ctx, p.ClientID, id)
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
func (r *Resolver) SetTransactionCategory(ctx context.Context, id uuid.UUID, categoryID string) (json.RawMessage, error) {
	p, err := auth.Require(ctx, auth.WriteProductData)
	if err != nil {
		return nil, err
	}
	if categoryID == "" {
		return nil, model.Fail(model.CodeInvalidParameter, "categoryId is required.")
	}
	if _, found, err := r.DB.Category(ctx, categoryID); err != nil {
		return nil, err
	} else if !found {
		return nil, model.Fail(model.CodeInvalidParameter, "categoryId %q is not a category; see GET /categories.", categoryID)
	}
	found, err := r.DB.SetTransactionCategory(ctx, p.ClientID, id, categoryID)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeTransactionNotFound, "Transaction %s not found.", id)
	}
	return r.Transaction(ctx, id)
}

func (r *queryResolver) CategoryFeedback(ctx context.Context) ([]*model.CategoryFeedback, error) {
	p, err := auth.Require(ctx, auth.ReadProductData)
	if err != nil {
		return nil, err
	}
	list, err := r.DB.CategoryFeedback(ctx, p.ClientID, 1000)
	return nonNil(list), err
}
