package payments

import (
	"context"
	"slices"
	"strings"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

// Sandbox control of payments (POST /sandbox/payments/{kind}/{id}/status): a developer
// moves a sandbox payment request, intent, scheduled payment or automatic PIX charge
// (control_dated.go), boleto (control_boletos.go), smart transfer payment or bulk payment
// (control_transfers.go) to any status its state table allows next,
// through the functions the engine makes its own moves with, so the status, the ledger
// (COMPLETED posts the payment, a refund holds and releases it), the request following its
// intent and the webhooks are those of a real move, triggeredBy CLIENT (the API key's
// action). A controlled resource then waits for the next control move: a move queues no
// settlement step or refund answer of its own (jobs queued earlier by the engine still
// run, and find the status moved).

// SandboxMove moves one of the caller's sandbox payment resources to status.
func (e *Engine) SandboxMove(ctx context.Context, kind string, id uuid.UUID, in model.SandboxPaymentMoveInput) (*model.SandboxPaymentMove, error) {
	pr, err := auth.Require(ctx, auth.ControlSandbox)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(model.SandboxPaymentKinds, kind) {
		return nil, bad("kind %q is not one a sandbox move reaches: %s.", kind, strings.Join(model.SandboxPaymentKinds, ", "))
	}
	to := strings.TrimSpace(in.Status)
	if to == "" {
		return nil, bad("status is required: the status to move the %s to.", strings.TrimSuffix(kind, "s"))
	}
	mv := &model.SandboxPaymentMove{Kind: kind, ID: id, Status: to}
	var requestID, intentID, scheduledID, chargeID uuid.UUID
	err = e.db.InTx(asControl(ctx), func(ctx context.Context, tx *db.Tx) error {
		switch kind {
		case model.SandboxScheduledPays:
			p, s, err := e.lockScheduled(ctx, tx, pr.ClientID, id)
			if err != nil {
				return err
			}
			requestID, scheduledID, mv.From = p.ID, s.ID, s.Status
			return e.controlScheduled(ctx, tx, p, s, to, in.ErrorDetail)
		case model.SandboxAutoPixPays:
			p, a, err := e.lockChargeByID(ctx, tx, pr.ClientID, id)
			if err != nil {
				return err
			}
			requestID, chargeID, mv.From = p.ID, a.ID, a.Status
			return e.controlCharge(ctx, tx, p, a, to, in.ErrorDetail)
		case model.SandboxBoletos:
			b, err := e.lockSandboxBoleto(ctx, tx, pr.ClientID, id)
			if err != nil {
				return err
			}
			mv.From = b.Status
			if err := e.controlBoleto(ctx, tx, b, to); err != nil {
				return err
			}
			mv.Boleto = &b.Boleto
			return nil
		case model.SandboxSmartPays:
			mv.From, err = e.controlSmartTransfer(ctx, tx, pr.ClientID, id, to, in.ErrorDetail)
			return err
		case model.SandboxBulkPays:
			mv.From, mv.Status, err = e.controlBulk(ctx, tx, pr.ClientID, id, to, in.ErrorDetail)
			return err
		case model.SandboxPaymentIntents:
			p, n, err := e.lockIntent(ctx, tx, pr.ClientID, id)
			if err != nil {
				return err
			}
			requestID, intentID, mv.From = p.ID, n.ID, n.Status
			// A request on a test clock moves in the clock's time, as the payer's own
			// consent does: its schedule's dates are checked against the clock's day.
			if ctx, err = e.onClock(ctx, tx, p); err != nil {
				return err
			}
			return e.controlIntent(ctx, tx, p, n, to, in.ErrorDetail)
		}
		p, err := e.lockRequest(ctx, tx, pr.ClientID, id)
		if err != nil {
			return err
		}
		requestID, mv.From = p.ID, p.Status
		if ctx, err = e.onClock(ctx, tx, p); err != nil {
			return err
		}
		return e.controlRequest(ctx, tx, p, to, in.ErrorDetail)
	})
	if err != nil {
		return nil, err
	}
	switch kind {
	case model.SandboxSmartPays:
		if mv.SmartTransferPayment, err = e.SmartTransferPayment(ctx, id); err != nil {
			return nil, err
		}
	case model.SandboxBulkPays:
		if mv.BulkPayment, err = e.bulkPayment(ctx, pr.ClientID, id); err != nil {
			return nil, err
		}
	}
	if requestID == uuid.Nil {
		return mv, nil // a boleto's, smart transfer payment's or bulk payment's move: no one payment request
	}
	if mv.PaymentRequest, err = e.Request(ctx, requestID); err != nil {
		return nil, err
	}
	if intentID != uuid.Nil {
		if mv.PaymentIntent, err = e.intent(ctx, pr.ClientID, intentID); err != nil {
			return nil, err
		}
	}
	if scheduledID != uuid.Nil {
		if mv.ScheduledPayment, err = e.Schedule(ctx, requestID, scheduledID); err != nil {
			return nil, err
		}
	}
	if chargeID != uuid.Nil {
		if mv.AutomaticPixPayment, err = e.AutomaticPixPayment(ctx, requestID, chargeID); err != nil {
			return nil, err
		}
	}
	return mv, nil
}

func sandboxOnly(p *db.PaymentRequestRow) error {
	if p.IsSandbox {
		return nil
	}
	return model.Fail(model.CodeSandboxOnly, "Payment request %s is not a sandbox one (isSandbox false): control moves reach sandbox payments only.", p.ID)
}

// notAllowed names the statuses a move may reach from where the resource is.
func notAllowed(what string, id uuid.UUID, from, to string, next []string, why string) error {
	list := "none"
	if len(next) > 0 {
		list = strings.Join(next, ", ")
	}
	if next == nil {
		next = []string{}
	}
	return model.Fail(model.CodeSandboxMoveNotAllowed, "%s %s is %s and cannot move to %s; allowed next: %s.%s", what, id, from, to, list, why).
		WithData(map[string]any{"status": from, "allowed": next})
}

// IntentControlMoves is what a control move may take an intent to: the moves of its
// table whose status its request can follow (a dated or recurring request's authorization
// ends by its own rule: authorizationEnds).
func IntentControlMoves(status string, p *db.PaymentRequestRow) []string {
	var next []string
	for _, to := range intentMoves[status] {
		f := requestFollows(to, kindOf(p))
		if f == p.Status || allowed(requestMoves, p.Status, f) {
			next = append(next, to)
		}
	}
	return next
}

func (e *Engine) controlIntent(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow, n *db.PaymentIntentRow, to string, d *model.SandboxPaymentErrorInput) error {
	if err := sandboxOnly(p); err != nil {
		return err
	}
	next := IntentControlMoves(n.Status, p)
	if n.Status == ConsentAuthorized && kindOf(p) != single {
		ends, err := e.authorizationEnds(ctx, tx, p)
		if err != nil {
			return err
		}
		next = append(next, ends...)
	}
	if !slices.Contains(next, to) {
		return notAllowed("Payment intent", n.ID, n.Status, to, next, "")
	}
	switch to {
	case Revoked, Consumed:
		if kindOf(p) != single {
			return e.endByControl(ctx, tx, p, n, to)
		}
	case ConsentRejected, PaymentRejected, IntentRejected, IntentError, PaymentTimeout, IntentCanceled:
		n.ErrorDetail = errorDetail(d, to)
		if n.Status == ConsentAuthorized && kindOf(p) != single {
			if err := e.failAuthorization(ctx, tx, p); err != nil {
				return err
			}
		}
	case ConsentAuthorized:
		n.Payer.Signatures++
	case SettlementProcessing:
		if n.Status == PaymentPartiallyAccepted {
			n.Payer.Signatures++
		}
	case PaymentCompleted:
		if refused, err := e.ownBoletoSettles(ctx, tx, p); err != nil {
			return err
		} else if refused != nil {
			return notAllowed("Payment intent", n.ID, n.Status, to, nil, " The boleto it pays cannot settle: "+refused.Description)
		}
		debtor, err := e.cfg.Institution.Debtor(ctx, attempt(p, n))
		if err != nil {
			return err
		}
		n.Debtor = debtor
	}
	if err := e.advance(ctx, tx, p, n, to, ByClient); err != nil {
		return err
	}
	if to == ConsentAuthorized && p.Schedule != nil {
		return e.createScheduled(ctx, tx, p, n)
	}
	if to == ConsentAuthorized && p.AutomaticPix != nil {
		return e.startAutomaticPix(ctx, tx, p, n)
	}
	return nil
}

// errorDetail is the errorDetail of a control move to a failure: the one given, its
// missing parts as the engine's own failures fill them.
func errorDetail(in *model.SandboxPaymentErrorInput, status string) *model.PaymentErrorDetail {
	d := &model.PaymentErrorDetail{Code: status, Description: "The payment did not complete (sandbox control move to " + status + ")."}
	switch status {
	case ConsentRejected:
		d.Code = model.PaymentErrorRejectedByUser
	case PaymentRejected:
		d.Code = model.PaymentErrorSettlementFailed
	case RefundError:
		d.Code, d.Description = model.PaymentErrorRefundRejected, "The institution refused the refund (sandbox control move)."
	case IntentCanceled:
		d.Code = model.PaymentErrorCanceled
	}
	if in == nil {
		return d
	}
	if in.Code != nil && strings.TrimSpace(*in.Code) != "" {
		d.Code = strings.TrimSpace(*in.Code)
	}
	if in.Description != nil && strings.TrimSpace(*in.Description) != "" {
		d.Description = *in.Description
	}
	d.Detail = emptyAsNil(in.Detail)
	return d
}

// RequestControlMoves is what a control move may take a request to by itself: leaving
// CREATED (canceled, expired) and its refunds. Its other moves follow its intent.
func RequestControlMoves(p *db.PaymentRequestRow) []string {
	remaining := cents(p.Amount) - cents(p.RefundedAmount)
	switch p.Status {
	case Created:
		return []string{Canceled, Expired}
	case Completed, RefundError:
		if remaining > 0 {
			return []string{RefundInProgress}
		}
	case RefundInProgress:
		if p.RefundPending == nil {
			return nil
		}
		if cents(*p.RefundPending) >= remaining {
			return []string{Refunded, RefundError}
		}
		return []string{Completed, RefundError}
	}
	return nil
}

func (e *Engine) controlRequest(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow, to string, d *model.SandboxPaymentErrorInput) error {
	if err := sandboxOnly(p); err != nil {
		return err
	}
	next := RequestControlMoves(p)
	if !slices.Contains(next, to) {
		why := ""
		if len(requestMoves[p.Status]) > 0 && (p.Status != Created && p.Status != Completed && p.Status != RefundError && p.Status != RefundInProgress) {
			why = " Its status follows its payment intent: move the intent (POST /sandbox/payments/payment-intents/{id}/status)."
		}
		if p.Status == Created && to == InProgress {
			why = " A payment intent takes it there: create one (POST /payments/intents)."
		}
		return notAllowed("Payment request", p.ID, p.Status, to, next, why)
	}
	switch to {
	case Canceled:
		if err := e.notInOpenBulk(ctx, tx, p, "canceled"); err != nil {
			return err
		}
		return e.setRequestStatus(ctx, tx, p, Canceled, ByClient)
	case Expired:
		return e.setRequestStatus(ctx, tx, p, Expired, ByClient)
	case RefundInProgress:
		return e.startRefund(ctx, tx, p, cents(p.Amount)-cents(p.RefundedAmount), ByClient, false)
	case RefundError:
		return e.answerRefund(ctx, tx, p, errorDetail(d, RefundError), ByClient)
	}
	return e.answerRefund(ctx, tx, p, nil, ByClient)
}
