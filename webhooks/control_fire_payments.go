package webhooks

import (
	"context"
	"strings"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/model"
)

// Payment events on demand: about a sandbox payment request (isSandbox true) and, where
// the event is about one, its intent, scheduled payment or automatic PIX charge, in the
// shapes payments/ emits them.

// paymentEvent builds a payment_request/*, payment_intent/*, scheduled_payment/* or
// automatic_pix_payment/* event.
func (e *Engine) paymentEvent(ctx context.Context, clientID uuid.UUID, in model.SandboxEventInput) (*db.Event, error) {
	p, found, err := e.db.PaymentRequest(ctx, clientID, *in.PaymentRequestID, false)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodePaymentRequestNotFound, "Payment request %s not found.", *in.PaymentRequestID)
	}
	if !p.IsSandbox {
		return nil, model.Fail(model.CodeSandboxOnly, "Payment request %s is not a sandbox one (isSandbox false): events are fired on demand for sandbox resources only.", p.ID)
	}
	payload := map[string]any{"paymentRequestId": p.ID.String()}
	ev := &db.Event{ID: uuid.New(), Event: in.Event, TargetURL: p.WebhookURL, Payload: payload}
	family, _, _ := strings.Cut(in.Event, "/")
	switch family {
	case "payment_request":
		payload["clientId"], payload["status"] = p.ClientID.String(), p.Status
	case "payment_intent":
		n, err := e.intentOf(ctx, clientID, p, in.PaymentIntentID)
		if err != nil {
			return nil, err
		}
		payload["paymentIntentId"] = n.ID.String()
		switch in.Event {
		case "payment_intent/completed":
			payload["referenceId"] = n.ReferenceID
		case "payment_intent/error":
			payload["referenceId"] = n.ReferenceID
			payload["error"] = errorDetail(n.ErrorDetail, in)
		}
	case "scheduled_payment":
		if err := e.scheduledPayload(ctx, clientID, p, in, payload); err != nil {
			return nil, err
		}
	case "automatic_pix_payment":
		a, err := e.chargeOf(ctx, p, in.AutomaticPixPaymentID)
		if err != nil {
			return nil, err
		}
		payload["automaticPixPaymentId"] = a.ID.String()
		payload["amount"], payload["date"], payload["status"] = a.Amount, a.Date.Format("2006-01-02"), a.Status
		if a.EndToEndID != nil {
			payload["endToEndId"] = *a.EndToEndID
		}
		if in.Event == "automatic_pix_payment/error" {
			payload["error"] = errorDetail(a.ErrorDetail, in)
		}
	}
	if family == "scheduled_payment" || family == "automatic_pix_payment" {
		// The interface does not show these events' whole payload, so a field more is
		// within it: the receiver can tell a fired event from a change by its body too.
		payload["sandboxControl"] = true
	}
	return ev, nil
}

// intentOf is the intent named, which must be the request's, or the request's latest.
func (e *Engine) intentOf(ctx context.Context, clientID uuid.UUID, p *db.PaymentRequestRow, id *uuid.UUID) (*db.PaymentIntentRow, error) {
	if id != nil {
		n, found, err := e.db.PaymentIntent(ctx, clientID, *id, false)
		if err != nil {
			return nil, err
		}
		if !found || n.RequestID != p.ID {
			return nil, model.Fail(model.CodePaymentIntentNotFound, "Payment intent %s not found on payment request %s.", *id, p.ID)
		}
		return n, nil
	}
	list, err := e.db.PaymentIntentsOfRequests(ctx, clientID, []uuid.UUID{p.ID})
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, model.Fail(model.CodeInvalidParameter, "Payment request %s has no payment intent yet: start one (POST /payments/intents) first.", p.ID)
	}
	return list[0], nil // newest first
}

// scheduledPayload fills a scheduled_payment/* event: one scheduled payment, or the
// counts of all of them.
func (e *Engine) scheduledPayload(ctx context.Context, clientID uuid.UUID, p *db.PaymentRequestRow, in model.SandboxEventInput, payload map[string]any) error {
	list, err := e.db.ScheduledPayments(ctx, p.ID, false)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		return model.Fail(model.CodeInvalidParameter, "Payment request %s has no scheduled payments: it has no schedule, or nobody authorized it yet.", p.ID)
	}
	switch in.Event {
	case "scheduled_payment/all_created":
		payload["scheduledPaymentsCount"] = len(list)
		if n, err := e.intentOf(ctx, clientID, p, in.PaymentIntentID); err == nil {
			payload["paymentIntentId"] = n.ID.String()
		} else if in.PaymentIntentID != nil {
			return err
		}
		return nil
	case "scheduled_payment/all_completed":
		counts := map[string]int{}
		for _, s := range list {
			counts[s.Status]++
		}
		payload["completed"], payload["failed"], payload["canceled"] = counts["COMPLETED"], counts["ERROR"], counts["CANCELED"]
		return nil
	}
	s := list[0]
	if in.ScheduledPaymentID != nil {
		s = nil
		for _, c := range list {
			if c.ID == *in.ScheduledPaymentID {
				s = c
			}
		}
		if s == nil {
			return model.Fail(model.CodeScheduledPaymentNotFound, "Scheduled payment %s not found on payment request %s.", *in.ScheduledPaymentID, p.ID)
		}
	}
	payload["scheduledPaymentId"] = s.ID.String()
	payload["scheduledDate"] = s.ScheduledDate.Format("2006-01-02")
	payload["status"] = s.Status
	if in.Event == "scheduled_payment/error" {
		payload["error"] = errorDetail(s.ErrorDetail, in)
	}
	return nil
}

// chargeOf is the automatic PIX charge named, which must be the request's, or its first.
func (e *Engine) chargeOf(ctx context.Context, p *db.PaymentRequestRow, id *uuid.UUID) (*db.AutomaticPixPaymentRow, error) {
	if id != nil {
		a, found, err := e.db.AutomaticPixPayment(ctx, *id, false)
		if err != nil {
			return nil, err
		}
		if !found || a.RequestID != p.ID {
			return nil, model.Fail(model.CodeAutomaticPixPaymentNotFound, "Automatic PIX payment %s not found on payment request %s.", *id, p.ID)
		}
		return a, nil
	}
	list, _, err := e.db.AutomaticPixPayments(ctx, p.ID, 1, 0)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, model.Fail(model.CodeInvalidParameter, "Payment request %s has no automatic PIX payments: it is not an automatic PIX request, or none is scheduled yet.", p.ID)
	}
	return list[0], nil
}
