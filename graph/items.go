package graph

import (
	"context"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/itemsync"
	"ponte/model"
)

func itemParams(params map[string]any, encrypted *string) any {
	if encrypted != nil && *encrypted != "" {
		return *encrypted
	}
	if params == nil {
		return nil
	}
	return params
}

func (r *mutationResolver) CreateItem(ctx context.Context, in model.CreateItemInput) (*model.Item, error) {
	p, err := auth.Require(ctx, auth.CreateItem)
	if err != nil {
		return nil, err
	}
	return r.Sync.Create(ctx, p, itemsync.CreateInput{
		ConnectorID: in.ConnectorID, Parameters: itemParams(in.Parameters, in.EncryptedParameters),
		WebhookURL: in.WebhookURL, ClientUserID: in.ClientUserID, OAuthRedirectURI: in.OAuthRedirectURI,
		Products: in.Products, AvoidDuplicates: in.AvoidDuplicates,
	})
}

func (r *mutationResolver) UpdateItem(ctx context.Context, id uuid.UUID, in *model.UpdateItemInput) (*model.Item, error) {
	p, err := auth.Require(ctx, auth.UpdateItem)
	if err != nil {
		return nil, err
	}
	var u itemsync.UpdateInput
	if in != nil {
		u = itemsync.UpdateInput{Parameters: itemParams(in.Parameters, in.EncryptedParameters),
			WebhookURL: in.WebhookURL, ClientUserID: in.ClientUserID, Products: in.Products}
	}
	return r.Sync.Update(ctx, p, id, u)
}

func (r *mutationResolver) SubmitItemMfa(ctx context.Context, id uuid.UUID, parameters map[string]any) (*model.Item, error) {
	p, err := auth.Require(ctx, auth.UpdateItem)
	if err != nil {
		return nil, err
	}
	return r.Sync.SubmitMFA(ctx, p, id, parameters)
}

func (r *mutationResolver) DeleteItem(ctx context.Context, id uuid.UUID) (*model.Item, error) {
	p, err := auth.Require(ctx, auth.DeleteItem)
	if err != nil {
		return nil, err
	}
	return r.Sync.Delete(ctx, p, id)
}

func (r *queryResolver) Item(ctx context.Context, id uuid.UUID) (*model.Item, error) {
	p, err := auth.Require(ctx, auth.ReadItem)
	if err != nil {
		return nil, err
	}
	return r.Sync.Get(ctx, p, id)
}

func (r *queryResolver) Items(ctx context.Context, clientUserID *string, connectorID *int, after *string) (*model.ItemPage, error) {
	p, err := auth.Require(ctx, auth.ListItems)
	if err != nil {
		return nil, err
	}
	a := ""
	if after != nil {
		a = *after
	}
	list, next, err := r.Sync.List(ctx, p, db.ItemFilter{ClientUserID: clientUserID, ConnectorID: connectorID}, a)
	if err != nil {
		return nil, err
	}
	return &model.ItemPage{Results: nonNil(list), Next: next}, nil
}

func (r *queryResolver) Events(ctx context.Context, itemID *uuid.UUID) ([]*model.Event, error) {
	p, err := auth.Require(ctx, auth.ReadEvents)
	if err != nil {
		return nil, err
	}
	rows, err := r.DB.Events(ctx, p.ClientID, itemID)
	if err != nil {
		return nil, err
	}
	out := make([]*model.Event, len(rows))
	for i, e := range rows {
		out[i] = &model.Event{ID: e.ID, Event: e.Event, Payload: e.Payload, CreatedAt: model.NewTime(e.CreatedAt)}
	}
	return out, nil
}

// PendingAction is what a sandbox institution's authorisation page shows; it needs no
// credential because the id in the link is known only to the user sent there.
func (r *Resolver) PendingAction(ctx context.Context, executionID uuid.UUID) (*itemsync.PendingAction, error) {
	return r.Sync.Action(ctx, executionID)
}

// DecideAction records the user's approval or denial on that page.
func (r *Resolver) DecideAction(ctx context.Context, executionID uuid.UUID, approve bool) error {
	return r.Sync.Decide(ctx, executionID, approve)
}

func (r *queryResolver) ItemResources(ctx context.Context, itemID uuid.UUID, status *string) (*model.ItemResourcePage, error) {
	p, err := auth.Require(ctx, auth.ReadItem)
	if err != nil {
		return nil, err
	}
	list, err := r.Sync.Resources(ctx, p, itemID, status)
	if err != nil {
		return nil, err
	}
	return &model.ItemResourcePage{Total: len(list), TotalPages: model.ListPages(len(list)), Page: 1, Results: nonNil(list)}, nil
}
