package graph

import (
	"context"

	"github.com/google/uuid"

	"ponte/graph/generated"
	"ponte/model"
)

// Webhooks and events: the webhooks engine checks the caller and applies the rules.

// Event returns the Event field resolvers.
func (r *Resolver) Event() generated.EventResolver { return &eventResolver{r} }

type eventResolver struct{ *Resolver }

func (r *queryResolver) Webhooks(ctx context.Context, page, pageSize *int) (*model.WebhookPage, error) {
	return r.WebhookEngine.List(ctx, page, pageSize)
}

func (r *queryResolver) Webhook(ctx context.Context, id uuid.UUID) (*model.Webhook, error) {
	return r.WebhookEngine.Get(ctx, id)
}

func (r *queryResolver) WebhookDeliveries(ctx context.Context, webhookID uuid.UUID, page, pageSize *int) (*model.WebhookDeliveryPage, error) {
	return r.WebhookEngine.Deliveries(ctx, webhookID, page, pageSize)
}

func (r *queryResolver) Event(ctx context.Context, id uuid.UUID) (*model.Event, error) {
	return r.WebhookEngine.Event(ctx, id)
}

func (r *queryResolver) Events(ctx context.Context, itemID *uuid.UUID) ([]*model.Event, error) {
	return r.WebhookEngine.Events(ctx, itemID)
}

// Deliveries loads the deliveries of every event of a list in one statement.
func (r *eventResolver) Deliveries(ctx context.Context, events []*model.Event) ([][]*model.WebhookDelivery, error) {
	return r.WebhookEngine.EventDeliveries(ctx, events)
}

func (r *queryResolver) WebhookSigningSecret(ctx context.Context) (*model.SigningSecret, error) {
	return r.WebhookEngine.SigningSecret(ctx)
}

func (r *mutationResolver) CreateWebhook(ctx context.Context, input model.WebhookInput) (*model.Webhook, error) {
	return r.WebhookEngine.Create(ctx, input)
}

func (r *mutationResolver) UpdateWebhook(ctx context.Context, id uuid.UUID, input model.WebhookInput) (*model.Webhook, error) {
	return r.WebhookEngine.Update(ctx, id, input)
}

func (r *mutationResolver) DeleteWebhook(ctx context.Context, id uuid.UUID) (*model.Webhook, error) {
	return r.WebhookEngine.Delete(ctx, id)
}

func (r *mutationResolver) RedeliverEvent(ctx context.Context, id uuid.UUID) (*model.Event, error) {
	return r.WebhookEngine.Redeliver(ctx, id)
}

func (r *mutationResolver) RotateWebhookSigningSecret(ctx context.Context) (*model.SigningSecret, error) {
	return r.WebhookEngine.RotateSigningSecret(ctx)
}

// WebhookInput returns the webhook input's field resolvers.
func (r *Resolver) WebhookInput() generated.WebhookInputResolver { return webhookInputResolver{} }

type webhookInputResolver struct{}

// Headers runs only when the input names headers, null included: on a change, null removes
// them and a left-out field keeps them, as REST's PATCH reads its body.
func (webhookInputResolver) Headers(_ context.Context, in *model.WebhookInput, data map[string]any) error {
	in.Headers, in.HeadersSet = data, true
	return nil
}
