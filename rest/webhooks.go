package rest

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/google/uuid"

	"ponte/model"
)

// webhookBody is POST /webhooks and PATCH /webhooks/{id}; headers stays raw so a PATCH can
// tell "headers": null (remove them) from no headers at all (keep them).
type webhookBody struct {
	Event   *string         `json:"event"`
	URL     *string         `json:"url"`
	Headers json.RawMessage `json:"headers"`
	Enabled *bool           `json:"enabled"`
}

func (b *webhookBody) input() (model.WebhookInput, error) {
	in := model.WebhookInput{Event: b.Event, URL: b.URL, Enabled: b.Enabled}
	if b.Headers != nil {
		in.HeadersSet = true
		if err := json.Unmarshal(b.Headers, &in.Headers); err != nil {
			return in, model.Fail(model.CodeInvalidParameter, "headers must be an object of string values.")
		}
	}
	return in, nil
}

// listWebhooks is GET /webhooks.
func (s *Server) listWebhooks() http.HandlerFunc {
	return s.pageOf(func(ctx context.Context, page, size *int) (any, error) { return s.query.Webhooks(ctx, page, size) })
}

// createWebhook is POST /webhooks.
func (s *Server) createWebhook() http.HandlerFunc {
	return withBody(s, func(ctx context.Context, b webhookBody) (any, error) {
		in, err := b.input()
		if err != nil {
			return nil, err
		}
		return s.mut.CreateWebhook(ctx, in)
	})
}

// getWebhook is GET /webhooks/{id}.
func (s *Server) getWebhook() http.HandlerFunc {
	return s.byID("Webhook id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.query.Webhook(ctx, id) })
}

// updateWebhook is PATCH /webhooks/{id}.
func (s *Server) updateWebhook() http.HandlerFunc {
	return withIDBody(s, "Webhook id", func(ctx context.Context, id uuid.UUID, b webhookBody) (any, error) {
		in, err := b.input()
		if err != nil {
			return nil, err
		}
		return s.mut.UpdateWebhook(ctx, id, in)
	})
}

// deleteWebhook is DELETE /webhooks/{id}.
func (s *Server) deleteWebhook() http.HandlerFunc {
	return s.byID("Webhook id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.mut.DeleteWebhook(ctx, id) })
}

// webhookDeliveries is GET /webhooks/{id}/deliveries.
func (s *Server) webhookDeliveries() http.HandlerFunc {
	return s.pageByID("Webhook id", func(ctx context.Context, id uuid.UUID, page, size *int) (any, error) {
		return s.query.WebhookDeliveries(ctx, id, page, size)
	})
}

// signingSecret is GET /webhooks/signing-secret.
func (s *Server) signingSecret() http.HandlerFunc {
	return s.answer(func(ctx context.Context) (any, error) { return s.query.WebhookSigningSecret(ctx) })
}

// rotateSigningSecret is POST /webhooks/signing-secret/rotate.
func (s *Server) rotateSigningSecret() http.HandlerFunc {
	return s.answer(func(ctx context.Context) (any, error) { return s.mut.RotateWebhookSigningSecret(ctx) })
}

// getEvent is GET /events/{id}: an event with its deliveries.
func (s *Server) getEvent() http.HandlerFunc {
	return s.byID("Event id", func(ctx context.Context, id uuid.UUID) (any, error) {
		ev, err := s.query.Event(ctx, id)
		return s.withDeliveries(ctx, ev, err)
	})
}

// redeliverEvent is POST /events/{id}/redeliver; it answers the event as GET /events/{id}
// would, with the new delivery.
func (s *Server) redeliverEvent() http.HandlerFunc {
	return s.byID("Event id", func(ctx context.Context, id uuid.UUID) (any, error) {
		ev, err := s.mut.RedeliverEvent(ctx, id)
		return s.withDeliveries(ctx, ev, err)
	})
}

// withDeliveries fills in an event's deliveries through Event.deliveries, as a GraphQL
// query selecting them does.
func (s *Server) withDeliveries(ctx context.Context, ev *model.Event, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	d, err := s.res.Event().Deliveries(ctx, []*model.Event{ev})
	if err != nil {
		return nil, err
	}
	ev.Deliveries = d[0]
	return ev, nil
}
