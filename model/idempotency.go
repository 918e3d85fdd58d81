package model

import "github.com/google/uuid"

// The Idempotency-Key store's vocabulary: the idempotency package keeps and replays first
// answers through a store that db implements, and neither imports the other.

// IdempotencyKey names one key: an application, the caller within it (a Connect Token's
// id, or uuid.Nil for its API keys) and the key the client sent.
type IdempotencyKey struct {
	ClientID uuid.UUID
	Caller   uuid.UUID
	Key      string
}

// StoredResponse is a first answer kept for replay.
type StoredResponse struct {
	Status      int
	ContentType string
	Body        []byte
}

// IdempotencyRecord is the state of a key another request holds.
type IdempotencyRecord struct {
	Fingerprint []byte
	// Response is nil while the first request still runs.
	Response *StoredResponse
}
