package rest

import (
	"encoding/json"
	"net/http"

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

func (s *Server) webhookInput(r *http.Request) (model.WebhookInput, error) {
	var b webhookBody
	if err := decode(r, &b); err != nil {
		return model.WebhookInput{}, err
	}
	return b.input()
}

func (s *Server) listWebhooks(w http.ResponseWriter, r *http.Request) {
	q := queryOf(r, "page", "pageSize")
	page, size := q.integer("page"), q.integer("pageSize")
	if q.err != nil {
		s.writeError(w, r, q.err)
		return
	}
	out, err := s.query.Webhooks(r.Context(), page, size)
	s.respond(w, r, out, err)
}

func (s *Server) createWebhook(w http.ResponseWriter, r *http.Request) {
	in, err := s.webhookInput(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out, err := s.mut.CreateWebhook(r.Context(), in)
	s.respond(w, r, out, err)
}

func (s *Server) getWebhook(w http.ResponseWriter, r *http.Request) {
	id, err := uuidParam(r, "id", "Webhook id")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out, err := s.query.Webhook(r.Context(), id)
	s.respond(w, r, out, err)
}

func (s *Server) updateWebhook(w http.ResponseWriter, r *http.Request) {
	id, err := uuidParam(r, "id", "Webhook id")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	in, err := s.webhookInput(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out, err := s.mut.UpdateWebhook(r.Context(), id, in)
	s.respond(w, r, out, err)
}

func (s *Server) deleteWebhook(w http.ResponseWriter, r *http.Request) {
	id, err := uuidParam(r, "id", "Webhook id")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out, err := s.mut.DeleteWebhook(r.Context(), id)
	s.respond(w, r, out, err)
}

func (s *Server) signingSecret(w http.ResponseWriter, r *http.Request) {
	out, err := s.query.WebhookSigningSecret(r.Context())
	s.respond(w, r, out, err)
}

func (s *Server) rotateSigningSecret(w http.ResponseWriter, r *http.Request) {
	out, err := s.mut.RotateWebhookSigningSecret(r.Context())
	s.respond(w, r, out, err)
}

func (s *Server) getEvent(w http.ResponseWriter, r *http.Request) {
	id, err := uuidParam(r, "id", "Event id")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out, err := s.res.EventWithDeliveries(r.Context(), id)
	s.respond(w, r, out, err)
}

func (s *Server) redeliverEvent(w http.ResponseWriter, r *http.Request) {
	id, err := uuidParam(r, "id", "Event id")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if _, err := s.mut.RedeliverEvent(r.Context(), id); err != nil {
		s.writeError(w, r, err)
		return
	}
	out, err := s.res.EventWithDeliveries(r.Context(), id)
	s.respond(w, r, out, err)
}
