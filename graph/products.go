package graph

import (
	"context"
	"encoding/json"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

// RawPage is a page-number envelope of documents ready to send.
type RawPage struct {
	Total      int               `json:"total"`
	TotalPages int               `json:"totalPages"`
	Page       int               `json:"page"`
	Results    []json.RawMessage `json:"results"`
}

// productKinds names each product's not-found code.
var productKinds = map[string]model.Code{
	"investment": model.CodeInvestmentNotFound, "investment_transaction": model.CodeInvestmentTransactionNotFound,
	"identity": model.CodeIdentityNotFound, "loan": model.CodeLoanNotFound, "bill": model.CodeBillNotFound,
	"statement": model.CodeStatementNotFound, "consent": model.CodeConsentNotFound,
}

// ProductList reads a page of one product for an item (itemID) or an owner (an account or an
// investment), checking that the owner belongs to the caller first so an unknown parent is
// a 404 rather than an empty list.
func (r *Resolver) ProductList(ctx context.Context, kind string, itemID, ownerID *uuid.UUID, typ *string, page, pageSize *int) (*RawPage, error) {
	p, err := auth.Require(ctx, auth.ReadProductData)
	if err != nil {
		return nil, err
	}
	pg, limit, offset, err := pageArgs(page, pageSize)
	if err != nil {
		return nil, err
	}
	if itemID != nil {
		if _, err := r.Sync.Get(ctx, p, *itemID); err != nil {
			return nil, err
		}
	}
	if ownerID != nil {
		if err := r.ownerExists(ctx, p.ClientID, kind, *ownerID); err != nil {
			return nil, err
		}
	}
	list, total, err := r.DB.ProductDocuments(ctx, p.ClientID, db.DocumentScope{Kind: kind, ItemID: itemID, OwnerID: ownerID, Type: typ}, limit, offset)
	if err != nil {
		return nil, err
	}
	return &RawPage{Total: total, TotalPages: totalPages(total, limit), Page: pg, Results: list}, nil
}

func (r *Resolver) ownerExists(ctx context.Context, clientID uuid.UUID, kind string, owner uuid.UUID) error {
	if kind == "investment_transaction" {
		if _, n, err := r.DB.ProductDocuments(ctx, clientID, db.DocumentScope{Kind: "investment", ID: &owner}, 1, 0); err != nil {
			return err
		} else if n == 0 {
			return model.Fail(model.CodeInvestmentNotFound, "Investment %s not found.", owner)
		}
		return nil
	}
	if _, found, err := r.DB.Account(ctx, clientID, owner); err != nil {
		return err
	} else if !found {
		return model.Fail(model.CodeAccountNotFound, "Account %s not found.", owner)
	}
	return nil
}

// ProductByID reads one document of a product.
func (r *Resolver) ProductByID(ctx context.Context, kind string, id uuid.UUID) (json.RawMessage, error) {
	p, err := auth.Require(ctx, auth.ReadProductData)
	if err != nil {
		return nil, err
	}
	list, _, err := r.DB.ProductDocuments(ctx, p.ClientID, db.DocumentScope{Kind: kind, ID: &id}, 1, 0)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, model.Fail(productKinds[kind], "No %s with id %s.", kind, id)
	}
	return list[0], nil
}

// IdentityByItem reads an item's one identity; an item without one is a 404.
func (r *Resolver) IdentityByItem(ctx context.Context, itemID uuid.UUID) (json.RawMessage, error) {
	page, err := r.ProductList(ctx, "identity", &itemID, nil, nil, nil, nil)
	if err != nil {
		return nil, err
	}
	if len(page.Results) == 0 {
		return nil, model.Fail(model.CodeIdentityNotFound, "Item %s has no identity collected.", itemID)
	}
	return page.Results[0], nil
}
