package graph

import (
	"context"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/graph/generated"
	"ponte/model"
)

// Event returns the Event field resolvers.
func (r *Resolver) Event() generated.EventResolver { return &eventResolver{r} }

type eventResolver struct{ *Resolver }

func (r *queryResolver) Webhooks(ctx context.Context, page, pageSize *int) (*model.WebhookPage, error) {
	p, err := auth.Require(ctx, auth.ManageWebhooks)
	if err != nil {
		return nil, err
	}
	pg, limit, offset, err := pageArgs(page, pageSize)
	if err != nil {
		return nil, err
	}
	list, total, err := r.WebhookEngine.List(ctx, p, limit, offset)
	if err != nil {
		return nil, err
	}
	return &model.WebhookPage{Total: total, TotalPages: totalPages(total, limit), Page: pg, Results: list}, nil
}

func (r *queryResolver) Webhook(ctx context.Context, id uuid.UUID) (*model.Webhook, error) {
	p, err := auth.Require(ctx, auth.ManageWebhooks)
	if err != nil {
		return nil, err
	}
	return r.WebhookEngine.Get(ctx, p, id)
}

func (r *queryResolver) WebhookDeliveries(ctx context.Context, webhookID uuid.UUID, page, pageSize *int) (*model.WebhookDeliveryPage, error) {
	p, err := auth.Require(ctx, auth.ManageWebhooks)
	if err != nil {
		return nil, err
	}
	pg, limit, offset, err := pageArgs(page, pageSize)
	if err != nil {
		return nil, err
	}
	list, total, err := r.WebhookEngine.Deliveries(ctx, p, webhookID, limit, offset)
	if err != nil {
		return nil, err
	}
	return &model.WebhookDeliveryPage{Total: total, TotalPages: totalPages(total, limit), Page: pg, Results: nonNil(list)}, nil
}

func (r *queryResolver) Event(ctx context.Context, id uuid.UUID) (*model.Event, error) {
	p, err := auth.Require(ctx, auth.ReadEvents)
	if err != nil {
		return nil, err
	}
	return r.WebhookEngine.Event(ctx, p, id)
}

// EventWithDeliveries reads one event with where it went (GET /events/{id}).
func (r *Resolver) EventWithDeliveries(ctx context.Context, id uuid.UUID) (*model.Event, error) {
	ev, err := (&queryResolver{r}).Event(ctx, id)
	if err != nil {
		return nil, err
	}
	d, err := r.Event().Deliveries(ctx, []*model.Event{ev})
	if err != nil {
		return nil, err
	}
	ev.Deliveries = d[0]
	return ev, nil
}

// Deliveries loads the deliveries of every event of a list in one statement.
func (r *eventResolver) Deliveries(ctx context.Context, events []*model.Event) ([][]*model.WebhookDelivery, error) {
	p, err := auth.Require(ctx, auth.ReadEvents)
	if err != nil {
		return nil, err
	}
	ids := make([]uuid.UUID, len(events))
	for i, e := range events {
		ids[i] = e.ID
	}
	byEvent, err := r.WebhookEngine.EventDeliveries(ctx, p, ids)
	if err != nil {
		return nil, err
	}
	out := make([][]*model.WebhookDelivery, len(events))
	for i, e := range events {
		out[i] = nonNil(byEvent[e.ID])
	}
	return out, nil
}

func (r *queryResolver) WebhookSigningSecret(ctx context.Context) (*model.SigningSecret, error) {
	p, err := auth.Require(ctx, auth.ManageWebhooks)
	if err != nil {
		return nil, err
	}
	return r.WebhookEngine.SigningSecret(ctx, p)
}

func (r *mutationResolver) CreateWebhook(ctx context.Context, input model.WebhookInput) (*model.Webhook, error) {
	p, err := auth.Require(ctx, auth.ManageWebhooks)
	if err != nil {
		return nil, err
	}
	return r.WebhookEngine.Create(ctx, p, input)
}

func (r *mutationResolver) UpdateWebhook(ctx context.Context, id uuid.UUID, input model.WebhookInput) (*model.Webhook, error) {
	p, err := auth.Require(ctx, auth.ManageWebhooks)
	if err != nil {
		return nil, err
	}
	return r.WebhookEngine.Update(ctx, p, id, input)
}

func (r *mutationResolver) DeleteWebhook(ctx context.Context, id uuid.UUID) (*model.Webhook, error) {
	p, err := auth.Require(ctx, auth.ManageWebhooks)
	if err != nil {
		return nil, err
	}
	return r.WebhookEngine.Delete(ctx, p, id)
}

func (r *mutationResolver) RedeliverEvent(ctx context.Context, id uuid.UUID) (*model.Event, error) {
	p, err := auth.Require(ctx, auth.ManageWebhooks)
	if err != nil {
		return nil, err
	}
	return r.WebhookEngine.Redeliver(ctx, p, id)
}

func (r *mutationResolver) RotateWebhookSigningSecret(ctx context.Context) (*model.SigningSecret, error) {
	p, err := auth.Require(ctx, auth.ManageWebhooks)
	if err != nil {
		return nil, err
	}
	return r.WebhookEngine.RotateSigningSecret(ctx, p)
}
