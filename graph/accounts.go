package graph

import (
	"context"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/model"
)

// reduce keeps what a Connect Token may show (section 5: a reduced view): which accounts
// the connection found, never balances, limits, owner or documents.
func reduce(a *model.Account) *model.Account {
	return &model.Account{ID: a.ID, ItemID: a.ItemID, Type: a.Type, Subtype: a.Subtype, Number: a.Number, Name: a.Name,
		MarketingName: a.MarketingName, CurrencyCode: a.CurrencyCode, CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt}
}

func (r *queryResolver) Accounts(ctx context.Context, itemID uuid.UUID, typ *string) (*model.AccountPage, error) {
	p, err := auth.Require(ctx, auth.ReadAccounts)
	if err != nil {
		return nil, err
	}
	if typ != nil && *typ != "BANK" && *typ != "CREDIT" {
		return nil, model.Fail(model.CodeInvalidParameter, "type must be BANK or CREDIT (got %q).", *typ)
	}
	if _, err := r.Sync.Get(ctx, p, itemID); err != nil {
		return nil, err
	}
	list, err := r.DB.Accounts(ctx, itemID, typ)
	if err != nil {
		return nil, err
	}
	if p.IsConnectToken() {
		for i, a := range list {
			list[i] = reduce(a)
		}
	}
	return &model.AccountPage{Total: len(list), TotalPages: 1, Page: 1, Results: nonNil(list)}, nil
}

func (r *queryResolver) Account(ctx context.Context, id uuid.UUID) (*model.Account, error) {
	p, err := auth.Require(ctx, auth.ReadProductData)
	if err != nil {
		return nil, err
	}
	a, found, err := r.DB.Account(ctx, p.ClientID, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeAccountNotFound, "Account %s not found.", id)
	}
	return a, nil
}
