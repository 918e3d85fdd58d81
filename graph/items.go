package graph

import (
	"context"

	"github.com/google/uuid"

	"ponte/model"
)

// Items: itemsync checks the caller and applies the rules of section 4.3.

func (r *mutationResolver) CreateItem(ctx context.Context, in model.CreateItemInput) (*model.Item, error) {
	return r.Sync.Create(ctx, in)
}

func (r *mutationResolver) UpdateItem(ctx context.Context, id uuid.UUID, in *model.UpdateItemInput) (*model.Item, error) {
	return r.Sync.Update(ctx, id, in)
}

func (r *mutationResolver) SubmitItemMfa(ctx context.Context, id uuid.UUID, parameters map[string]any) (*model.Item, error) {
	return r.Sync.SubmitMFA(ctx, id, parameters)
}

func (r *mutationResolver) DeleteItem(ctx context.Context, id uuid.UUID) (*model.Item, error) {
	return r.Sync.Delete(ctx, id)
}

func (r *queryResolver) Item(ctx context.Context, id uuid.UUID) (*model.Item, error) {
	return r.Sync.Get(ctx, id)
}

func (r *queryResolver) Items(ctx context.Context, clientUserID *string, connectorID *int, after *string) (*model.ItemPage, error) {
	return r.Sync.List(ctx, model.ItemFilter{ClientUserID: clientUserID, ConnectorID: connectorID}, after)
}

func (r *queryResolver) ItemResources(ctx context.Context, itemID uuid.UUID, status *string) (*model.ItemResourcePage, error) {
	return r.Sync.Resources(ctx, itemID, status)
}

func (r *queryResolver) SandboxAuthorization(ctx context.Context, id uuid.UUID) (*model.SandboxAuthorization, error) {
	return r.Sync.SandboxAuthorization(ctx, id)
}

func (r *mutationResolver) DecideSandboxAuthorization(ctx context.Context, id uuid.UUID, decision string) (*model.SandboxAuthorization, error) {
	return r.Sync.DecideSandboxAuthorization(ctx, id, decision)
}
