package payments_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/payments"
	"ponte/testsupport"
)

// clockStart is a test clock's first time: years ahead, so nothing of real time is due.
var clockStart = time.Date(2031, 3, 1, 12, 0, 0, 0, time.UTC)

func (w *world) clock(name string, at time.Time) *model.TestClock {
	w.t.Helper()
	return must(w.pay.CreateTestClock(w.ctx, model.TestClockInput{Name: ptr(name), FrozenTime: ptr(model.NewTime(at))}))(w.t)
}

// advanceTo moves a clock and waits until its advance is done.
func (w *world) advanceTo(id uuid.UUID, to time.Time) *model.TestClock {
	w.t.Helper()
	must(w.pay.AdvanceTestClock(w.ctx, id, model.TestClockAdvanceInput{FrozenTime: ptr(model.NewTime(to))}))(w.t)
	var c *model.TestClock
	testsupport.Eventually(w.t, "the clock's advance", wait, func() bool {
		c = must(w.pay.TestClock(w.ctx, id))(w.t)
		return c.Status == payments.ClockReady
	})
	if !c.FrozenTime.Equal(to) {
		w.t.Fatalf("clock after its advance to %s: %s", to, c.FrozenTime)
	}
	return c
}

// An advance of a year over a monthly schedule on a clock pays every occurrence, in clock
// time: each scheduled_payment/completed is recorded at its date's 08:00 (São Paulo), and
// all_completed at the last one's; a payer whose bank refuses gives /error instead.
func TestClockAdvanceRunsAYearOfMonthlyPayments(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	c := w.clock("a year", clockStart)
	for _, tc := range []struct {
		cpf, event, status string
	}{{happyCPF, "scheduled_payment/completed", payments.SchedCompleted}, {"10000000108", "scheduled_payment/error", payments.SchedError}} {
		p := must(w.pay.CreateRequest(w.ctx, model.PaymentRequestInput{Amount: ptr(10.0), IsSandbox: ptr(true), TestClockID: ptr(c.ID.String()),
			Schedule: &model.PaymentSchedule{Type: "MONTHLY", StartDate: ptr("2031-03-10"), DayOfMonth: ptr(10), Occurrences: ptr(12)}}))(t)
		if p.TestClockID == nil || *p.TestClockID != c.ID || !p.CreatedAt.Equal(clockStart) {
			t.Fatalf("request on a clock: clock %v, createdAt %s", p.TestClockID, p.CreatedAt)
		}
		n := w.intent(p.ID, tc.cpf)
		must(w.pay.DecideForPayer(w.ctx, n.ID, true))(t)
		list := must(w.pay.Schedules(w.ctx, p.ID))(t).Results
		if len(list) != 12 || count(list, payments.SchedScheduled) != 12 || !list[0].CreatedAt.Equal(clockStart) {
			t.Fatalf("scheduled payments before the advance: %+v", list)
		}
		tc := tc
		defer func() {
			list := must(w.pay.Schedules(w.ctx, p.ID))(t).Results
			if count(list, tc.status) != 12 {
				t.Fatalf("payer %s after a year: %+v", tc.cpf, list)
			}
			want := payments.Completed
			if tc.status == payments.SchedError {
				want = payments.RequestError
			}
			if got := must(w.pay.Request(w.ctx, p.ID))(t); got.Status != want {
				t.Fatalf("payer %s: request %s, want %s", tc.cpf, got.Status, want)
			}
			var at []time.Time
			for _, e := range must(w.env.DB.Events(w.ctx, w.client, nil))(t) {
				if e.Payload["paymentRequestId"] == p.ID.String() && e.Event == tc.event {
					at = append(at, e.CreatedAt)
				}
				if e.Payload["paymentRequestId"] == p.ID.String() && e.Event == "scheduled_payment/all_completed" && tc.status == payments.SchedCompleted {
					if day := e.CreatedAt.In(payments.SaoPaulo); day.Format(time.DateTime) != "2032-02-10 08:00:00" {
						t.Fatalf("all_completed recorded at %s, want the last date's 08:00 São Paulo", day)
					}
				}
			}
			if len(at) != 12 {
				t.Fatalf("%d %s events, want 12: %s", len(at), tc.event, strings.Join(w.requestEvents(p.ID), " "))
			}
			for i, a := range at {
				want := time.Date(2031, time.March+time.Month(i), 10, 8, 0, 0, 0, payments.SaoPaulo)
				if !a.Equal(want) {
					t.Fatalf("%s #%d recorded at %s, want %s (clock time)", tc.event, i, a, want)
				}
			}
		}()
	}
	// Nothing moves by real time: the payments wait for the clock.
	w.advanceTo(c.ID, clockStart.AddDate(1, 0, 0))
}

// A request left unpaid on a clock expires when the clock passes its expiry, and an
// attempt the payer leaves waiting ends PAYMENT_TIMEOUT; a request off the clock is
// untouched by the advance.
func TestClockAdvanceExpiresAndTimesOut(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	c := w.clock("expiry", clockStart)
	onClock := func() *model.PaymentRequest {
		return must(w.pay.CreateRequest(w.ctx, model.PaymentRequestInput{Amount: ptr(5.0), IsSandbox: ptr(true), TestClockID: ptr(c.ID.String())}))(t)
	}
	idle, waiting := onClock(), onClock()
	real := must(w.pay.CreateRequest(w.ctx, model.PaymentRequestInput{Amount: ptr(5.0), IsSandbox: ptr(true)}))(t)
	n := w.intent(waiting.ID, happyCPF)
	if !n.CreatedAt.Equal(clockStart) {
		t.Fatalf("intent on a clock created at %s", n.CreatedAt)
	}
	w.advanceTo(c.ID, clockStart.Add(31*time.Minute))
	if got := must(w.pay.Intent(w.ctx, n.ID))(t); got.Status != payments.PaymentTimeout {
		t.Fatalf("intent 31 clock minutes on: %s", got.Status)
	}
	if got := must(w.pay.Request(w.ctx, idle.ID))(t); got.Status != payments.Created {
		t.Fatalf("idle request 31 minutes on: %s", got.Status)
	}
	w.advanceTo(c.ID, clockStart.AddDate(0, 0, 31))
	if got := must(w.pay.Request(w.ctx, idle.ID))(t); got.Status != payments.Expired {
		t.Fatalf("idle request 31 clock days on: %s", got.Status)
	}
	if got := must(w.pay.Request(w.ctx, real.ID))(t); got.Status != payments.Created {
		t.Fatalf("request without a clock after the advance: %s", got.Status)
	}
}

// A clock goes forward only, by at most two years at a time, one advance at once; it is
// its application's alone, and only a sandbox request may live on it.
func TestClockRules(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	c := w.clock("rules", clockStart)
	adv := func(to time.Time) error {
		_, err := w.pay.AdvanceTestClock(w.ctx, c.ID, model.TestClockAdvanceInput{FrozenTime: ptr(model.NewTime(to))})
		return err
	}
	wantCode(t, adv(clockStart.Add(-time.Second)), model.CodeTestClockBackwards)
	wantCode(t, adv(clockStart.AddDate(10, 0, 0)), model.CodeTestClockTooFar)
	_, err := w.pay.AdvanceTestClock(w.ctx, c.ID, model.TestClockAdvanceInput{})
	wantCode(t, err, model.CodeTestClockInvalid)
	_, err = w.pay.CreateTestClock(w.ctx, model.TestClockInput{Name: ptr(strings.Repeat("x", 101)), FrozenTime: ptr(model.NewTime(clockStart))})
	wantCode(t, err, model.CodeTestClockInvalid)
	for i := 1; i < payments.MaxTestClocks; i++ {
		w.clock("more", clockStart)
	}
	_, err = w.pay.CreateTestClock(w.ctx, model.TestClockInput{Name: ptr("eleventh"), FrozenTime: ptr(model.NewTime(clockStart))})
	wantCode(t, err, model.CodeTestClockInvalid)

	other := w.as(w.newClient("another application"))
	_, err = w.pay.TestClock(other, c.ID)
	wantCode(t, err, model.CodeTestClockNotFound)
	_, err = w.pay.AdvanceTestClock(other, c.ID, model.TestClockAdvanceInput{FrozenTime: ptr(model.NewTime(clockStart.Add(time.Hour)))})
	wantCode(t, err, model.CodeTestClockNotFound)
	_, err = w.pay.CreateRequest(other, model.PaymentRequestInput{Amount: ptr(5.0), IsSandbox: ptr(true), TestClockID: ptr(c.ID.String())})
	wantCode(t, err, model.CodeTestClockNotFound)
	_, err = w.pay.CreateRequest(w.ctx, model.PaymentRequestInput{Amount: ptr(5.0), IsSandbox: ptr(false), TestClockID: ptr(c.ID.String())})
	wantCode(t, err, model.CodeSandboxOnly)

	w.advanceTo(c.ID, clockStart.AddDate(2, 0, 0))
	page := must(w.pay.TestClocks(w.ctx, nil, nil))(t)
	if page.Total != payments.MaxTestClocks {
		t.Fatalf("clocks listed: %d", page.Total)
	}
	must(w.pay.DeleteTestClock(w.ctx, c.ID))(t)
	_, err = w.pay.TestClock(w.ctx, c.ID)
	wantCode(t, err, model.CodeTestClockNotFound)
}

// A second advance (or a deletion) while the first is under way is refused with 409: here
// no worker serves the payments queue, so the first stays advancing.
func TestClockSecondAdvanceWhileAdvancing(t *testing.T) {
	t.Parallel()
	w := newWorld(t, func(s *testsupport.Setup) { delete(s.Jobs.Queues, payments.Queue) })
	c := w.clock("busy", clockStart)
	to := model.TestClockAdvanceInput{FrozenTime: ptr(model.NewTime(clockStart.Add(time.Hour)))}
	if got := must(w.pay.AdvanceTestClock(w.ctx, c.ID, to))(t); got.Status != payments.ClockAdvancing {
		t.Fatalf("clock after an advance starts: %s", got.Status)
	}
	_, err := w.pay.AdvanceTestClock(w.ctx, c.ID, to)
	wantCode(t, err, model.CodeTestClockAdvancing)
	_, err = w.pay.DeleteTestClock(w.ctx, c.ID)
	wantCode(t, err, model.CodeTestClockAdvancing)
}

// Automatic PIX charges on a clock run by advancing it: the first payment and a charge the
// application scheduled are paid on their dates, in clock time.
func TestClockAdvanceRunsAutomaticPixCharges(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	c := w.clock("automatic pix", clockStart)
	p := must(w.pay.CreateAutomaticPixRequest(w.ctx, model.AutomaticPixRequestInput{Interval: ptr("MONTHLY"), StartDate: ptr("2031-03-05"),
		FixedAmount: ptr(20.0), IsSandbox: ptr(true), TestClockID: ptr(c.ID.String()),
		FirstPayment: &model.AutomaticPixFirstPayment{Amount: 20, Date: ptr("2031-03-05")}}))(t)
	if !p.CreatedAt.Equal(clockStart) {
		t.Fatalf("automatic PIX request on a clock created at %s", p.CreatedAt)
	}
	w.authorize(p, happyCPF)
	second := must(w.pay.ScheduleAutomaticPixPayment(w.ctx, p.ID, model.AutomaticPixPaymentInput{Amount: ptr(20.0), Date: ptr("2031-04-05")}))(t)
	list := must(w.pay.AutomaticPixPayments(w.ctx, p.ID, nil, nil))(t).Results
	if len(list) != 2 || list[0].Status != payments.AutoScheduled || list[1].Status != payments.AutoScheduled {
		t.Fatalf("charges before the advance: %+v", list)
	}
	w.advanceTo(c.ID, time.Date(2031, 4, 30, 0, 0, 0, 0, time.UTC))
	for _, a := range must(w.pay.AutomaticPixPayments(w.ctx, p.ID, nil, nil))(t).Results {
		if a.Status != payments.AutoCompleted {
			t.Fatalf("charge %s (%s) after the advance: %s", a.ID, a.Date, a.Status)
		}
		if a.ID == second.ID && !a.UpdatedAt.Equal(time.Date(2031, 4, 5, 8, 0, 0, 0, payments.SaoPaulo)) {
			t.Fatalf("the scheduled charge was paid at %s, want its date's 08:00 (clock time)", a.UpdatedAt)
		}
	}
}
