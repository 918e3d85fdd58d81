package collected

import (
	"context"
	"encoding/json"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

// productKinds names each product's not-found code.
var productKinds = map[string]model.Code{
	"investment": model.CodeInvestmentNotFound, "investment_transaction": model.CodeInvestmentTransactionNotFound,
	"identity": model.CodeIdentityNotFound, "loan": model.CodeLoanNotFound, "bill": model.CodeBillNotFound,
	"statement": model.CodeStatementNotFound, "consent": model.CodeConsentNotFound,
	"credit_information": model.CodeCreditInfoNotFound,
}

// ProductList reads a page of one product for an item (itemID) or an owner (an account or an
// investment), checking that the owner belongs to the caller first so an unknown parent is
// a 404 rather than an empty list.
func (e *Engine) ProductList(ctx context.Context, kind string, itemID, ownerID *uuid.UUID, typ *string, page, pageSize *int) (*model.DocumentPage, error) {
	p, err := auth.Require(ctx, auth.ReadProductData)
	if err != nil {
		return nil, err
	}
	pg, limit, offset, err := model.PageArgs(page, pageSize)
	if err != nil {
		return nil, err
	}
	if err := e.parentExists(ctx, p, kind, itemID, ownerID); err != nil {
		return nil, err
	}
	list, total, err := e.reads(ctx).ProductDocuments(ctx, p.ClientID, model.DocumentScope{Kind: kind, ItemID: itemID, OwnerID: ownerID, Type: typ}, limit, offset)
	if err != nil {
		return nil, err
	}
	out := model.NewDocumentPage(list, total, pg, limit)
	return &out, nil
}

// CheckParent authorizes a list at the root of a query: the caller may read product data
// and owns the item or the owner (account, investment) the list hangs from.
func (e *Engine) CheckParent(ctx context.Context, kind string, itemID, ownerID *uuid.UUID) error {
	p, err := auth.Require(ctx, auth.ReadProductData)
	if err != nil {
		return err
	}
	return e.parentExists(ctx, p, kind, itemID, ownerID)
}

func (e *Engine) parentExists(ctx context.Context, p *auth.Principal, kind string, itemID, ownerID *uuid.UUID) error {
	if itemID != nil {
		if _, err := e.items.Get(ctx, *itemID); err != nil {
			return err
		}
	}
	if ownerID != nil {
		return e.ownerExists(ctx, p.ClientID, kind, *ownerID)
	}
	return nil
}

// ownerExists checks the owner of a product list: investment transactions hang from an
// investment, every other owned product from an account.
func (e *Engine) ownerExists(ctx context.Context, clientID uuid.UUID, kind string, owner uuid.UUID) error {
	if kind == "investment_transaction" {
		if _, n, err := e.reads(ctx).ProductDocuments(ctx, clientID, model.DocumentScope{Kind: "investment", ID: &owner}, 1, 0); err != nil {
			return err
		} else if n == 0 {
			return model.Fail(model.CodeInvestmentNotFound, "Investment %s not found.", owner)
		}
		return nil
	}
	if _, found, err := e.reads(ctx).Account(ctx, clientID, owner); err != nil {
		return err
	} else if !found {
		return accountNotFound(owner)
	}
	return nil
}

// ProductByID reads one document of a product.
func (e *Engine) ProductByID(ctx context.Context, kind string, id uuid.UUID) (model.JSONDocument, error) {
	p, err := auth.Require(ctx, auth.ReadProductData)
	if err != nil {
		return nil, err
	}
	list, _, err := e.reads(ctx).ProductDocuments(ctx, p.ClientID, model.DocumentScope{Kind: kind, ID: &id}, 1, 0)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, model.Fail(productKinds[kind], "No %s with id %s.", kind, id)
	}
	return list[0], nil
}

// IdentityByItem reads an item's one identity; an item without one is a 404.
func (e *Engine) IdentityByItem(ctx context.Context, itemID uuid.UUID) (model.JSONDocument, error) {
	page, err := e.ProductList(ctx, "identity", &itemID, nil, nil, nil, nil)
	if err != nil {
		return nil, err
	}
	if len(page.Documents) == 0 {
		return nil, model.Fail(model.CodeIdentityNotFound, "Item %s has no identity collected.", itemID)
	}
	return page.Documents[0], nil
}

// CreditInfoByItem reads an item's one SCR report; an item without one is a 404.
func (e *Engine) CreditInfoByItem(ctx context.Context, itemID uuid.UUID) (model.JSONDocument, error) {
	page, err := e.ProductList(ctx, "credit_information", &itemID, nil, nil, nil, nil)
	if err != nil {
		return nil, err
	}
	if len(page.Documents) == 0 {
		return nil, model.Fail(model.CodeCreditInfoNotFound, "Item %s has no credit information collected.", itemID)
	}
	return page.Documents[0], nil
}

// DocumentPage is one keyset page of a product's documents, for a connection.
type DocumentPage struct {
	Docs []model.JSONDocument
	// Cursors has one cursor per row when asked for (a connection's edges).
	Cursors     []string
	EndCursor   *string
	HasNextPage bool
	// Total counts every document of the scope when asked for (totalCount).
	Total int
}

// DocumentWant is what a connection's selection needs beyond the documents.
type DocumentWant struct{ Cursors, Total bool }

// docCursor is the signed payload of a product connection's after cursor: the position,
// and the scope it was issued for, so it cannot be replayed on another list.
type docCursor struct {
	Scope string `json:"o"`
	db.DocumentKey
}

func scopeKey(s model.DocumentScope) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Documents reads one keyset page of first documents of a product. The scope's parent was
// reached through a read that checked it belongs to the caller (or CheckParent); the query
// keeps to the caller's items again.
func (e *Engine) Documents(ctx context.Context, s model.DocumentScope, first *int, after *string, want DocumentWant) (*DocumentPage, error) {
	p, err := auth.Require(ctx, auth.ReadProductData)
	if err != nil {
		return nil, err
	}
	limit, err := First(first, DefaultFirst)
	if err != nil {
		return nil, err
	}
	sk := scopeKey(s)
	var key *db.DocumentKey
	if after != nil && *after != "" {
		raw, err := e.auth.OpenCursor(*after)
		var c docCursor
		if err != nil || json.Unmarshal(raw, &c) != nil || c.Scope != sk {
			return nil, model.Fail(model.CodeInvalidCursor, "The after cursor is not one this service issued for this list; pass endCursor of the previous page unchanged.")
		}
		key = &c.DocumentKey
	}
	docs, keys, err := e.reads(ctx).ProductDocumentPage(ctx, p.ClientID, s, key, limit+1)
	if err != nil {
		return nil, err
	}
	pg := &DocumentPage{}
	if len(docs) > limit {
		docs, keys = docs[:limit], keys[:limit]
		pg.HasNextPage = true
	}
	pg.Docs = docs
	cursor := func(k db.DocumentKey) string {
		b, _ := json.Marshal(docCursor{Scope: sk, DocumentKey: k})
		return e.auth.SignCursor(b)
	}
	if n := len(keys); n > 0 {
		end := cursor(keys[n-1])
		pg.EndCursor = &end
	}
	if want.Cursors {
		for _, k := range keys {
			pg.Cursors = append(pg.Cursors, cursor(k))
		}
	}
	if want.Total {
		if pg.Total, err = e.reads(ctx).ProductDocumentCount(ctx, p.ClientID, s); err != nil {
			return nil, err
		}
	}
	return pg, nil
}
