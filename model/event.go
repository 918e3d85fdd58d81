package model

import "github.com/google/uuid"

// Event is one notification recorded for delivery (section 6.2 payload in Payload).
type Event struct {
	ID        uuid.UUID      `json:"id"`
	Event     string         `json:"event"`
	Payload   map[string]any `json:"payload"`
	CreatedAt Time           `json:"createdAt"`
	// SandboxControl marks an event fired on demand (POST /sandbox/events), not by a change.
	SandboxControl bool `json:"sandboxControl"`
	// Deliveries are the event's deliveries, filled when one event is read.
	Deliveries []*WebhookDelivery `json:"deliveries,omitempty"`
}

// CreateItemInput is the body of POST /items (section 4.3).
type CreateItemInput struct {
	ConnectorID         int            `json:"connectorId"`
	Parameters          map[string]any `json:"parameters,omitempty"`
	EncryptedParameters *string        `json:"encryptedParameters,omitempty"`
	WebhookURL          *string        `json:"webhookUrl,omitempty"`
	ClientUserID        *string        `json:"clientUserId,omitempty"`
	OAuthRedirectURI    *string        `json:"oauthRedirectUri,omitempty"`
	Products            []Product      `json:"products,omitempty"`
	AvoidDuplicates     *bool          `json:"avoidDuplicates,omitempty"`
	// TestClockID puts a sandbox item on a test clock (docs/test-clocks.md).
	TestClockID *string `json:"testClockId,omitempty"`
}

// UpdateItemInput is the body of PATCH /items/{id}.
type UpdateItemInput struct {
	Parameters          map[string]any `json:"parameters,omitempty"`
	EncryptedParameters *string        `json:"encryptedParameters,omitempty"`
	WebhookURL          *string        `json:"webhookUrl,omitempty"`
	ClientUserID        *string        `json:"clientUserId,omitempty"`
	Products            []Product      `json:"products,omitempty"`
	// FullSync asks the execution to read the whole history of transactions rather than
	// what changed since the last read (Ponte's own; docs/sandbox.md).
	FullSync *bool `json:"fullSync,omitempty"`
}
