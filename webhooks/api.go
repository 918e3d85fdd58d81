package webhooks

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

// Events lists the names a webhook may subscribe to: section 6.1's and the official
// client's, and all. item/all is refused: the spec contradicts itself about it and the
// official client does not know it.
var Events = []string{
	"all",
	"item/created", "item/updated", "item/error", "item/deleted", "item/waiting_user_input", "item/waiting_user_action", "item/login_succeeded",
	"connector/status_updated",
	"transactions/created", "transactions/updated", "transactions/deleted",
	"payment_intent/created", "payment_intent/completed", "payment_intent/waiting_payer_authorization", "payment_intent/error",
	"payment_request/updated",
	"scheduled_payment/created", "scheduled_payment/completed", "scheduled_payment/error", "scheduled_payment/canceled",
	"scheduled_payment/all_created", "scheduled_payment/all_completed",
	"automatic_pix_payment/created", "automatic_pix_payment/completed", "automatic_pix_payment/error", "automatic_pix_payment/canceled",
	"boleto/updated",
	"smart_transfer_preauthorization/completed", "smart_transfer_preauthorization/error",
	"smart_transfer_payment/completed", "smart_transfer_payment/error",
}

// reservedHeaders are set by the service on every delivery; a webhook cannot replace them.
var reservedHeaders = []string{"content-type", "content-length", "host", "user-agent", "webhook-id", "webhook-timestamp", "webhook-signature", "transfer-encoding", "connection"}

func checkEvent(event string) error {
	if slices.Contains(Events, event) {
		return nil
	}
	if event == "item/all" {
		return model.Fail(model.CodeInvalidWebhookEvent, "event item/all is not supported: subscribe to all, or create one webhook per item event.")
	}
	return model.Fail(model.CodeInvalidWebhookEvent, "event %q is not an event name; use one of the names docs/webhooks.md lists, or all.", event)
}

func checkHeaders(in map[string]any) (map[string]string, error) {
	out := map[string]string{}
	for k, v := range in {
		s, ok := v.(string)
		if !ok {
			return nil, model.Fail(model.CodeInvalidParameter, "headers.%s must be a string.", k)
		}
		if k == "" || strings.ContainsAny(k, " :\r\n\t") || strings.ContainsAny(s, "\r\n") {
			return nil, model.Fail(model.CodeInvalidParameter, "headers.%s is not a valid HTTP header.", k)
		}
		if slices.Contains(reservedHeaders, strings.ToLower(k)) {
			return nil, model.Fail(model.CodeInvalidParameter, "headers.%s is set by the service on every delivery and cannot be replaced.", k)
		}
		out[http.CanonicalHeaderKey(k)] = s
	}
	if len(out) > 20 {
		return nil, model.Fail(model.CodeInvalidParameter, "headers may hold at most 20 entries.")
	}
	return out, nil
}

func duplicate(w *model.Webhook) error {
	return model.Fail(model.CodeWebhookExists, "A webhook for event %s at %s already exists.", w.Event, w.URL)
}

// client is the one gate of the engine's API operations: the calling application, when the
// request's credential may perform action. Every read and write is scoped to it.
func client(ctx context.Context, action auth.Action) (uuid.UUID, error) {
	p, err := auth.Require(ctx, action)
	if err != nil {
		return uuid.Nil, err
	}
	return p.ClientID, nil
}

// Create adds a webhook.
func (e *Engine) Create(ctx context.Context, in model.WebhookInput) (*model.Webhook, error) {
	clientID, err := client(ctx, auth.ManageWebhooks)
	if err != nil {
		return nil, err
	}
	if in.URL == nil || *in.URL == "" {
		return nil, model.Fail(model.CodeInvalidParameter, "url is required.")
	}
	if in.Event == nil || *in.Event == "" {
		return nil, model.Fail(model.CodeInvalidParameter, "event is required.")
	}
	if in.Enabled != nil {
		return nil, model.Fail(model.CodeInvalidParameter, "enabled is only accepted when updating a webhook.")
	}
	if err := model.CheckEventURL("url", *in.URL, e.cfg.AllowInsecure); err != nil {
		return nil, err
	}
	if err := checkEvent(*in.Event); err != nil {
		return nil, err
	}
	headers, err := checkHeaders(in.Headers)
	if err != nil {
		return nil, err
	}
	now := model.NewTime(e.now())
	w := &model.Webhook{ID: model.NewID(), URL: *in.URL, Event: *in.Event, Headers: headers, CreatedAt: now, UpdatedAt: now}
	sealed, err := e.sealHeaders(w.ID, w.Headers)
	if err != nil {
		return nil, err
	}
	switch err := e.db.InsertWebhook(ctx, clientID, w, sealed, e.cfg.Limit); {
	case errors.Is(err, db.ErrDuplicateWebhook):
		return nil, duplicate(w)
	case errors.Is(err, db.ErrWebhookLimit):
		return nil, model.Fail(model.CodeWebhookLimitReached,
			"An application may have at most %d webhooks, disabled ones included; delete one first, or subscribe one URL to all.", e.cfg.Limit)
	case err != nil:
		return nil, err
	}
	return w, nil
}

// Get reads a webhook.
func (e *Engine) Get(ctx context.Context, id uuid.UUID) (*model.Webhook, error) {
	clientID, err := client(ctx, auth.ManageWebhooks)
	if err != nil {
		return nil, err
	}
	return e.webhook(ctx, clientID, id)
}

func (e *Engine) webhook(ctx context.Context, clientID, id uuid.UUID) (*model.Webhook, error) {
	w, found, err := e.db.Webhook(ctx, clientID, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeWebhookNotFound, "Webhook %s not found.", id)
	}
	return e.opened(w)
}

// List reads a page of webhooks, oldest first.
func (e *Engine) List(ctx context.Context, page, pageSize *int) (*model.WebhookPage, error) {
	clientID, err := client(ctx, auth.ManageWebhooks)
	if err != nil {
		return nil, err
	}
	pg, limit, offset, err := model.PageArgs(page, pageSize)
	if err != nil {
		return nil, err
	}
	list, total, err := e.db.Webhooks(ctx, clientID, limit, offset)
	if err != nil {
		return nil, err
	}
	out := make([]*model.Webhook, len(list))
	for i, w := range list {
		if out[i], err = e.opened(w); err != nil {
			return nil, err
		}
	}
	return &model.WebhookPage{Total: total, TotalPages: model.TotalPages(total, limit), Page: pg, Results: out}, nil
}

// Update changes a webhook: the fields given, headers null clears them, enabled switches it.
func (e *Engine) Update(ctx context.Context, id uuid.UUID, in model.WebhookInput) (*model.Webhook, error) {
	clientID, err := client(ctx, auth.ManageWebhooks)
	if err != nil {
		return nil, err
	}
	w, err := e.webhook(ctx, clientID, id)
	if err != nil {
		return nil, err
	}
	if in.URL != nil {
		if err := model.CheckEventURL("url", *in.URL, e.cfg.AllowInsecure); err != nil {
			return nil, err
		}
		w.URL = *in.URL
	}
	if in.Event != nil {
		if err := checkEvent(*in.Event); err != nil {
			return nil, err
		}
		w.Event = *in.Event
	}
	if in.HeadersSet || in.Headers != nil {
		if w.Headers, err = checkHeaders(in.Headers); err != nil {
			return nil, err
		}
	}
	now := model.NewTime(e.now())
	if in.Enabled != nil {
		switch {
		case *in.Enabled:
			w.DisabledAt = nil
		case w.DisabledAt == nil:
			w.DisabledAt = &now
		}
	}
	w.UpdatedAt = now
	sealed, err := e.sealHeaders(w.ID, w.Headers)
	if err != nil {
		return nil, err
	}
	found, err := e.db.UpdateWebhook(ctx, clientID, w, sealed)
	if errors.Is(err, db.ErrDuplicateWebhook) {
		return nil, duplicate(w)
	}
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeWebhookNotFound, "Webhook %s not found.", id)
	}
	return w, nil
}

// Delete removes a webhook; its pending deliveries are canceled.
func (e *Engine) Delete(ctx context.Context, id uuid.UUID) (*model.Webhook, error) {
	clientID, err := client(ctx, auth.ManageWebhooks)
	if err != nil {
		return nil, err
	}
	w, found, err := e.db.DeleteWebhook(ctx, clientID, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeWebhookNotFound, "Webhook %s not found.", id)
	}
	return e.opened(w)
}

// Deliveries reads a page of a webhook's deliveries, newest first.
func (e *Engine) Deliveries(ctx context.Context, id uuid.UUID, page, pageSize *int) (*model.WebhookDeliveryPage, error) {
	clientID, err := client(ctx, auth.ManageWebhooks)
	if err != nil {
		return nil, err
	}
	pg, limit, offset, err := model.PageArgs(page, pageSize)
	if err != nil {
		return nil, err
	}
	if _, err := e.webhook(ctx, clientID, id); err != nil {
		return nil, err
	}
	list, total, err := e.db.WebhookDeliveries(ctx, clientID, id, limit, offset)
	if err != nil {
		return nil, err
	}
	if list == nil {
		list = []*model.WebhookDelivery{}
	}
	return &model.WebhookDeliveryPage{Total: total, TotalPages: model.TotalPages(total, limit), Page: pg, Results: list}, nil
}

// EventDeliveries reads the deliveries of each of events, in their order (a batch: one
// statement for all).
func (e *Engine) EventDeliveries(ctx context.Context, events []*model.Event) ([][]*model.WebhookDelivery, error) {
	clientID, err := client(ctx, auth.ReadEvents)
	if err != nil {
		return nil, err
	}
	ids := make([]uuid.UUID, len(events))
	for i, ev := range events {
		ids[i] = ev.ID
	}
	byEvent, err := e.db.EventDeliveries(ctx, clientID, ids)
	if err != nil {
		return nil, err
	}
	out := make([][]*model.WebhookDelivery, len(events))
	for i, ev := range events {
		if out[i] = byEvent[ev.ID]; out[i] == nil {
			out[i] = []*model.WebhookDelivery{}
		}
	}
	return out, nil
}

// Event reads one recorded event.
func (e *Engine) Event(ctx context.Context, id uuid.UUID) (*model.Event, error) {
	clientID, err := client(ctx, auth.ReadEvents)
	if err != nil {
		return nil, err
	}
	return e.event(ctx, clientID, id)
}

func (e *Engine) event(ctx context.Context, clientID, id uuid.UUID) (*model.Event, error) {
	ev, found, err := e.db.Event(ctx, clientID, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeEventNotFound, "Event %s not found.", id)
	}
	return eventOf(ev), nil
}

func eventOf(ev *db.Event) *model.Event {
	return &model.Event{ID: ev.ID, Event: ev.Event, Payload: ev.Payload, CreatedAt: model.NewTime(ev.CreatedAt), SandboxControl: ev.Control}
}

// Events lists the events recorded for the application, or for one of its items, oldest
// first (at most 10,000).
func (e *Engine) Events(ctx context.Context, itemID *uuid.UUID) ([]*model.Event, error) {
	clientID, err := client(ctx, auth.ReadEvents)
	if err != nil {
		return nil, err
	}
	rows, err := e.db.Events(ctx, clientID, itemID)
	if err != nil {
		return nil, err
	}
	out := make([]*model.Event, len(rows))
	for i, ev := range rows {
		out[i] = eventOf(ev)
	}
	return out, nil
}

// Redeliver sends an event again to every URL it went to (each delivery starts its
// schedule over, its attempt log kept), or, when it went nowhere, to the URLs that match it
// now.
func (e *Engine) Redeliver(ctx context.Context, id uuid.UUID) (*model.Event, error) {
	clientID, err := client(ctx, auth.ManageWebhooks)
	if err != nil {
		return nil, err
	}
	ev, found, err := e.db.Event(ctx, clientID, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeEventNotFound, "Event %s not found.", id)
	}
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		ids, err := tx.RestartDeliveries(ctx, clientID, id)
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			return e.fanOut(ctx, tx, ev)
		}
		return e.enqueueAgain(ctx, tx, ids)
	})
	if err != nil {
		return nil, err
	}
	return eventOf(ev), nil
}

// SigningSecret returns the application's signing secret, creating it on first use.
func (e *Engine) SigningSecret(ctx context.Context) (*model.SigningSecret, error) {
	clientID, err := client(ctx, auth.ManageWebhooks)
	if err != nil {
		return nil, err
	}
	return e.secrets(ctx, clientID)
}

// RotateSigningSecret replaces the signing secret; the old one keeps signing (a second
// signature) for the overlap, so receivers can switch without losing a delivery.
func (e *Engine) RotateSigningSecret(ctx context.Context) (*model.SigningSecret, error) {
	clientID, err := client(ctx, auth.ManageWebhooks)
	if err != nil {
		return nil, err
	}
	if _, err := e.secrets(ctx, clientID); err != nil {
		return nil, err
	}
	if err := e.db.RotateClientWebhookSecret(ctx, clientID, e.sealer.Seal([]byte(newSecret()), clientID[:]), e.now()); err != nil {
		return nil, err
	}
	e.keysMu.Lock()
	delete(e.keys, clientID)
	e.keysMu.Unlock()
	return e.secrets(ctx, clientID)
}

// connectorStatusChanged records connector/status_updated for every application, in tx.
func connectorStatusChanged(ctx context.Context, tx *db.Tx, clients []uuid.UUID, connectorID int, status string) error {
	for _, c := range clients {
		id := fmt.Sprint(connectorID)
		if err := tx.InsertEvent(ctx, &db.Event{ClientID: c, Event: "connector/status_updated",
			Payload: map[string]any{"id": id, "connectorId": id, "data": map[string]any{"status": status}, "triggeredBy": "INTERNAL"}}); err != nil {
			return err
		}
	}
	return nil
}

// SetConnectorStatus changes a connector's health (an operator's command) and, when it
// changed, tells every application with connector/status_updated, in the same transaction.
func (e *Engine) SetConnectorStatus(ctx context.Context, id int, status model.HealthStatus) (changed bool, err error) {
	switch status {
	case model.HealthOnline, model.HealthUnstable, model.HealthOffline:
	default:
		return false, fmt.Errorf("status must be ONLINE, UNSTABLE or OFFLINE, not %q", status)
	}
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		found, ch, err := tx.SetConnectorStatus(ctx, id, string(status))
		if err != nil {
			return err
		}
		if !found {
			return fmt.Errorf("no connector %d", id)
		}
		if changed = ch; !ch {
			return nil
		}
		clients, err := tx.EnabledClients(ctx)
		if err != nil {
			return err
		}
		return connectorStatusChanged(ctx, tx, clients, id, string(status))
	})
	return changed, err
}
