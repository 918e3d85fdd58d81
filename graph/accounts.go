package graph

import (
	"context"

	"github.com/google/uuid"

	"ponte/model"
)

func (r *queryResolver) Accounts(ctx context.Context, itemID uuid.UUID, typ *string) (*model.AccountPage, error) {
	return r.Collected.Accounts(ctx, itemID, typ)
}

func (r *queryResolver) Account(ctx context.Context, id uuid.UUID) (*model.Account, error) {
	return r.Collected.Account(ctx, id)
}
