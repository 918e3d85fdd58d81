package model

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/google/uuid"
)

// Webhook is a subscription of an application to one event (or all) at a URL (section 2.12).
type Webhook struct {
	ID         uuid.UUID `json:"id"`
	URL        string    `json:"url"`
	Event      string    `json:"event"`
	Headers    Headers   `json:"headers"`
	CreatedAt  Time      `json:"createdAt"`
	UpdatedAt  Time      `json:"updatedAt"`
	DisabledAt *Time     `json:"disabledAt"`
}

// WebhookInput creates a webhook (POST /webhooks) or changes one (PATCH /webhooks/{id}):
// on a change, absent fields stay as they are, headers null removes them, and enabled
// false disables the webhook.
type WebhookInput struct {
	Event   *string        `json:"event"`
	URL     *string        `json:"url"`
	Headers map[string]any `json:"headers"`
	// HeadersSet tells a PATCH that named headers (even as null) from one that left them out.
	HeadersSet bool  `json:"-"`
	Enabled    *bool `json:"enabled"`
}

// WebhookPage is the page envelope of GET /webhooks.
type WebhookPage struct {
	Total      int        `json:"total"`
	TotalPages int        `json:"totalPages"`
	Page       int        `json:"page"`
	Results    []*Webhook `json:"results"`
}

// WebhookDelivery is one event's delivery to one URL, with every attempt.
type WebhookDelivery struct {
	ID          uuid.UUID         `json:"id"`
	EventID     uuid.UUID         `json:"eventId"`
	Event       string            `json:"event"`
	WebhookID   *uuid.UUID        `json:"webhookId"`
	URL         string            `json:"url"`
	Status      string            `json:"status"` // PENDING, DELIVERED or FAILED
	Attempts    int               `json:"attempts"`
	CreatedAt   Time              `json:"createdAt"`
	UpdatedAt   Time              `json:"updatedAt"`
	DeliveredAt *Time             `json:"deliveredAt"`
	AttemptLog  []*WebhookAttempt `json:"attemptLog"`
}

// WebhookAttempt is one POST of a delivery.
type WebhookAttempt struct {
	Attempt     int    `json:"attempt"`
	AttemptedAt Time   `json:"attemptedAt"`
	URL         string `json:"url"`
	// StatusCode is null when no answer came (time-out, refused connection).
	StatusCode *int    `json:"statusCode"`
	LatencyMs  int     `json:"latencyMs"`
	Error      *string `json:"error"`
	// Response is the start of the receiver's answer.
	Response *string `json:"response"`
}

// WebhookDeliveryPage is the page envelope of GET /webhooks/{id}/deliveries.
type WebhookDeliveryPage struct {
	Total      int                `json:"total"`
	TotalPages int                `json:"totalPages"`
	Page       int                `json:"page"`
	Results    []*WebhookDelivery `json:"results"`
}

// SigningSecret is the secret an application verifies deliveries with (Standard Webhooks).
// After a rotation the previous secret also signs, until PreviousExpiresAt.
type SigningSecret struct {
	Secret            string  `json:"secret"`
	PreviousSecret    *string `json:"previousSecret"`
	PreviousExpiresAt *Time   `json:"previousExpiresAt"`
}

// Headers are the custom HTTP headers of a webhook: names to values.
type Headers map[string]string

// MarshalGQL writes the headers as a JSON object.
func (h Headers) MarshalGQL(w io.Writer) {
	if h == nil {
		h = Headers{}
	}
	_ = json.NewEncoder(w).Encode(map[string]string(h))
}

// UnmarshalGQL reads an object of string values.
func (h *Headers) UnmarshalGQL(v any) error {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("headers must be an object")
	}
	out := Headers{}
	for k, x := range m {
		s, ok := x.(string)
		if !ok {
			return fmt.Errorf("headers.%s must be a string", k)
		}
		out[k] = s
	}
	*h = out
	return nil
}
