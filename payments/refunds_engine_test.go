package payments_test

import (
	"slices"
	"testing"

	"github.com/google/uuid"

	"ponte/ledger"
	"ponte/model"
	"ponte/payments"
)

// refundStatuses lists the statuses payment_request/updated announced for a request after
// it completed.
func (w *world) refundStatuses(id uuid.UUID) []any {
	w.t.Helper()
	var out []any
	completed := false
	for _, e := range w.events(w.client, "payment_request/updated") {
		if e.Payload["paymentRequestId"] != id.String() {
			continue
		}
		if completed {
			out = append(out, e.Payload["status"])
		}
		completed = completed || e.Payload["status"] == payments.Completed
	}
	return out
}

// A completed request is refunded in parts, as long as something remains: a partial
// refund leaves it COMPLETED with what was given back, the last one REFUNDED; each moves
// the money back from the payees to the payers, once, and asking more than remains is
// refused.
func TestRefundGivesBackWhatRemainsInParts(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	p := w.paid(100)

	r := must(w.pay.RefundRequest(w.ctx, p.ID, ptr(30.0)))(t)
	if r.Status != payments.RefundInProgress {
		t.Fatalf("refund asked: %s", r.Status)
	}
	w.awaitRefunded(p.ID, payments.Completed, 30)
	w.wantBalance(ledger.Payees, 7000)
	w.wantBalance(ledger.Payers, -7000)
	w.wantBalance(ledger.Refunds, 0)

	_, err := w.pay.RefundRequest(w.ctx, p.ID, ptr(70.01))
	wantCode(t, err, model.CodeInvalidParameter)
	_, err = w.pay.RefundRequest(w.ctx, p.ID, ptr(0.001))
	wantCode(t, err, model.CodeInvalidParameter)

	must(w.pay.RefundRequest(w.ctx, p.ID, nil))(t)
	w.awaitRefunded(p.ID, payments.Refunded, 100)
	w.wantBalance(ledger.Payees, 0)
	w.wantBalance(ledger.Payers, 0)
	_, err = w.pay.RefundRequest(w.ctx, p.ID, nil)
	wantCode(t, err, model.CodePaymentRequestNotRefundable)

	want := []any{payments.RefundInProgress, payments.Completed, payments.RefundInProgress, payments.Refunded}
	if got := w.refundStatuses(p.ID); !slices.Equal(got, want) {
		t.Fatalf("statuses announced after completion: %v, want %v", got, want)
	}
	w.env.AuditLedger(t)
}

// The institution refuses a refund (sandbox: cents ,99): the request is REFUND_ERROR with
// the reason, the held money goes back to the payee, and a new refund may be asked.
func TestRefusedRefundReturnsTheMoneyAndMayBeAskedAgain(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	p := w.paid(50)
	must(w.pay.RefundRequest(w.ctx, p.ID, ptr(10.99)))(t)
	got := w.awaitRequest(p.ID, payments.RefundError)
	if got.ErrorDetail == nil || got.ErrorDetail.Code != "REFUND_REJECTED" || got.RefundedAmount != 0 {
		t.Fatalf("refused refund: %+v, refunded %v", got.ErrorDetail, got.RefundedAmount)
	}
	w.wantBalance(ledger.Payees, 5000)
	w.wantBalance(ledger.Refunds, 0)

	must(w.pay.RefundRequest(w.ctx, p.ID, ptr(10.0)))(t)
	w.awaitRefunded(p.ID, payments.Completed, 10)
	w.wantBalance(ledger.Payees, 4000)
	w.env.AuditLedger(t)
}

// Only a COMPLETED request (or one whose refund failed) is refunded; another
// application's request is not found.
func TestRefundNeedsACompletedRequest(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	created := w.request(10)
	_, err := w.pay.RefundRequest(w.ctx, created.ID, nil)
	wantCode(t, err, model.CodePaymentRequestNotRefundable)
	waiting := w.request(11)
	w.intent(waiting.ID, happyCPF)
	_, err = w.pay.RefundRequest(w.ctx, waiting.ID, nil)
	wantCode(t, err, model.CodePaymentRequestNotRefundable)
	paid := w.paid(12)
	_, err = w.pay.RefundRequest(w.as(w.newClient("stranger")), paid.ID, nil)
	wantCode(t, err, model.CodePaymentRequestNotFound)
	_, err = w.pay.RefundRequest(w.ctx, uuid.New(), nil)
	wantCode(t, err, model.CodePaymentRequestNotFound)
	if got := must(w.pay.Request(w.ctx, paid.ID))(t); got.Status != payments.Completed || got.RefundedAmount != 0 {
		t.Fatalf("after refused refunds: %s %v", got.Status, got.RefundedAmount)
	}
	w.wantBalance(ledger.Refunds, 0)
}

// awaitRefunded waits for a request to reach status, and checks what it has given back.
func (w *world) awaitRefunded(id uuid.UUID, status string, refunded float64) {
	w.t.Helper()
	got := w.awaitRequest(id, status)
	if got.RefundedAmount != refunded {
		w.t.Fatalf("request %s is %s with %v refunded, want %v", id, status, got.RefundedAmount, refunded)
	}
}
