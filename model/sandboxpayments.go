package model

import "github.com/google/uuid"

// The kinds of payment resource a sandbox control move reaches, as the REST paths
// (/sandbox/payments/{kind}/{id}/status) and sandboxMovePayment's kind name them.
const (
	SandboxPaymentRequests = "payment-requests"
	SandboxPaymentIntents  = "payment-intents"
	SandboxScheduledPays   = "scheduled-payments"
	SandboxAutoPixPays     = "automatic-pix-payments"
	SandboxBoletos         = "boletos"
	SandboxSmartPays       = "smart-transfer-payments"
	SandboxBulkPays        = "bulk-payments"
)

// SandboxPaymentKinds lists them.
var SandboxPaymentKinds = []string{SandboxPaymentRequests, SandboxPaymentIntents, SandboxScheduledPays, SandboxAutoPixPays, SandboxBoletos,
	SandboxSmartPays, SandboxBulkPays}

// SandboxPaymentMoveInput is the body of POST /sandbox/payments/{kind}/{id}/status: the
// status to move a sandbox payment to and, for a failure, the error it carries.
type SandboxPaymentMoveInput struct {
	Status      string                    `json:"status"`
	ErrorDetail *SandboxPaymentErrorInput `json:"errorDetail"`
}

// SandboxPaymentErrorInput is the errorDetail a control move to a failure records; absent
// fields take the defaults the engine's own failures use.
type SandboxPaymentErrorInput struct {
	Code        *string `json:"code"`
	Description *string `json:"description"`
	Detail      *string `json:"detail"`
}

// SandboxPaymentMove is what a control move did: the resource's kind and id, the status it
// left and the one it took, and the request (and intent) as they are now.
type SandboxPaymentMove struct {
	Kind           string          `json:"kind"`
	ID             uuid.UUID       `json:"id"`
	From           string          `json:"from"`
	Status         string          `json:"status"`
	PaymentRequest *PaymentRequest `json:"paymentRequest"`
	PaymentIntent  *PaymentIntent  `json:"paymentIntent"`
	// The scheduled payment or automatic PIX charge, for a move of one.
	ScheduledPayment    *ScheduledPayment    `json:"scheduledPayment"`
	AutomaticPixPayment *AutomaticPixPayment `json:"automaticPixPayment"`
	// The boleto, for a move of one (which has no payment request).
	Boleto *Boleto `json:"boleto"`
	// The smart transfer payment or bulk payment, for a move of one (neither has one
	// payment request of its own: paymentRequest is null).
	SmartTransferPayment *SmartTransferPayment `json:"smartTransferPayment"`
	BulkPayment          *BulkPayment          `json:"bulkPayment"`
}
