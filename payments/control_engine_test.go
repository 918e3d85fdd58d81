package payments_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"ponte/ledger"
	"ponte/model"
	"ponte/payments"
)

var intentStatuses = []string{payments.Started, payments.Enqueued, payments.ConsentAwaitingAuthorization, payments.ConsentAuthorized,
	payments.ConsentRejected, payments.PaymentPending, payments.PaymentPartiallyAccepted, payments.SettlementProcessing,
	payments.SettlementDebtorAccount, payments.PaymentCompleted, payments.PaymentRejected, payments.IntentError, payments.IntentCanceled,
	payments.Revoked, payments.Consumed, payments.PaymentTimeout, payments.IntentRejected}

var requestStatuses = []string{payments.Created, payments.InProgress, payments.WaitingPayerAuthorization, payments.Authorized,
	payments.Scheduled, payments.Completed, payments.RequestError, payments.RefundInProgress, payments.Refunded, payments.RefundError,
	payments.Expired, payments.Canceled}

// intentPaths reach each status an intent holds moves from, by control moves from a fresh
// intent (which CreateIntent leaves at CONSENT_AWAITING_AUTHORIZATION, past STARTED and
// ENQUEUED in the same transaction, so those two are never a control move's start).
var intentPaths = map[string][]string{
	payments.ConsentAwaitingAuthorization: {},
	payments.ConsentAuthorized:            {payments.ConsentAuthorized},
	payments.PaymentPending:               {payments.ConsentAuthorized, payments.PaymentPending},
	payments.PaymentPartiallyAccepted:     {payments.ConsentAuthorized, payments.PaymentPending, payments.PaymentPartiallyAccepted},
	payments.SettlementProcessing:         {payments.ConsentAuthorized, payments.PaymentPending, payments.SettlementProcessing},
	payments.SettlementDebtorAccount:      {payments.ConsentAuthorized, payments.PaymentPending, payments.SettlementProcessing, payments.SettlementDebtorAccount},
}

func (w *world) move(kind string, id uuid.UUID, to string) (*model.SandboxPaymentMove, error) {
	return w.pay.SandboxMove(w.ctx, kind, id, model.SandboxPaymentMoveInput{Status: to})
}

// freshIntent is a sandbox request of amount with an intent moved along path.
func (w *world) freshIntent(amount float64, path []string) (*model.PaymentRequest, *model.PaymentIntent) {
	w.t.Helper()
	p := w.request(amount)
	n := w.intent(p.ID, happyCPF)
	for _, to := range path {
		must(w.move(model.SandboxPaymentIntents, n.ID, to))(w.t)
	}
	return p, n
}

// wantRefused checks a refused move names exactly the allowed next statuses.
func wantRefused(t *testing.T, err error, allowed []string) {
	t.Helper()
	e := wantCode(t, err, model.CodeSandboxMoveNotAllowed)
	for _, s := range allowed {
		if !strings.Contains(e.Message, s) {
			t.Fatalf("refusal %q does not name allowed %s", e.Message, s)
		}
	}
	if len(allowed) == 0 && !strings.Contains(e.Message, "allowed next: none") {
		t.Fatalf("refusal %q does not say nothing is allowed", e.Message)
	}
}

// Every move of the intent table from each status a control move can start at is applied
// to a fresh intent; every other status is refused, naming the allowed ones.
func TestSandboxMoveIntentTable(t *testing.T) {
	w := newWorld(t)
	for from, path := range intentPaths {
		allowed := payments.IntentMovesFrom(from)
		_, held := w.freshIntent(10, path)
		for _, to := range intentStatuses {
			if slices.Contains(allowed, to) {
				p, n := w.freshIntent(10, path)
				mv := must(w.move(model.SandboxPaymentIntents, n.ID, to))(t)
				if mv.From != from || mv.Status != to || mv.PaymentIntent.Status != to {
					t.Fatalf("%s -> %s: move %+v, intent %s", from, to, mv, mv.PaymentIntent.Status)
				}
				if want := payments.RequestFollows(to); mv.PaymentRequest.Status != want {
					t.Fatalf("%s -> %s: request %s, want %s", from, to, mv.PaymentRequest.Status, want)
				}
				if mv.PaymentRequest.ID != p.ID || history(mv.PaymentIntent)[len(history(mv.PaymentIntent))-1] != to {
					t.Fatalf("%s -> %s: history %v", from, to, history(mv.PaymentIntent))
				}
				continue
			}
			_, err := w.move(model.SandboxPaymentIntents, held.ID, to)
			wantRefused(t, err, allowed)
		}
		if n := must(w.pay.Intent(w.ctx, held.ID))(t); n.Status != from {
			t.Fatalf("refused moves changed the intent: %s, want %s", n.Status, from)
		}
	}
	w.env.AuditLedger(t)
}

// A control move to PAYMENT_COMPLETED settles as a real one: the request COMPLETED, the
// payment posted to the recipient's side, the events sent with triggeredBy CLIENT.
func TestSandboxMoveCompletesWithLedgerAndEvents(t *testing.T) {
	w := newWorld(t)
	p, n := w.freshIntent(12.34, intentPaths[payments.SettlementDebtorAccount])
	mv := must(w.move(model.SandboxPaymentIntents, n.ID, payments.PaymentCompleted))(t)
	if mv.PaymentRequest.Status != payments.Completed || mv.PaymentIntent.Status != payments.PaymentCompleted {
		t.Fatalf("completed move: request %s intent %s", mv.PaymentRequest.Status, mv.PaymentIntent.Status)
	}
	w.wantBalance(ledger.Payees, 1234)
	var completed, updated int
	for _, e := range must(w.env.DB.Events(w.ctx, w.client, nil))(t) {
		if e.Payload["paymentRequestId"] != p.ID.String() {
			continue
		}
		switch {
		case e.Event == "payment_intent/completed" && e.Payload["triggeredBy"] == payments.ByClient:
			completed++
		case e.Event == "payment_request/updated" && e.Payload["status"] == payments.Completed && e.Payload["triggeredBy"] == payments.ByClient:
			updated++
		}
	}
	if completed != 1 || updated != 1 {
		t.Fatalf("events: %d payment_intent/completed, %d payment_request/updated COMPLETED by CLIENT; want 1 and 1", completed, updated)
	}
	// A refused move after the end changes nothing and posts nothing twice.
	_, err := w.move(model.SandboxPaymentIntents, n.ID, payments.PaymentCompleted)
	wantRefused(t, err, nil)
	w.wantBalance(ledger.Payees, 1234)
	w.env.AuditLedger(t)
}

// The request's own moves: leaving CREATED, and its refund started and answered either way;
// every other status refused.
func TestSandboxMoveRequestTable(t *testing.T) {
	w := newWorld(t)
	for _, to := range requestStatuses {
		p := w.request(5)
		mv, err := w.move(model.SandboxPaymentRequests, p.ID, to)
		if to == payments.Canceled || to == payments.Expired {
			if err != nil || mv.PaymentRequest.Status != to || mv.PaymentIntent != nil {
				t.Fatalf("CREATED -> %s: %v %+v", to, err, mv)
			}
			continue
		}
		wantRefused(t, err, []string{payments.Canceled, payments.Expired})
	}
	// A paid request: its refund refused, asked again, then paid.
	_, n := w.freshIntent(20, intentPaths[payments.SettlementDebtorAccount])
	p := must(w.move(model.SandboxPaymentIntents, n.ID, payments.PaymentCompleted))(t).PaymentRequest
	steps := []struct {
		to   string
		next []string
	}{
		{payments.RefundInProgress, []string{payments.RefundInProgress}},
		{payments.RefundError, []string{payments.Refunded, payments.RefundError}},
		{payments.RefundInProgress, []string{payments.RefundInProgress}},
		{payments.Refunded, []string{payments.Refunded, payments.RefundError}},
	}
	for _, s := range steps {
		for _, other := range requestStatuses {
			if !slices.Contains(s.next, other) {
				_, err := w.move(model.SandboxPaymentRequests, p.ID, other)
				wantRefused(t, err, s.next)
			}
		}
		mv := must(w.move(model.SandboxPaymentRequests, p.ID, s.to))(t)
		if mv.PaymentRequest.Status != s.to {
			t.Fatalf("request move to %s: %s", s.to, mv.PaymentRequest.Status)
		}
	}
	_, err := w.move(model.SandboxPaymentRequests, p.ID, payments.RefundInProgress)
	wantRefused(t, err, nil)
	// Paid 20.00 and refunded it all: the recipient's side is back where it started.
	w.wantBalance(ledger.Payees, 0)
	w.env.AuditLedger(t)
}

// Another application's resources are not found; a request outside the sandbox is 403;
// an unknown kind or an empty status is bad input.
func TestSandboxMoveRefusals(t *testing.T) {
	w := newWorld(t)
	p, n := w.freshIntent(3, nil)
	other := w.as(w.newClient("other"))
	_, err := w.pay.SandboxMove(other, model.SandboxPaymentIntents, n.ID, model.SandboxPaymentMoveInput{Status: payments.ConsentAuthorized})
	wantCode(t, err, model.CodePaymentIntentNotFound)
	_, err = w.pay.SandboxMove(other, model.SandboxPaymentRequests, p.ID, model.SandboxPaymentMoveInput{Status: payments.Canceled})
	wantCode(t, err, model.CodePaymentRequestNotFound)
	_, err = w.move("refunds", p.ID, payments.Canceled)
	wantCode(t, err, model.CodeInvalidParameter)
	_, err = w.move(model.SandboxBulkPays, p.ID, payments.BulkCompleted)
	wantCode(t, err, model.CodeBulkPaymentNotFound)
	_, err = w.move(model.SandboxSmartPays, p.ID, payments.PaymentRejected)
	wantCode(t, err, model.CodeSmartTransferPaymentNotFound)
	_, err = w.move(model.SandboxPaymentRequests, p.ID, " ")
	wantCode(t, err, model.CodeInvalidParameter)
	real := must(w.pay.CreateRequest(w.ctx, model.PaymentRequestInput{Amount: ptr(4.0), IsSandbox: ptr(false)}))(t)
	_, err = w.move(model.SandboxPaymentRequests, real.ID, payments.Canceled)
	wantCode(t, err, model.CodeSandboxOnly)
	nn := w.intent(real.ID, happyCPF)
	_, err = w.move(model.SandboxPaymentIntents, nn.ID, payments.ConsentAuthorized)
	wantCode(t, err, model.CodeSandboxOnly)
	// The failure a move records is the one given.
	mv := must(w.pay.SandboxMove(w.ctx, model.SandboxPaymentIntents, n.ID, model.SandboxPaymentMoveInput{Status: payments.ConsentRejected,
		ErrorDetail: &model.SandboxPaymentErrorInput{Code: ptr(model.PaymentErrorAccountBlocked), Detail: ptr("BLOQUEADA")}}))(t)
	if d := mv.PaymentIntent.ErrorDetail; d == nil || d.Code != model.PaymentErrorAccountBlocked || d.Detail == nil || *d.Detail != "BLOQUEADA" {
		t.Fatalf("errorDetail %+v", d)
	}
	if mv.PaymentRequest.Status != payments.Created {
		t.Fatalf("request after a rejected consent: %s", mv.PaymentRequest.Status)
	}
}
