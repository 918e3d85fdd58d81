package webhooks

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/model"
)

// sealHeaders seals a webhook's custom headers, bound to its id so a sealed value copied to
// another webhook does not open; no headers are stored as nothing.
func (e *Engine) sealHeaders(id uuid.UUID, h model.Headers) ([]byte, error) {
	if len(h) == 0 {
		return nil, nil
	}
	plain, err := json.Marshal(map[string]string(h))
	if err != nil {
		return nil, err
	}
	return e.headerSealer.Seal(plain, id[:]), nil
}

// openHeaders reads a webhook's headers: the sealed ones, or those a start has not sealed yet.
func (e *Engine) openHeaders(id uuid.UUID, sealed []byte, legacy map[string]string) (model.Headers, error) {
	out := model.Headers{}
	if sealed == nil {
		for k, v := range legacy {
			out[k] = v
		}
		return out, nil
	}
	plain, err := e.headerSealer.Open(sealed, id[:])
	if err != nil {
		return nil, fmt.Errorf("webhook %s: open headers: %w", id, err)
	}
	if err := json.Unmarshal(plain, &out); err != nil {
		return nil, fmt.Errorf("webhook %s: read headers: %w", id, err)
	}
	return out, nil
}

// opened is a stored webhook with its headers readable, for its owner.
func (e *Engine) opened(w *db.StoredWebhook) (*model.Webhook, error) {
	h, err := e.openHeaders(w.ID, w.SealedHeaders, w.LegacyHeaders)
	if err != nil {
		return nil, err
	}
	w.Headers = h
	return w.Webhook, nil
}

// SealStoredHeaders seals the plaintext headers that webhooks created before migration 0011
// still hold; call it once at start, before serving. It returns how many it sealed.
func (e *Engine) SealStoredHeaders(ctx context.Context) (int, error) {
	n, err := e.db.SealLegacyWebhookHeaders(ctx, func(id uuid.UUID, h map[string]string) ([]byte, error) {
		return e.sealHeaders(id, h)
	})
	if n > 0 {
		e.log.Info("sealed the custom headers of webhooks stored in plain text", "webhooks", n)
	}
	return n, err
}
