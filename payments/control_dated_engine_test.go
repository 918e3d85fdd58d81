package payments_test

import (
	"slices"
	"testing"

	"github.com/google/uuid"

	"ponte/ledger"
	"ponte/model"
	"ponte/payments"
)

// datedStatuses is every status a scheduled payment or a charge has, and one it never has.
var datedStatuses = []string{payments.SchedScheduled, payments.SchedCompleted, payments.SchedError, payments.SchedCanceled, payments.Refunded}

// datedAuthorized is a sandbox dated request of amount (three daily dates from two days on)
// authorized by a control move, with its scheduled payments.
func (w *world) datedAuthorized(amount float64) (*model.PaymentRequest, *model.PaymentIntent, []*model.ScheduledPayment) {
	w.t.Helper()
	p := w.dated(amount, &model.PaymentSchedule{Type: "DAILY", StartDate: ptr(spDay(2)), Occurrences: ptr(3)})
	n := w.intent(p.ID, happyCPF)
	must(w.move(model.SandboxPaymentIntents, n.ID, payments.ConsentAuthorized))(w.t)
	return p, n, must(w.pay.Schedules(w.ctx, p.ID))(w.t).Results
}

// chargesAuthorized is a sandbox monthly automatic PIX authorization of 50.00 authorized by
// a control move, with one charge next month.
func (w *world) chargesAuthorized() (*model.PaymentRequest, *model.PaymentIntent, []*model.AutomaticPixPayment) {
	w.t.Helper()
	p := must(w.autoPix(model.AutomaticPixRequestInput{FixedAmount: ptr(50.0)}))(w.t)
	n := w.intent(p.ID, happyCPF)
	must(w.move(model.SandboxPaymentIntents, n.ID, payments.ConsentAuthorized))(w.t)
	a := must(w.pay.ScheduleAutomaticPixPayment(w.ctx, p.ID, model.AutomaticPixPaymentInput{Amount: ptr(50.0), Date: ptr(nextMonthDay(10))}))(w.t)
	return p, n, []*model.AutomaticPixPayment{a}
}

// byClient counts the request's events of one name sent as caused by the API key.
func (w *world) byClient(requestID uuid.UUID, name string) int {
	c := 0
	for _, e := range w.events(w.client, name) {
		if e.Payload["paymentRequestId"] == requestID.String() && e.Payload["triggeredBy"] == payments.ByClient {
			c++
		}
	}
	return c
}

// Every move of a scheduled payment's table on a fresh one, each with its event and the
// ledger's entry; every other status refused naming the allowed ones. Run to the last, the
// request ends as its job would end it: COMPLETED, the consent CONSUMED.
func TestSandboxMoveScheduledTable(t *testing.T) {
	w := newWorld(t)
	allowed := payments.DatedMovesFrom(payments.SchedScheduled)
	_, _, held := w.datedAuthorized(7)
	var paid int64
	for _, to := range datedStatuses {
		if !slices.Contains(allowed, to) {
			_, err := w.move(model.SandboxScheduledPays, held[0].ID, to)
			wantRefused(t, err, allowed)
			continue
		}
		p, _, list := w.datedAuthorized(7)
		mv := must(w.move(model.SandboxScheduledPays, list[0].ID, to))(t)
		if mv.From != payments.SchedScheduled || mv.Status != to || mv.ScheduledPayment == nil || mv.ScheduledPayment.Status != to ||
			mv.PaymentRequest.Status != payments.Scheduled || mv.PaymentIntent != nil {
			t.Fatalf("SCHEDULED -> %s: %+v", to, mv)
		}
		event := map[string]string{payments.SchedCompleted: "completed", payments.SchedError: "error", payments.SchedCanceled: "canceled"}[to]
		if w.byClient(p.ID, "scheduled_payment/"+event) != 1 {
			t.Fatalf("SCHEDULED -> %s: no scheduled_payment/%s by CLIENT", to, event)
		}
		if to == payments.SchedError && (mv.ScheduledPayment.ErrorDetail == nil || mv.ScheduledPayment.ErrorDetail.Code != model.PaymentErrorSettlementFailed) {
			t.Fatalf("error detail %+v", mv.ScheduledPayment.ErrorDetail)
		}
		if to == payments.SchedCompleted {
			paid += 700
		}
		w.wantBalance(ledger.Payees, paid)
		_, err := w.move(model.SandboxScheduledPays, list[0].ID, to)
		wantRefused(t, err, nil)
	}

	// The last one run ends the request: completed, failed and canceled give COMPLETED.
	p, n, list := w.datedAuthorized(3)
	for i, to := range []string{payments.SchedCompleted, payments.SchedCanceled, payments.SchedError} {
		mv := must(w.pay.SandboxMove(w.ctx, model.SandboxScheduledPays, list[i].ID, model.SandboxPaymentMoveInput{Status: to,
			ErrorDetail: &model.SandboxPaymentErrorInput{Code: ptr(model.PaymentErrorAccountBlocked)}}))(t)
		if to == payments.SchedError && mv.ScheduledPayment.ErrorDetail.Code != model.PaymentErrorAccountBlocked {
			t.Fatalf("given error code not recorded: %+v", mv.ScheduledPayment.ErrorDetail)
		}
	}
	if got := must(w.pay.Request(w.ctx, p.ID))(t).Status; got != payments.Completed {
		t.Fatalf("request after its last scheduled payment: %s", got)
	}
	if got := must(w.pay.Intent(w.ctx, n.ID))(t).Status; got != payments.Consumed {
		t.Fatalf("consent after its last scheduled payment: %s", got)
	}
	if w.byClient(p.ID, "scheduled_payment/all_completed") != 1 {
		t.Fatal("no scheduled_payment/all_completed by CLIENT")
	}
	w.wantBalance(ledger.Payees, paid+300)
	w.env.AuditLedger(t)
}

// A dated authorization ends by control: REVOKED while nothing ran (the request CANCELED),
// CONSUMED once a payment ran (the request COMPLETED); what was still scheduled is
// canceled. The other end is refused, naming what is allowed.
func TestSandboxMoveDatedAuthorizationEnds(t *testing.T) {
	w := newWorld(t)
	p, n, list := w.datedAuthorized(4)
	_, err := w.move(model.SandboxPaymentIntents, n.ID, payments.Consumed)
	wantRefused(t, err, []string{payments.IntentError, payments.Revoked})
	mv := must(w.move(model.SandboxPaymentIntents, n.ID, payments.Revoked))(t)
	if mv.PaymentIntent.Status != payments.Revoked || mv.PaymentRequest.Status != payments.Canceled {
		t.Fatalf("revoked: intent %s request %s", mv.PaymentIntent.Status, mv.PaymentRequest.Status)
	}
	if w.byClient(p.ID, "scheduled_payment/canceled") != len(list) {
		t.Fatalf("revoked: %d scheduled_payment/canceled, want %d", w.byClient(p.ID, "scheduled_payment/canceled"), len(list))
	}
	_, err = w.move(model.SandboxScheduledPays, list[1].ID, payments.SchedCompleted)
	wantRefused(t, err, nil)

	p, n, list = w.datedAuthorized(4)
	must(w.move(model.SandboxScheduledPays, list[0].ID, payments.SchedCompleted))(t)
	_, err = w.move(model.SandboxPaymentIntents, n.ID, payments.Revoked)
	wantRefused(t, err, []string{payments.IntentError, payments.Consumed})
	mv = must(w.move(model.SandboxPaymentIntents, n.ID, payments.Consumed))(t)
	if mv.PaymentIntent.Status != payments.Consumed || mv.PaymentRequest.Status != payments.Completed {
		t.Fatalf("consumed: intent %s request %s", mv.PaymentIntent.Status, mv.PaymentRequest.Status)
	}
	for _, s := range must(w.pay.Schedules(w.ctx, p.ID))(t).Results[1:] {
		if s.Status != payments.SchedCanceled {
			t.Fatalf("after CONSUMED a scheduled payment is %s", s.Status)
		}
	}
	w.wantBalance(ledger.Payees, 400)
	w.env.AuditLedger(t)
}

// Every move of a charge's table on a fresh one; every other status refused. A recurring
// authorization is REVOKED at any time, CONSUMED once a charge was paid.
func TestSandboxMoveChargeTable(t *testing.T) {
	w := newWorld(t)
	allowed := payments.DatedMovesFrom(payments.AutoScheduled)
	_, _, held := w.chargesAuthorized()
	var paid int64
	for _, to := range datedStatuses {
		if !slices.Contains(allowed, to) {
			_, err := w.move(model.SandboxAutoPixPays, held[0].ID, to)
			wantRefused(t, err, allowed)
			continue
		}
		p, _, list := w.chargesAuthorized()
		mv := must(w.move(model.SandboxAutoPixPays, list[0].ID, to))(t)
		a := mv.AutomaticPixPayment
		if mv.From != payments.AutoScheduled || a == nil || a.Status != to || mv.PaymentRequest.Status != payments.Authorized {
			t.Fatalf("SCHEDULED -> %s: %+v", to, mv)
		}
		event := map[string]string{payments.AutoCompleted: "completed", payments.AutoError: "error", payments.AutoCanceled: "canceled"}[to]
		if w.byClient(p.ID, "automatic_pix_payment/"+event) != 1 {
			t.Fatalf("SCHEDULED -> %s: no automatic_pix_payment/%s by CLIENT", to, event)
		}
		switch to {
		case payments.AutoCompleted:
			paid += 5000
			if a.EndToEndID == nil {
				t.Fatal("a completed charge has no endToEndId")
			}
		case payments.AutoError:
			if a.ErrorDetail == nil || a.ErrorDetail.Code != model.PaymentErrorSettlementFailed {
				t.Fatalf("error detail %+v", a.ErrorDetail)
			}
		}
		w.wantBalance(ledger.Payees, paid)
		_, err := w.move(model.SandboxAutoPixPays, a.ID, payments.AutoCompleted)
		wantRefused(t, err, nil)
	}

	p, n, _ := w.chargesAuthorized()
	_, err := w.move(model.SandboxPaymentIntents, n.ID, payments.Consumed)
	wantRefused(t, err, []string{payments.IntentError, payments.Revoked})
	mv := must(w.move(model.SandboxPaymentIntents, n.ID, payments.Revoked))(t)
	if mv.PaymentRequest.Status != payments.Canceled || w.byClient(p.ID, "automatic_pix_payment/canceled") != 1 {
		t.Fatalf("revoked: request %s, events %v", mv.PaymentRequest.Status, w.requestEvents(p.ID))
	}

	p, n, list := w.chargesAuthorized()
	must(w.move(model.SandboxAutoPixPays, list[0].ID, payments.AutoCompleted))(t)
	mv = must(w.move(model.SandboxPaymentIntents, n.ID, payments.Consumed))(t)
	if mv.PaymentIntent.Status != payments.Consumed || mv.PaymentRequest.Status != payments.Completed {
		t.Fatalf("consumed: intent %s request %s", mv.PaymentIntent.Status, mv.PaymentRequest.Status)
	}
	w.wantBalance(ledger.Payees, paid+5000)
	w.env.AuditLedger(t)
}

// Another application's scheduled payments and charges are not found; a dated request
// outside the sandbox is 403.
func TestSandboxMoveDatedRefusals(t *testing.T) {
	w := newWorld(t)
	_, _, list := w.datedAuthorized(2)
	_, _, charges := w.chargesAuthorized()
	other := w.as(w.newClient("other"))
	_, err := w.pay.SandboxMove(other, model.SandboxScheduledPays, list[0].ID, model.SandboxPaymentMoveInput{Status: payments.SchedCompleted})
	wantCode(t, err, model.CodeScheduledPaymentNotFound)
	_, err = w.pay.SandboxMove(other, model.SandboxAutoPixPays, charges[0].ID, model.SandboxPaymentMoveInput{Status: payments.AutoCompleted})
	wantCode(t, err, model.CodeAutomaticPixPaymentNotFound)
	_, err = w.move(model.SandboxAutoPixPays, list[0].ID, payments.AutoCompleted) // a scheduled payment's id is no charge's
	wantCode(t, err, model.CodeAutomaticPixPaymentNotFound)

	real := must(w.pay.CreateRequest(w.ctx, model.PaymentRequestInput{Amount: ptr(4.0), IsSandbox: ptr(false),
		Schedule: &model.PaymentSchedule{Type: "SINGLE", Date: ptr(spDay(3))}}))(t)
	must(w.pay.DecideForPayer(w.ctx, w.intent(real.ID, happyCPF).ID, true))(t)
	s := must(w.pay.Schedules(w.ctx, real.ID))(t).Results[0]
	_, err = w.move(model.SandboxScheduledPays, s.ID, payments.SchedCompleted)
	wantCode(t, err, model.CodeSandboxOnly)
	if got := must(w.pay.Schedule(w.ctx, real.ID, s.ID))(t).Status; got != payments.SchedScheduled {
		t.Fatalf("non-sandbox scheduled payment moved: %s", got)
	}
}
