package model

import "github.com/google/uuid"

// SmartTransferLimits caps what payments under a pre-authorization may add up to, in reais:
// per payment, per São Paulo calendar day, week (Monday to Sunday), month and year, and in
// all. A null limit does not apply.
type SmartTransferLimits struct {
	Transaction *float64 `json:"transaction"`
	Daily       *float64 `json:"daily"`
	Weekly      *float64 `json:"weekly"`
	Monthly     *float64 `json:"monthly"`
	Yearly      *float64 `json:"yearly"`
	Total       *float64 `json:"total"`
}

// SmartTransferPreauthorization is a payer's standing consent to transfers to some
// recipients (the official client's SmartTransferPreauthorization).
type SmartTransferPreauthorization struct {
	ID                       uuid.UUID            `json:"id"`
	Status                   string               `json:"status"`
	ConsentURL               *string              `json:"consentUrl"`
	ClientPreauthorizationID *string              `json:"clientPreauthorizationId"`
	CallbackUrls             *CallbackURLs        `json:"callbackUrls"`
	Recipients               []*PaymentRecipient  `json:"recipients"`
	Connector                *Connector           `json:"connector"`
	Limits                   *SmartTransferLimits `json:"limits"`
	ErrorDetail              *PaymentErrorDetail  `json:"errorDetail"`
	CreatedAt                Time                 `json:"createdAt"`
	UpdatedAt                Time                 `json:"updatedAt"`
	// TestClockID names the sandbox test clock the pre-authorization lives on; absent for
	// real time.
	TestClockID *uuid.UUID `json:"testClockId,omitempty"`
}

// SmartTransferPreauthorizationInput asks a payer for a pre-authorization.
type SmartTransferPreauthorizationInput struct {
	ConnectorID              *int                 `json:"connectorId"`
	Parameters               *PaymentPayerInput   `json:"parameters"`
	RecipientIds             []string             `json:"recipientIds"`
	CallbackUrls             *CallbackURLs        `json:"callbackUrls"`
	Limits                   *SmartTransferLimits `json:"limits"`
	ClientPreauthorizationID *string              `json:"clientPreauthorizationId"`
	// TestClockID puts a sandbox pre-authorization on a test clock (docs/test-clocks.md).
	TestClockID *string `json:"testClockId"`
}

// SmartTransferPreauthorizationPage is the page envelope of GET
// /smart-transfers/preauthorizations.
type SmartTransferPreauthorizationPage struct {
	Total      int                              `json:"total"`
	TotalPages int                              `json:"totalPages"`
	Page       int                              `json:"page"`
	Results    []*SmartTransferPreauthorization `json:"results"`
}

// SmartTransferPayment is one transfer under a pre-authorization (the official client's
// SmartTransferPayment).
type SmartTransferPayment struct {
	ID                 uuid.UUID           `json:"id"`
	PreauthorizationID uuid.UUID           `json:"preauthorizationId"`
	Status             string              `json:"status"`
	Amount             float64             `json:"amount"`
	Description        *string             `json:"description"`
	Recipient          *PaymentRecipient   `json:"recipient"`
	ClientPaymentID    *string             `json:"clientPaymentId"`
	ErrorDetail        *PaymentErrorDetail `json:"errorDetail"`
	CreatedAt          Time                `json:"createdAt"`
	UpdatedAt          Time                `json:"updatedAt"`
}

// SmartTransferPaymentInput pays under a pre-authorization.
type SmartTransferPaymentInput struct {
	PreauthorizationID *string  `json:"preauthorizationId"`
	RecipientID        *string  `json:"recipientId"`
	Amount             *float64 `json:"amount"`
	Description        *string  `json:"description"`
	ClientPaymentID    *string  `json:"clientPaymentId"`
}

// BulkPayment pays several payment requests from a smart account in one authorization (the
// official client's BulkPayment).
type BulkPayment struct {
	ID              uuid.UUID           `json:"id"`
	Status          string              `json:"status"`
	ReferenceID     *string             `json:"referenceId"`
	TotalAmount     float64             `json:"totalAmount"`
	FeesAmount      float64             `json:"feesAmount"`
	GrossAmount     float64             `json:"grossAmount"`
	PaymentURL      string              `json:"paymentUrl"`
	PaymentRequests []*PaymentRequest   `json:"paymentRequests"`
	SmartAccount    *SmartAccount       `json:"smartAccount"`
	CallbackUrls    *CallbackURLs       `json:"callbackUrls"`
	ErrorDetail     *PaymentErrorDetail `json:"errorDetail"`
	CreatedAt       Time                `json:"createdAt"`
	UpdatedAt       Time                `json:"updatedAt"`
}

// BulkPaymentInput creates a bulk payment.
type BulkPaymentInput struct {
	SmartAccountID    *string       `json:"smartAccountId"`
	PaymentRequestIds []string      `json:"paymentRequestIds"`
	CallbackUrls      *CallbackURLs `json:"callbackUrls"`
}

// BulkPaymentPage is the page envelope of GET /payments/bulk.
type BulkPaymentPage struct {
	Total      int            `json:"total"`
	TotalPages int            `json:"totalPages"`
	Page       int            `json:"page"`
	Results    []*BulkPayment `json:"results"`
}
