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

// nextMonthDay is day d of next month in São Paulo, as the API writes dates.
func nextMonthDay(d int) string {
	n := time.Now().In(payments.SaoPaulo)
	return time.Date(n.Year(), n.Month()+1, d, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
}

func (w *world) autoPix(in model.AutomaticPixRequestInput) (*model.PaymentRequest, error) {
	if in.Interval == nil {
		in.Interval = ptr("monthly")
	}
	if in.StartDate == nil {
		in.StartDate = ptr(spDay(0))
	}
	in.IsSandbox = ptr(true)
	return w.pay.CreateAutomaticPixRequest(w.ctx, in)
}

// authorize has a payer authorize an automatic PIX request.
func (w *world) authorize(p *model.PaymentRequest, cpf string) *model.PaymentIntent {
	w.t.Helper()
	n := w.intent(p.ID, cpf)
	return must(w.pay.DecideForPayer(w.ctx, n.ID, true))(w.t)
}

func (w *world) awaitCharge(requestID, id uuid.UUID, status string) *model.AutomaticPixPayment {
	w.t.Helper()
	var a *model.AutomaticPixPayment
	testsupport.Eventually(w.t, "automatic PIX charge "+status, wait, func() bool {
		a = must(w.pay.AutomaticPixPayment(w.ctx, requestID, id))(w.t)
		return a.Status == status
	})
	return a
}

// An automatic PIX request's terms are checked when it is made: a known interval, dates
// from today on in order, a fixed amount or a range; it has no amount of its own, and its
// authorization is given by payment initiation with the payer's name.
func TestAutomaticPixRequestChecksItsTerms(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	cases := []struct {
		name string
		in   model.AutomaticPixRequestInput
	}{
		{"unknown interval", model.AutomaticPixRequestInput{Interval: ptr("DAILY")}},
		{"start not a date", model.AutomaticPixRequestInput{StartDate: ptr("tomorrow")}},
		{"start in the past", model.AutomaticPixRequestInput{StartDate: ptr(spDay(-1))}},
		{"fixed and a range", model.AutomaticPixRequestInput{FixedAmount: ptr(10.0), MaximumVariableAmount: ptr(20.0)}},
		{"minimum above maximum", model.AutomaticPixRequestInput{MinimumVariableAmount: ptr(30.0), MaximumVariableAmount: ptr(20.0)}},
		{"amount of a tenth of a cent", model.AutomaticPixRequestInput{FixedAmount: ptr(10.001)}},
		{"expiry not after start", model.AutomaticPixRequestInput{ExpiresAt: ptr(spDay(0))}},
		{"first payment in the past", model.AutomaticPixRequestInput{FirstPayment: &model.AutomaticPixFirstPayment{Amount: 5, Date: ptr(spDay(-1))}}},
		{"first payment after expiry", model.AutomaticPixRequestInput{ExpiresAt: ptr(spDay(10)), FirstPayment: &model.AutomaticPixFirstPayment{Amount: 5, Date: ptr(spDay(11))}}},
		{"first payment without amount", model.AutomaticPixRequestInput{FirstPayment: &model.AutomaticPixFirstPayment{}}},
	}
	for _, c := range cases {
		_, err := w.autoPix(c.in)
		t.Run(c.name, func(t *testing.T) { wantCode(t, err, model.CodeInvalidParameter) })
	}
	_, err := w.pay.CreateAutomaticPixRequest(w.ctx, model.AutomaticPixRequestInput{Interval: ptr("MONTHLY")})
	wantCode(t, err, model.CodeInvalidParameter)

	p := must(w.autoPix(model.AutomaticPixRequestInput{FixedAmount: ptr(19.9), Description: ptr("Assinatura")}))(t)
	if p.Status != payments.Created || p.Amount != nil || p.AutomaticPix == nil || p.AutomaticPix.Interval != "MONTHLY" || *p.AutomaticPix.FixedAmount != 19.9 {
		t.Fatalf("automatic PIX request: %+v", p)
	}
	_, err = w.pay.UpdateRequest(w.ctx, p.ID, model.PaymentRequestInput{Amount: ptr(5.0)})
	wantCode(t, err, model.CodeInvalidParameter)
	_, err = w.pay.CreateIntent(w.ctx, model.PaymentIntentInput{PaymentRequestID: ptr(p.ID.String()), ConnectorID: ptr(payConnector),
		Parameters: &model.PaymentPayerInput{Cpf: ptr(happyCPF)}})
	wantCode(t, err, model.CodeInvalidParameter) // no payer name
	_, err = w.pay.CreateIntent(w.ctx, model.PaymentIntentInput{PaymentRequestID: ptr(p.ID.String()), ConnectorID: ptr(payConnector),
		Parameters: &model.PaymentPayerInput{Cpf: ptr(happyCPF), Name: ptr("Maria")}, PaymentMethod: ptr("PIX")})
	wantCode(t, err, model.CodeInvalidParameter)
	_, err = w.pay.AutomaticPixPayments(w.ctx, w.request(5).ID, nil, ptr(10))
	wantCode(t, err, model.CodeInvalidParameter)
}

// An authorized request is AUTHORIZED and pays its first payment at once; then the
// receiver charges within the terms, at most one charge per calendar period (a canceled
// charge frees its period); the request cannot be deleted while the authorization is in
// force, and canceling the authorization cancels its charges and revokes the consent.
func TestAutomaticPixChargesStayWithinTheAuthorization(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	p := must(w.autoPix(model.AutomaticPixRequestInput{MinimumVariableAmount: ptr(10.0), MaximumVariableAmount: ptr(100.0),
		ExpiresAt: ptr(nextMonthDay(20)), FirstPayment: &model.AutomaticPixFirstPayment{Amount: 25}}))(t)
	n := w.authorize(p, happyCPF)
	if n.Status != payments.ConsentAuthorized {
		t.Fatalf("authorized intent: %s", n.Status)
	}
	w.awaitRequest(p.ID, payments.Authorized)
	page := must(w.pay.AutomaticPixPayments(w.ctx, p.ID, nil, ptr(10)))(t)
	charges, total := page.Results, page.Total
	if total != 1 || charges[0].Amount != 25 || charges[0].Date != spDay(0) {
		t.Fatalf("first payment: %d %+v", total, charges)
	}
	first := w.awaitCharge(p.ID, charges[0].ID, payments.AutoCompleted)
	if first.EndToEndID == nil || !e2eRE.MatchString(*first.EndToEndID) {
		t.Fatalf("completed first payment: %+v", first)
	}
	w.wantBalance(ledger.Payees, 2500)

	charge := func(amount float64, date string) (*model.AutomaticPixPayment, error) {
		return w.pay.ScheduleAutomaticPixPayment(w.ctx, p.ID, model.AutomaticPixPaymentInput{Amount: ptr(amount), Date: ptr(date)})
	}
	_, err := charge(9.99, nextMonthDay(2))
	wantCode(t, err, model.CodeAutomaticPixAmountOutOfTerms)
	_, err = charge(100.01, nextMonthDay(2))
	wantCode(t, err, model.CodeAutomaticPixAmountOutOfTerms)
	_, err = charge(50, spDay(0))
	wantCode(t, err, model.CodeInvalidParameter)
	_, err = charge(50, nextMonthDay(21))
	wantCode(t, err, model.CodeAutomaticPixDateOutOfTerms)
	_, err = w.pay.ScheduleAutomaticPixPayment(w.ctx, p.ID, model.AutomaticPixPaymentInput{Amount: ptr(50.0)})
	wantCode(t, err, model.CodeInvalidParameter)

	a := must(charge(50, nextMonthDay(2)))(t)
	if a.Status != payments.AutoScheduled {
		t.Fatalf("scheduled charge: %s", a.Status)
	}
	_, err = charge(60, nextMonthDay(3))
	if e := wantCode(t, err, model.CodeAutomaticPixPeriodCharged); e.Data.(map[string]string)["automaticPixPaymentId"] != a.ID.String() {
		t.Fatalf("period refusal names %v", e.Data)
	}
	_, err = w.pay.RetryAutomaticPixPayment(w.ctx, p.ID, a.ID, model.AutomaticPixPaymentInput{Date: ptr(nextMonthDay(4))})
	wantCode(t, err, model.CodeAutomaticPixRetryNotAccepted) // the terms accept no retries
	if c := must(w.pay.CancelAutomaticPixPayment(w.ctx, p.ID, a.ID))(t); c.Status != payments.AutoCanceled {
		t.Fatalf("canceled charge: %s", c.Status)
	}
	_, err = w.pay.CancelAutomaticPixPayment(w.ctx, p.ID, a.ID)
	wantCode(t, err, model.CodeAutomaticPixPaymentNotCancelable)
	b := must(charge(60, nextMonthDay(3)))(t) // the period is free again

	_, err = w.pay.DeleteRequest(w.ctx, p.ID)
	wantCode(t, err, model.CodePaymentRequestNotEditable)
	_, err = w.pay.AutomaticPixPayment(w.ctx, p.ID, uuid.New())
	wantCode(t, err, model.CodeAutomaticPixPaymentNotFound)
	_, err = w.pay.CancelAutomaticPixPayment(w.ctx, w.request(1).ID, b.ID)
	wantCode(t, err, model.CodeAutomaticPixPaymentNotFound)

	done := must(w.pay.CancelAutomaticPixAuthorization(w.ctx, p.ID))(t)
	if done.Status != payments.Canceled {
		t.Fatalf("request after its authorization was canceled: %s", done.Status)
	}
	if got := must(w.pay.AutomaticPixPayment(w.ctx, p.ID, b.ID))(t); got.Status != payments.AutoCanceled {
		t.Fatalf("a pending charge of a canceled authorization is %s", got.Status)
	}
	if got := must(w.pay.Intent(w.ctx, n.ID))(t); got.Status != payments.Revoked {
		t.Fatalf("consent of a canceled authorization: %s", got.Status)
	}
	_, err = charge(50, nextMonthDay(5))
	wantCode(t, err, model.CodePaymentRequestNotEditable)
	_, err = w.pay.CancelAutomaticPixAuthorization(w.ctx, p.ID)
	wantCode(t, err, model.CodePaymentRequestNotEditable)
	var names []string
	for _, e := range must(w.env.DB.Events(w.ctx, w.client, nil))(t) {
		if strings.HasPrefix(e.Event, "automatic_pix_payment/") {
			names = append(names, e.Event)
		}
	}
	want := "automatic_pix_payment/created automatic_pix_payment/completed automatic_pix_payment/created automatic_pix_payment/canceled " +
		"automatic_pix_payment/created automatic_pix_payment/canceled"
	if strings.Join(names, " ") != want {
		t.Fatalf("charge events %v\nwant %s", names, want)
	}
	w.wantBalance(ledger.Payees, 2500)
}

// A poor payer's charges fail with the institution's reason; a failed charge (never the
// first payment) may be retried, when the terms accept retries, within a week of its
// original date, and keeps its period.
func TestFailedAutomaticPixChargeIsRetriedWithinItsWindow(t *testing.T) {
	t.Parallel()
	w := newWorld(t, func(s *testsupport.Setup) { s.Payments.ScheduleAt = func(time.Time) time.Time { return time.Now() } })
	p := must(w.autoPix(model.AutomaticPixRequestInput{Interval: ptr("YEARLY"), FixedAmount: ptr(30.0), IsRetryAccepted: ptr(true),
		FirstPayment: &model.AutomaticPixFirstPayment{Amount: 30}}))(t)
	w.authorize(p, payer.CPFInsufficientFunds)
	w.awaitRequest(p.ID, payments.Authorized)
	charges := must(w.pay.AutomaticPixPayments(w.ctx, p.ID, nil, ptr(10)))(t).Results
	first := w.awaitCharge(p.ID, charges[0].ID, payments.AutoError)
	if first.ErrorDetail == nil || first.ErrorDetail.Code != "INSUFFICIENT_FUNDS" {
		t.Fatalf("first payment of a poor payer: %+v", first.ErrorDetail)
	}
	_, err := w.pay.RetryAutomaticPixPayment(w.ctx, p.ID, first.ID, model.AutomaticPixPaymentInput{Date: ptr(spDay(1))})
	wantCode(t, err, model.CodeAutomaticPixRetryNotAccepted)

	a := must(w.pay.ScheduleAutomaticPixPayment(w.ctx, p.ID, model.AutomaticPixPaymentInput{Amount: ptr(30.0), Date: ptr(spDay(1))}))(t)
	w.awaitCharge(p.ID, a.ID, payments.AutoError)
	if errs := w.events(w.client, "automatic_pix_payment/error"); len(errs) != 2 {
		t.Fatalf("%d error events, want 2", len(errs))
	}
	retry := func(date string) error {
		_, err := w.pay.RetryAutomaticPixPayment(w.ctx, p.ID, a.ID, model.AutomaticPixPaymentInput{Date: ptr(date)})
		return err
	}
	wantCode(t, retry(spDay(9)), model.CodeAutomaticPixDateOutOfTerms) // more than 7 days after the original date
	wantCode(t, retry(spDay(0)), model.CodeInvalidParameter)
	wantCode(t, retry("x"), model.CodeInvalidParameter)
	if err := retry(spDay(3)); err != nil {
		t.Fatalf("retry within the window: %v", err)
	}
	again := w.awaitCharge(p.ID, a.ID, payments.AutoError)
	if again.Date != spDay(3) {
		t.Fatalf("retried charge dated %s, want %s", again.Date, spDay(3))
	}
	if errs := w.events(w.client, "automatic_pix_payment/error"); len(errs) != 3 {
		t.Fatalf("%d error events after the retry ran, want 3", len(errs))
	}
	// The failed charge keeps its period (the year of its original date).
	_, err = w.pay.ScheduleAutomaticPixPayment(w.ctx, p.ID, model.AutomaticPixPaymentInput{Amount: ptr(30.0), Date: ptr(spDay(1))})
	wantCode(t, err, model.CodeAutomaticPixPeriodCharged)
	w.wantBalance(ledger.Payees, 0)
}
