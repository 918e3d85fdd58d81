package payments_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/ledger"
	"ponte/model"
	"ponte/payments"
	"ponte/sandbox/payer"
	"ponte/testsupport"
)

// soonNow runs payments dated within two days at once and the rest an hour later, so a
// test sees some paid while it can still cancel others.
func soonNow(s *testsupport.Setup) {
	s.Payments.ScheduleAt = func(d time.Time) time.Time {
		n := time.Now().In(payments.SaoPaulo)
		today := time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, time.UTC)
		if d.Sub(today) <= 48*time.Hour {
			return time.Now()
		}
		return time.Now().Add(time.Hour)
	}
}

func (w *world) dated(amount float64, s *model.PaymentSchedule) *model.PaymentRequest {
	w.t.Helper()
	return must(w.pay.CreateRequest(w.ctx, model.PaymentRequestInput{Amount: ptr(amount), IsSandbox: ptr(true), Schedule: s}))(w.t)
}

func (w *world) awaitSchedules(id uuid.UUID, done func([]*model.ScheduledPayment) bool) []*model.ScheduledPayment {
	w.t.Helper()
	var list []*model.ScheduledPayment
	testsupport.Eventually(w.t, "the request's scheduled payments", wait, func() bool {
		list = must(w.pay.Schedules(w.ctx, id))(w.t).Results
		return done(list)
	})
	return list
}

func count(list []*model.ScheduledPayment, status string) int {
	n := 0
	for _, s := range list {
		if s.Status == status {
			n++
		}
	}
	return n
}

// A payer's consent to a dated request schedules one payment per date and leaves the
// request SCHEDULED; each payment is paid on its date, and once none is left to run the
// request is COMPLETED and the consent CONSUMED. A scheduled request is not deleted.
func TestScheduledRequestPaysEachDateThenCompletes(t *testing.T) {
	t.Parallel()
	w := newWorld(t, soonNow)
	p := w.dated(15, &model.PaymentSchedule{Type: "daily", StartDate: ptr(spDay(1)), Occurrences: ptr(3)})
	if p.Schedule == nil || p.Schedule.Type != "DAILY" {
		t.Fatalf("schedule stored as %+v", p.Schedule)
	}
	n := w.intent(p.ID, happyCPF)
	n = must(w.pay.DecideForPayer(w.ctx, n.ID, true))(t)
	if n.Status != payments.ConsentAuthorized {
		t.Fatalf("intent of a dated request after consent: %s", n.Status)
	}
	if got := must(w.pay.Request(w.ctx, p.ID))(t); got.Status != payments.Scheduled {
		t.Fatalf("request after consent: %s", got.Status)
	}
	list := w.awaitSchedules(p.ID, func(l []*model.ScheduledPayment) bool { return count(l, payments.SchedCompleted) == 2 })
	if len(list) != 3 || list[0].ScheduledDate != spDay(1) || list[2].ScheduledDate != spDay(3) || list[2].Status != payments.SchedScheduled {
		t.Fatalf("scheduled payments: %+v", list)
	}
	w.wantBalance(ledger.Payees, 3000)
	_, err := w.pay.DeleteRequest(w.ctx, p.ID)
	wantCode(t, err, model.CodePaymentRequestNotEditable)

	last := list[2].ID
	if s := must(w.pay.Schedule(w.ctx, p.ID, last))(t); s.ScheduledDate != spDay(3) {
		t.Fatalf("one scheduled payment: %+v", s)
	}
	_, err = w.pay.Schedule(w.ctx, p.ID, uuid.New())
	wantCode(t, err, model.CodeScheduledPaymentNotFound)
	_, err = w.pay.CancelSchedule(w.ctx, p.ID, list[0].ID)
	wantCode(t, err, model.CodeScheduledPaymentNotCancelable)
	if s := must(w.pay.CancelSchedule(w.ctx, p.ID, last))(t); s.ID != last || s.Status != payments.SchedCanceled {
		t.Fatalf("the canceled one: %+v", s)
	}
	list = must(w.pay.Schedules(w.ctx, p.ID))(t).Results
	if count(list, payments.SchedCanceled) != 1 || count(list, payments.SchedCompleted) != 2 {
		t.Fatalf("after canceling the last one: %+v", list)
	}
	if got := must(w.pay.Request(w.ctx, p.ID))(t); got.Status != payments.Completed {
		t.Fatalf("request with two paid and one canceled: %s", got.Status)
	}
	if got := must(w.pay.Intent(w.ctx, n.ID))(t); got.Status != payments.Consumed {
		t.Fatalf("consent of a finished schedule: %s", got.Status)
	}
	if _, err := w.pay.CancelSchedules(w.ctx, p.ID); err != nil {
		t.Fatalf("canceling when nothing is left: %v", err)
	}
	ev := strings.Join(w.requestEvents(p.ID), " ")
	for _, want := range []string{"scheduled_payment/created", "scheduled_payment/all_created", "scheduled_payment/completed",
		"scheduled_payment/canceled", "scheduled_payment/all_completed"} {
		if !strings.Contains(ev, want) {
			t.Fatalf("no %s among %s", want, ev)
		}
	}
	if n := strings.Count(ev, "scheduled_payment/created"); n != 3 {
		t.Fatalf("%d scheduled_payment/created events, want 3", n)
	}
	w.wantBalance(ledger.Payees, 3000)
	w.env.AuditLedger(t)
}

// Canceling every dated payment before any was paid cancels the request and revokes the
// consent; a request with no dated payments has nothing to cancel.
func TestCancelingEveryDatedPaymentCancelsTheRequest(t *testing.T) {
	t.Parallel()
	w := newWorld(t, soonNow)
	p := w.dated(20, &model.PaymentSchedule{Type: "CUSTOM", Dates: []string{spDay(6), spDay(5)}})
	n := w.intent(p.ID, happyCPF)
	must(w.pay.DecideForPayer(w.ctx, n.ID, true))(t)
	list := must(w.pay.Schedules(w.ctx, p.ID))(t).Results
	if len(list) != 2 || list[0].ScheduledDate != spDay(5) {
		t.Fatalf("custom dates, sorted: %+v", list)
	}
	byRequest := must(w.pay.SchedulesOfRequests(w.ctx, []*model.PaymentRequest{p}))(t)
	if len(byRequest) != 1 || len(byRequest[0]) != 2 {
		t.Fatalf("schedules of requests: %v", byRequest)
	}
	list = must(w.pay.CancelSchedules(w.ctx, p.ID))(t).Results
	if count(list, payments.SchedCanceled) != 2 {
		t.Fatalf("after canceling all: %+v", list)
	}
	if got := must(w.pay.Request(w.ctx, p.ID))(t); got.Status != payments.Canceled {
		t.Fatalf("request with every payment canceled: %s", got.Status)
	}
	if got := must(w.pay.Intent(w.ctx, n.ID))(t); got.Status != payments.Revoked {
		t.Fatalf("consent of a canceled schedule: %s", got.Status)
	}
	u := uuid.New()
	_, err := w.pay.CancelSchedule(w.ctx, p.ID, u)
	wantCode(t, err, model.CodeScheduledPaymentNotFound)
	_, err = w.pay.CancelSchedules(w.ctx, w.request(1).ID)
	wantCode(t, err, model.CodePaymentRequestNotEditable)
	_, err = w.pay.Schedules(w.ctx, uuid.New())
	wantCode(t, err, model.CodePaymentRequestNotFound)
	w.wantBalance(ledger.Payees, 0)
}

// A poor payer's dated payments fail with the institution's reason; a request none of
// whose payments was paid ends in ERROR.
func TestDatedPaymentsOfAPoorPayerFailAndEndTheRequestInError(t *testing.T) {
	t.Parallel()
	w := newWorld(t, soonNow)
	p := w.dated(20, &model.PaymentSchedule{Type: "SINGLE", Date: ptr(spDay(1))})
	n := w.intent(p.ID, payer.CPFInsufficientFunds)
	must(w.pay.DecideForPayer(w.ctx, n.ID, true))(t)
	list := w.awaitSchedules(p.ID, func(l []*model.ScheduledPayment) bool { return count(l, payments.SchedError) == 1 })
	if list[0].ErrorDetail == nil || list[0].ErrorDetail.Code != "INSUFFICIENT_FUNDS" {
		t.Fatalf("failed dated payment: %+v", list[0].ErrorDetail)
	}
	w.awaitRequest(p.ID, payments.RequestError)
	if got := must(w.pay.Intent(w.ctx, n.ID))(t); got.Status != payments.Consumed {
		t.Fatalf("consent after its only payment failed: %s", got.Status)
	}
	if len(w.events(w.client, "scheduled_payment/error")) != 1 {
		t.Fatal("no scheduled_payment/error event")
	}
	w.wantBalance(ledger.Payees, 0)
}
