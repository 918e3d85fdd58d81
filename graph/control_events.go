package graph

import (
	"context"

	"ponte/model"
)

// Sandbox control, events on demand and the event stream: the webhooks engine checks the
// caller (sandbox:control) and applies the rules.

func (r *mutationResolver) FireSandboxEvent(ctx context.Context, input model.SandboxEventInput) (*model.Event, error) {
	return r.WebhookEngine.FireSandboxEvent(ctx, input)
}

func (r *queryResolver) SandboxEvents(ctx context.Context, cursor *string) (*model.SandboxEventBatch, error) {
	return r.WebhookEngine.SandboxEvents(ctx, cursor)
}
