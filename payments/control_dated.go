package payments

import (
	"context"
	"slices"
	"strings"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/model"
)

// Sandbox control of what a consent authorizes beyond one payment: a scheduled payment or
// an automatic PIX charge runs now, fails or is canceled, and a dated or recurring
// authorization ends (REVOKED, CONSUMED), through the functions the engine's jobs and the
// application's cancellations use, so events, the ledger and the request's end are theirs.

// datedMoves is every move a scheduled payment or an automatic PIX charge makes by itself
// (a failed charge is scheduled again by the application's retry, which names a date).
var datedMoves = map[string][]string{SchedScheduled: {SchedCompleted, SchedError, SchedCanceled}}

// DatedMovesFrom is the table's row for status (the same for both kinds).
func DatedMovesFrom(status string) []string { return slices.Clone(datedMoves[status]) }

// datedError is the errorDetail of a dated payment's control failure: the one given, a
// settlement failure by default, as a refused run records it.
func datedError(in *model.SandboxPaymentErrorInput) *model.PaymentErrorDetail {
	d := errorDetail(in, SchedError)
	if in == nil || in.Code == nil || strings.TrimSpace(*in.Code) == "" {
		d.Code = model.PaymentErrorSettlementFailed
	}
	return d
}

// lockScheduled reads one of the client's scheduled payments and its request, the request
// locked first as the scheduled payment's job locks them.
func (e *Engine) lockScheduled(ctx context.Context, tx *db.Tx, clientID, id uuid.UUID) (*db.PaymentRequestRow, *db.ScheduledPaymentRow, error) {
	s, found, err := tx.ScheduledPayment(ctx, id, false)
	if err != nil {
		return nil, nil, err
	}
	if !found || s.ClientID != clientID {
		return nil, nil, model.Fail(model.CodeScheduledPaymentNotFound, "Scheduled payment %s not found.", id)
	}
	p, err := e.lockRequest(ctx, tx, clientID, s.RequestID)
	if err != nil {
		return nil, nil, err
	}
	s, _, err = tx.ScheduledPayment(ctx, id, true)
	return p, s, err
}

func (e *Engine) controlScheduled(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow, s *db.ScheduledPaymentRow, to string, d *model.SandboxPaymentErrorInput) error {
	if err := sandboxOnly(p); err != nil {
		return err
	}
	next := datedMoves[s.Status]
	if p.Status != Scheduled {
		next = nil // its request ended otherwise: nothing runs
	}
	if !slices.Contains(next, to) {
		return notAllowed("Scheduled payment", s.ID, s.Status, to, next, "")
	}
	ctx, err := e.onClock(ctx, tx, p)
	if err != nil {
		return err
	}
	n, _, err := tx.ActivePaymentIntent(ctx, p.ID)
	if err != nil {
		return err
	}
	s.Status = to
	switch to {
	case SchedCompleted:
		if refused, err := e.ownBoletoSettles(ctx, tx, p); err != nil {
			return err
		} else if refused != nil {
			return notAllowed("Scheduled payment", s.ID, SchedScheduled, to, nil, " The boleto it pays cannot settle: "+refused.Description)
		}
		return e.finishScheduled(ctx, tx, p, n, s, "scheduled_payment/completed", ByClient)
	case SchedError:
		s.ErrorDetail = datedError(d)
		return e.finishScheduled(ctx, tx, p, n, s, "scheduled_payment/error", ByClient)
	}
	s.UpdatedAt = e.now(ctx)
	if err := tx.SaveScheduledPayment(ctx, s); err != nil {
		return err
	}
	if err := e.emit(ctx, tx, p, "scheduled_payment/canceled", ByClient, scheduledPayload(s)); err != nil {
		return err
	}
	return e.settleSchedule(ctx, tx, p, n, ByClient)
}

// lockChargeByID reads one of the client's automatic PIX charges and its request, both
// locked, request first.
func (e *Engine) lockChargeByID(ctx context.Context, tx *db.Tx, clientID, id uuid.UUID) (*db.PaymentRequestRow, *db.AutomaticPixPaymentRow, error) {
	a, found, err := tx.AutomaticPixPayment(ctx, id, false)
	if err != nil {
		return nil, nil, err
	}
	if !found || a.ClientID != clientID {
		return nil, nil, model.Fail(model.CodeAutomaticPixPaymentNotFound, "Automatic PIX payment %s not found.", id)
	}
	return e.lockCharge(ctx, tx, clientID, a.RequestID, id)
}

func (e *Engine) controlCharge(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow, a *db.AutomaticPixPaymentRow, to string, d *model.SandboxPaymentErrorInput) error {
	if err := sandboxOnly(p); err != nil {
		return err
	}
	next := datedMoves[a.Status]
	if p.Status != Authorized {
		next = nil // its authorization is no longer in force: nothing runs
	}
	if !slices.Contains(next, to) {
		why := ""
		if a.Status == AutoError && p.Status == Authorized {
			why = " A failed charge is scheduled again by its retry (POST /payments/requests/{id}/automatic-pix/schedules/{scheduleId}/retry)."
		}
		return notAllowed("Automatic PIX payment", a.ID, a.Status, to, next, why)
	}
	ctx, err := e.onClock(ctx, tx, p)
	if err != nil {
		return err
	}
	switch to {
	case AutoCanceled:
		return e.cancelCharge(ctx, tx, p, a, ByClient)
	case AutoError:
		return e.runCharge(ctx, tx, p, nil, a, datedError(d), ByClient)
	}
	n, _, err := tx.ActivePaymentIntent(ctx, p.ID)
	if err != nil {
		return err
	}
	return e.runCharge(ctx, tx, p, n, a, nil, ByClient)
}

// authorizationEnds is how a control move may end a dated or recurring authorization in
// force: REVOKED while nothing ran (a recurring one at any time), CONSUMED once something
// did (for a dated one: paid or failed; for a recurring one: paid).
func (e *Engine) authorizationEnds(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow) ([]string, error) {
	if p.AutomaticPix != nil {
		paid, err := tx.CompletedAutomaticPixPayments(ctx, p.ID)
		if err != nil || paid == 0 {
			return []string{Revoked}, err
		}
		return []string{Revoked, Consumed}, nil
	}
	list, err := tx.ScheduledPayments(ctx, p.ID, false)
	if err != nil {
		return nil, err
	}
	for _, s := range list {
		if s.Status == SchedCompleted || s.Status == SchedError {
			return []string{Consumed}, nil
		}
	}
	return []string{Revoked}, nil
}

// endByControl ends a dated or recurring authorization as the application's cancellation
// does: what is still scheduled is canceled, then the schedule settles (a dated request)
// or the authorization ends as asked (a recurring one).
func (e *Engine) endByControl(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow, n *db.PaymentIntentRow, to string) error {
	if p.AutomaticPix != nil {
		return e.endAuthorization(ctx, tx, p, n, to, ByClient)
	}
	if err := e.cancelStillScheduled(ctx, tx, p); err != nil {
		return err
	}
	return e.settleSchedule(ctx, tx, p, n, ByClient)
}

// cancelStillScheduled cancels a dated request's payments not yet run, each with its
// scheduled_payment/canceled, as the application's cancellation does.
func (e *Engine) cancelStillScheduled(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow) error {
	list, err := tx.ScheduledPayments(ctx, p.ID, true)
	if err != nil {
		return err
	}
	for _, s := range list {
		if s.Status != SchedScheduled {
			continue
		}
		s.Status, s.UpdatedAt = SchedCanceled, e.now(ctx)
		if err := tx.SaveScheduledPayment(ctx, s); err != nil {
			return err
		}
		if err := e.emit(ctx, tx, p, "scheduled_payment/canceled", ByClient, scheduledPayload(s)); err != nil {
			return err
		}
	}
	return nil
}

// failAuthorization is a dated or recurring authorization in force failing (a control move
// of its intent to ERROR): nothing it scheduled may run any more, so what is still
// scheduled is canceled with its event before the intent fails, as when the engine's own
// consent fails before its schedule exists: the intent ERROR (payment_intent/error) and
// the request following it to ERROR. Left scheduled, a payment's job would later pay
// under a failed consent and find its request already ended.
func (e *Engine) failAuthorization(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow) error {
	if p.AutomaticPix == nil {
		return e.cancelStillScheduled(ctx, tx, p)
	}
	pending, err := tx.ScheduledAutomaticPixPayments(ctx, p.ID)
	if err != nil {
		return err
	}
	for _, a := range pending {
		if err := e.cancelCharge(ctx, tx, p, a, ByClient); err != nil {
			return err
		}
	}
	return nil
}

// endAuthorization ends an automatic PIX authorization: its scheduled charges canceled, the
// consent REVOKED (the request CANCELED) or CONSUMED (the request COMPLETED).
func (e *Engine) endAuthorization(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow, n *db.PaymentIntentRow, end, by string) error {
	pending, err := tx.ScheduledAutomaticPixPayments(ctx, p.ID)
	if err != nil {
		return err
	}
	for _, a := range pending {
		if err := e.cancelCharge(ctx, tx, p, a, by); err != nil {
			return err
		}
	}
	if n != nil {
		if err := e.moveIntent(ctx, tx, n, end); err != nil {
			return err
		}
	}
	to := Canceled
	if end == Consumed {
		to = Completed
	}
	return e.setRequestStatus(ctx, tx, p, to, by)
}
