package model

import "github.com/google/uuid"

// SandboxEventInput is the body of POST /sandbox/events (GraphQL fireSandboxEvent): an
// event name of section 6.1 and the resource it is about. Which ids an event needs is
// docs/sandbox-control.md's table; an id left out is chosen from the resource named (the item's
// first account, the request's latest intent, its first scheduled payment or charge).
type SandboxEventInput struct {
	Event                 string      `json:"event"`
	ItemID                *uuid.UUID  `json:"itemId,omitempty"`
	AccountID             *uuid.UUID  `json:"accountId,omitempty"`
	TransactionIDs        []uuid.UUID `json:"transactionIds,omitempty"`
	PaymentRequestID      *uuid.UUID  `json:"paymentRequestId,omitempty"`
	PaymentIntentID       *uuid.UUID  `json:"paymentIntentId,omitempty"`
	ScheduledPaymentID    *uuid.UUID  `json:"scheduledPaymentId,omitempty"`
	AutomaticPixPaymentID *uuid.UUID  `json:"automaticPixPaymentId,omitempty"`
	// The smart transfer and boleto events name their resource directly: none has a
	// parent the application already holds, as a payment request is for its intents.
	PreauthorizationID     *uuid.UUID `json:"preauthorizationId,omitempty"`
	SmartTransferPaymentID *uuid.UUID `json:"smartTransferPaymentId,omitempty"`
	BoletoID               *uuid.UUID `json:"boletoId,omitempty"`
	// ErrorCode and ErrorMessage fill the error of item/error (an execution error code) and
	// of the payment error events (a payment error code).
	ErrorCode    *string `json:"errorCode,omitempty"`
	ErrorMessage *string `json:"errorMessage,omitempty"`
}

// SandboxEventBatch is one read of the event stream: the events written after a cursor,
// in commit order, and the cursor to read on from (GET /sandbox/events/stream sends them
// as they come).
type SandboxEventBatch struct {
	Events []*Event `json:"events"`
	// Cursor is where the next read starts: after the last event here, or where this read
	// started when there was none.
	Cursor string `json:"cursor"`
}
