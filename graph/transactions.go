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
	p, err := auth.Require(ctx, auth.ReadProductData)
	if err != nil {
		return nil, err
	}
	client, _, found, err := r.DB.AccountOwner(ctx, f.AccountID)
	if err != nil {
		return nil, err
	}
	if !found || client != p.ClientID {
		return nil, model.NotFound("ACCOUNT_NOT_FOUND", "Account %s not found.", f.AccountID)
	}
	if f.DateFrom != nil && f.DateTo != nil && f.DateFrom.After(*f.DateTo) {
		return nil, model.BadRequest(model.CodeInvalidParameter, "dateFrom (%s) is after dateTo (%s).", f.DateFrom.Format(model.TimeLayout), f.DateTo.Format(model.TimeLayout))
	}
	fh := filterHash(f)
	var key *db.TransactionKey
	if after != nil && *after != "" {
		raw, err := r.Auth.OpenCursor(*after)
		var c txCursor
		if err != nil || json.Unmarshal(raw, &c) != nil {
			return nil, model.BadRequest("INVALID_CURSOR", "The after cursor is not one this service issued; pass the next value of the previous page unchanged.")
		}
		if c.Account != f.AccountID || c.Filter != fh {
			return nil, model.BadRequest("INVALID_CURSOR", "The after cursor belongs to another account or other filters; keep the query of the previous page.")
		}
		key = &db.TransactionKey{Date: time.Unix(0, c.Date).UTC(), ID: c.ID}
	}
	rows, keys, err := r.DB.TransactionPage(ctx, f, key, TransactionsPageSize+1)
	if err != nil {
		return nil, err
	}
	page := &RawTransactionPage{Results: rows}
	if len(rows) > TransactionsPageSize {
		page.Results = rows[:TransactionsPageSize]
		last := keys[TransactionsPageSize-1]
		b, _ := json.Marshal(txCursor{Account: f.AccountID, Filter: fh, Date: last.Date.UnixNano(), ID: last.ID})
		c := r.Auth.SignCursor(b)
		page.After = &c
	}
	return page, nil
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
		return nil, model.NotFound("TRANSACTION_NOT_FOUND", "Transaction %s not found.", id)
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
		return nil, model.BadRequest(model.CodeInvalidParameter, "categoryId is required.")
	}
	if _, found, err := r.DB.Category(ctx, categoryID); err != nil {
		return nil, err
	} else if !found {
		return nil, model.BadRequest(model.CodeInvalidParameter, "categoryId %q is not a category; see GET /categories.", categoryID)
	}
	found, err := r.DB.SetTransactionCategory(ctx, p.ClientID, id, categoryID)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.NotFound("TRANSACTION_NOT_FOUND", "Transaction %s not found.", id)
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
