package rest_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"ponte/model"
	"ponte/payments"
	"ponte/sandbox/payer"
	"ponte/testsupport"
)

func payURLPath(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Path
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

func autoPixCharges(t *testing.T, env *testsupport.Env, key, reqID string) []*model.AutomaticPixPayment {
	t.Helper()
	var page model.AutomaticPixPaymentPage
	env.Do(t, "GET", "/payments/requests/"+reqID+"/automatic-pix/schedules", key, nil).Want(200).JSON(&page)
	return page.Results
}

func awaitCharge(t *testing.T, env *testsupport.Env, key, reqID, id, status string) *model.AutomaticPixPayment {
	t.Helper()
	var a model.AutomaticPixPayment
	testsupport.Eventually(t, "charge "+id+" "+status, 20*time.Second, func() bool {
		env.Do(t, "GET", fmt.Sprintf("/payments/requests/%s/automatic-pix/schedules/%s", reqID, id), key, nil).Want(200).JSON(&a)
		return a.Status == status
	})
	return &a
}

// authorizeAutoPix starts and authorizes the consent of an automatic PIX request.
func authorizeAutoPix(t *testing.T, env *testsupport.Env, key, reqID, cpf string) *model.PaymentIntent {
	t.Helper()
	var n model.PaymentIntent
	env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": reqID, "connectorId": payConnector,
		"parameters": map[string]any{"cpf": cpf, "name": "Maria Silva"}}).Want(200).JSON(&n)
	consent(t, env, &n, "authorize").Want(http.StatusOK)
	return &n
}

func TestAutomaticPix(t *testing.T) {
	t.Parallel()
	rc := testsupport.NewTLSReceiver(t)
	env := scheduledEnv(t, rc)
	key := env.NewClient(t, "automatic-pix").APIKey
	env.Recipient(t, key)
	env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "all", "url": rc.URL + "/all"}).Want(200)

	terms := func(extra map[string]any) map[string]any {
		m := map[string]any{"interval": "MONTHLY", "startDate": day(1), "fixedAmount": 50, "isSandbox": true, "description": "Academia"}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	bad := []map[string]any{
		terms(map[string]any{"interval": "DAILY"}),
		terms(map[string]any{"startDate": nil}),
		terms(map[string]any{"startDate": day(-1)}),
		terms(map[string]any{"minimumVariableAmount": 10}),
		terms(map[string]any{"fixedAmount": nil, "minimumVariableAmount": 100, "maximumVariableAmount": 10}),
		terms(map[string]any{"fixedAmount": -5}),
		terms(map[string]any{"expiresAt": day(0)}),
		terms(map[string]any{"firstPayment": map[string]any{"amount": 0}}),
		terms(map[string]any{"firstPayment": map[string]any{"amount": 10, "date": day(-2)}}),
	}
	for _, b := range bad {
		env.Do(t, "POST", "/payments/requests/automatic-pix", key, b).WantError(400, model.CodeInvalidParameter.String())
	}

	// An authorization for 50.00 a month, with a first payment now; retries accepted.
	r := env.Do(t, "POST", "/payments/requests/automatic-pix", key, terms(map[string]any{"isRetryAccepted": true, "expiresAt": day(90),
		"firstPayment": map[string]any{"amount": 50, "description": "Matrícula"}})).Want(200)
	m := r.Map()
	if _, has := m["amount"]; has {
		t.Fatalf("an automatic PIX request has an amount: %v", m)
	}
	var p model.PaymentRequest
	r.JSON(&p)
	reqID := p.ID.String()
	if p.AutomaticPix == nil || p.AutomaticPix.Interval != "MONTHLY" || *p.AutomaticPix.FixedAmount != 50 || !p.AutomaticPix.IsRetryAccepted {
		t.Fatalf("terms %+v", p.AutomaticPix)
	}
	// The payer's name is required for automatic PIX (section 4.5).
	env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": reqID, "connectorId": payConnector,
		"parameters": map[string]any{"cpf": happyCPF}}).WantError(400, model.CodeInvalidParameter.String())
	// Nothing can be charged before the payer authorizes.
	env.Do(t, "POST", "/payments/requests/"+reqID+"/automatic-pix/schedule", key, map[string]any{"amount": 50, "date": day(2)}).
		WantError(409, model.CodePaymentRequestNotEditable.String())
	u := payURLPath(t, p.PaymentURL)
	if page := string(env.Do(t, "GET", u, "", nil).Want(200).Body); !containsAll(page, "MONTHLY a partir de", "R$ 50,00 por cobrança", `name="name" autocomplete="name" required`) {
		t.Fatalf("payment page does not state the terms:\n%s", page)
	}
	n := authorizeAutoPix(t, env, key, reqID, happyCPF)
	if s := env.Do(t, "GET", "/payments/requests/"+reqID, key, nil).Want(200).String("status"); s != payments.Authorized {
		t.Fatalf("request %s after consent, want AUTHORIZED", s)
	}
	if got := historyOf(intentOf(t, env, key, n.ID.String())); !slices.Equal(got, append(consentSteps, payments.ConsentAuthorized)) {
		t.Fatalf("intent steps %v", got)
	}
	charges := autoPixCharges(t, env, key, reqID)
	if len(charges) != 1 {
		t.Fatalf("%d charges after consent, want the first payment", len(charges))
	}
	first := awaitCharge(t, env, key, reqID, charges[0].ID.String(), payments.AutoCompleted)
	if first.EndToEndID == nil || !e2eRE.MatchString(*first.EndToEndID) || first.Amount != 50 || *first.Description != "Matrícula" {
		t.Fatalf("first payment %+v", first)
	}

	// Charges keep to the terms.
	for b, code := range map[string]model.Code{`{"amount": 49, "date": "` + day(2) + `"}`: model.CodeAutomaticPixAmountOutOfTerms,
		`{"amount": 50, "date": "` + day(0) + `"}`: model.CodeInvalidParameter, `{"amount": 50, "date": "` + day(91) + `"}`: model.CodeAutomaticPixDateOutOfTerms,
		`{"amount": 50}`: model.CodeInvalidParameter} {
		env.Do(t, "POST", "/payments/requests/"+reqID+"/automatic-pix/schedule", key, b).WantError(400, code.String())
	}
	// One charge a calendar month: the later one is in the month after the soon one's.
	soonDay, _ := time.Parse(time.DateOnly, day(2))
	laterDate := ymdOf(time.Date(soonDay.Year(), soonDay.Month()+1, 1, 0, 0, 0, 0, time.UTC))
	var soon, later model.AutomaticPixPayment
	env.Do(t, "POST", "/payments/requests/"+reqID+"/automatic-pix/schedule", key, map[string]any{"amount": 50, "date": day(2)}).Want(200).JSON(&soon)
	env.Do(t, "POST", "/payments/requests/"+reqID+"/automatic-pix/schedule", key, map[string]any{"amount": 50, "date": laterDate, "description": "Mensalidade"}).Want(200).JSON(&later)
	if soon.Status != payments.AutoScheduled || later.Date != laterDate {
		t.Fatalf("scheduled %+v %+v", soon, later)
	}
	awaitCharge(t, env, key, reqID, soon.ID.String(), payments.AutoCompleted)
	// A payment that completed is not retried; the later one is canceled, once.
	env.Do(t, "POST", fmt.Sprintf("/payments/requests/%s/automatic-pix/schedules/%s/retry", reqID, soon.ID), key, map[string]any{"date": day(3)}).
		WantError(409, "AUTOMATIC_PIX_PAYMENT_NOT_RETRIABLE")
	env.Do(t, "POST", fmt.Sprintf("/payments/requests/%s/automatic-pix/schedules/%s/cancel", reqID, later.ID), key, nil).Want(200).JSON(&later)
	if later.Status != payments.AutoCanceled {
		t.Fatalf("canceled %+v", later)
	}
	env.Do(t, "POST", fmt.Sprintf("/payments/requests/%s/automatic-pix/schedules/%s/cancel", reqID, later.ID), key, nil).
		WantError(409, "AUTOMATIC_PIX_PAYMENT_NOT_CANCELABLE")

	// The authorization ends: pending charges are canceled, the consent revoked.
	env.Do(t, "DELETE", "/payments/requests/"+reqID, key, nil).WantError(409, model.CodePaymentRequestNotEditable.String())
	var pending model.AutomaticPixPayment
	env.Do(t, "POST", "/payments/requests/"+reqID+"/automatic-pix/schedule", key, map[string]any{"amount": 50, "date": day(60)}).Want(200).JSON(&pending)
	env.Do(t, "POST", "/payments/requests/"+reqID+"/automatic-pix/cancel", key, nil).Want(200)
	if s := env.Do(t, "GET", "/payments/requests/"+reqID, key, nil).Want(200).String("status"); s != payments.Canceled {
		t.Fatalf("request %s after the authorization was canceled", s)
	}
	if got := intentOf(t, env, key, n.ID.String()).Status; got != payments.Revoked {
		t.Fatalf("intent %s after the authorization was canceled", got)
	}
	if a := awaitCharge(t, env, key, reqID, pending.ID.String(), payments.AutoCanceled); a.EndToEndID != nil {
		t.Fatalf("canceled charge %+v", a)
	}
	env.Do(t, "POST", "/payments/requests/"+reqID+"/automatic-pix/schedule", key, map[string]any{"amount": 50, "date": day(2)}).
		WantError(409, model.CodePaymentRequestNotEditable.String())

	want := map[string]int{"automatic_pix_payment/created": 4, "automatic_pix_payment/completed": 2, "automatic_pix_payment/canceled": 2}
	awaitRequestEvents(t, rc, reqID, want)
	for _, x := range rc.Of("automatic_pix_payment/completed", "") {
		if x.Payload["automaticPixPaymentId"] == nil || x.Payload["endToEndId"] == nil {
			t.Fatalf("completed event %v", x.Payload)
		}
	}
}

// Charges to a payer without the balance fail; a failed one (never the first) may be
// retried within a week of its date when the terms accept retries.
func TestAutomaticPixRetry(t *testing.T) {
	t.Parallel()
	rc := testsupport.NewTLSReceiver(t)
	env := scheduledEnv(t, rc)
	key := env.NewClient(t, "automatic-pix-retry").APIKey
	env.Recipient(t, key)
	reqID := env.Do(t, "POST", "/payments/requests/automatic-pix", key, map[string]any{"interval": "WEEKLY", "startDate": day(0),
		"minimumVariableAmount": 10, "maximumVariableAmount": 100, "isRetryAccepted": true, "isSandbox": true,
		"firstPayment": map[string]any{"amount": 20}}).Want(200).String("id")
	authorizeAutoPix(t, env, key, reqID, payer.CPFInsufficientFunds)
	first := awaitCharge(t, env, key, reqID, autoPixCharges(t, env, key, reqID)[0].ID.String(), payments.AutoError)
	if first.ErrorDetail == nil || first.ErrorDetail.Code != "INSUFFICIENT_FUNDS" {
		t.Fatalf("first payment %+v", first)
	}
	env.Do(t, "POST", fmt.Sprintf("/payments/requests/%s/automatic-pix/schedules/%s/retry", reqID, first.ID), key, map[string]any{"date": day(1)}).
		WantError(409, "AUTOMATIC_PIX_RETRY_NOT_ACCEPTED")
	var charge model.AutomaticPixPayment
	env.Do(t, "POST", "/payments/requests/"+reqID+"/automatic-pix/schedule", key, map[string]any{"amount": 150, "date": day(2)}).WantError(400, model.CodeAutomaticPixAmountOutOfTerms.String())
	env.Do(t, "POST", "/payments/requests/"+reqID+"/automatic-pix/schedule", key, map[string]any{"amount": 75.5, "date": day(2)}).Want(200).JSON(&charge)
	awaitCharge(t, env, key, reqID, charge.ID.String(), payments.AutoError)
	retry := fmt.Sprintf("/payments/requests/%s/automatic-pix/schedules/%s/retry", reqID, charge.ID)
	env.Do(t, "POST", retry, key, map[string]any{"date": day(10)}).WantError(400, model.CodeAutomaticPixDateOutOfTerms.String())
	env.Do(t, "POST", retry, key, map[string]any{"date": day(5)}).Want(200).JSON(&charge)
	if charge.Status != payments.AutoScheduled || charge.Date != day(5) || charge.ErrorDetail != nil {
		t.Fatalf("retried %+v", charge)
	}
}

// An automatic PIX authorization has 60 minutes, not 30 (section 8); both are configurable.
func TestAutomaticPixTimeout(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t, func(s *testsupport.Setup) { s.Payments.AutomaticPixTimeout = time.Second })
	key := env.NewClient(t, "automatic-pix-timeout").APIKey
	env.Recipient(t, key)
	auto := env.Do(t, "POST", "/payments/requests/automatic-pix", key, map[string]any{"interval": "MONTHLY", "startDate": day(1), "fixedAmount": 10,
		"isSandbox": true}).Want(200).String("id")
	single := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 10, "isSandbox": true}).Want(200).String("id")
	ids := map[string]string{}
	for _, req := range []string{auto, single} {
		ids[req] = env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": req, "connectorId": payConnector,
			"parameters": map[string]any{"cpf": happyCPF, "name": "Maria"}}).Want(200).String("id")
	}
	n := awaitIntent(t, env, key, ids[auto], payments.PaymentTimeout)
	if n.ErrorDetail == nil || n.ErrorDetail.Code != "PAYMENT_TIMEOUT" {
		t.Fatalf("%+v", n.ErrorDetail)
	}
	if s := intentOf(t, env, key, ids[single]).Status; s != payments.ConsentAwaitingAuthorization {
		t.Fatalf("the regular intent, on its 30 minutes, is %s", s)
	}
}
