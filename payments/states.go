package payments

import (
	"ponte/model"
)

// Intent statuses (section 3).
const (
	Started                      = "STARTED"
	Enqueued                     = "ENQUEUED"
	ConsentAwaitingAuthorization = "CONSENT_AWAITING_AUTHORIZATION"
	ConsentAuthorized            = "CONSENT_AUTHORIZED"
	ConsentRejected              = "CONSENT_REJECTED"
	PaymentPending               = "PAYMENT_PENDING"
	PaymentPartiallyAccepted     = "PAYMENT_PARTIALLY_ACCEPTED"
	SettlementProcessing         = "PAYMENT_SETTLEMENT_PROCESSING"
	SettlementDebtorAccount      = "PAYMENT_SETTLEMENT_DEBTOR_ACCOUNT"
	PaymentCompleted             = "PAYMENT_COMPLETED"
	PaymentRejected              = "PAYMENT_REJECTED"
	IntentError                  = "ERROR"
	IntentCanceled               = "CANCELED"
	Revoked                      = "REVOKED"
	Consumed                     = "CONSUMED"
	PaymentTimeout               = "PAYMENT_TIMEOUT"
	IntentRejected               = "REJECTED"
)

// Request statuses (section 3).
const (
	Created                   = "CREATED"
	InProgress                = "IN_PROGRESS"
	WaitingPayerAuthorization = "WAITING_PAYER_AUTHORIZATION"
	Authorized                = "AUTHORIZED"
	Scheduled                 = "SCHEDULED"
	Completed                 = "COMPLETED"
	RequestError              = "ERROR"
	RefundInProgress          = "REFUND_IN_PROGRESS"
	Refunded                  = "REFUNDED"
	RefundError               = "REFUND_ERROR"
	Expired                   = "EXPIRED"
	Canceled                  = "CANCELED"
)

// intentMoves is every move an intent may make. Anything else is refused.
var intentMoves = map[string][]string{
	Started:                      {Enqueued, IntentError, IntentCanceled},
	Enqueued:                     {ConsentAwaitingAuthorization, IntentRejected, IntentError, IntentCanceled},
	ConsentAwaitingAuthorization: {ConsentAuthorized, ConsentRejected, PaymentTimeout, IntentError, IntentCanceled},
	ConsentAuthorized:            {PaymentPending, Revoked, Consumed, IntentError},
	PaymentPending:               {PaymentPartiallyAccepted, SettlementProcessing, PaymentRejected, IntentError},
	PaymentPartiallyAccepted:     {SettlementProcessing, PaymentRejected, PaymentTimeout, IntentError},
	SettlementProcessing:         {SettlementDebtorAccount, PaymentRejected, IntentError},
	SettlementDebtorAccount:      {PaymentCompleted, PaymentRejected, IntentError},
}

// requestMoves is every move a request may make.
var requestMoves = map[string][]string{
	Created:                   {InProgress, Canceled, Expired},
	InProgress:                {WaitingPayerAuthorization, Scheduled, Completed, RequestError, Created, Canceled},
	WaitingPayerAuthorization: {InProgress, Authorized, Scheduled, RequestError, Created, Canceled},
	Authorized:                {Completed, RequestError, Canceled},
	Scheduled:                 {Completed, RequestError, Canceled},
	Completed:                 {RefundInProgress},
	RefundInProgress:          {Refunded, RefundError, Completed}, // Completed: a partial refund went through
	RefundError:               {RefundInProgress},
}

// requestKind tells apart what a consent authorizes: one payment now, dated payments, or
// recurring charges (automatic PIX).
type requestKind int

const (
	single requestKind = iota
	dated
	recurring
)

// requestFollows is the request's status while its intent is in a given status. Failures
// before any money moved (consent refused, time-out, canceled attempt) give the request
// back to its payer; a payment the institution rejected ends it in ERROR.
func requestFollows(intentStatus string, kind requestKind) string {
	switch intentStatus {
	case Started, Enqueued, ConsentAuthorized, PaymentPending, SettlementProcessing, SettlementDebtorAccount:
		if intentStatus == ConsentAuthorized && kind == dated {
			return Scheduled
		}
		if intentStatus == ConsentAuthorized && kind == recurring {
			return Authorized
		}
		return InProgress
	case ConsentAwaitingAuthorization, PaymentPartiallyAccepted:
		return WaitingPayerAuthorization
	case PaymentCompleted:
		return Completed
	case PaymentRejected, IntentError:
		return RequestError
	default: // CONSENT_REJECTED, PAYMENT_TIMEOUT, CANCELED
		return Created
	}
}

// intentEnded reports whether an intent no longer holds its request.
func intentEnded(status string) bool {
	_, moves := intentMoves[status]
	return !moves
}

func allowed(table map[string][]string, from, to string) bool {
	for _, s := range table[from] {
		if s == to {
			return true
		}
	}
	return false
}

func checkIntentMove(from, to string) error {
	if from == to || allowed(intentMoves, from, to) {
		return nil
	}
	return model.Fail(model.CodeInvalidIntentTransition, "A payment intent in status %s cannot move to %s.", from, to)
}

func checkRequestMove(from, to string) error {
	if from == to || allowed(requestMoves, from, to) {
		return nil
	}
	return model.Fail(model.CodeInvalidRequestTransition, "A payment request in status %s cannot move to %s.", from, to)
}

// AwaitingPayer reports whether an intent waits for the payer's decision on the consent
// page, and whether it is the second signer's (multi-signature accounts).
func AwaitingPayer(status string) (waiting, secondSigner bool) {
	switch status {
	case ConsentAwaitingAuthorization:
		return true, false
	case PaymentPartiallyAccepted:
		return true, true
	}
	return false, false
}

// Payable reports whether a payer can start paying a request now.
func Payable(status string) bool { return status == Created }
