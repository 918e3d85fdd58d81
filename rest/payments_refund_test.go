package rest_test

import (
	"strings"
	"testing"
	"time"

	"ponte/model"
	"ponte/payments"
	"ponte/sandbox/payer"
	"ponte/testsupport"
)

// Refunds through HTTP and GraphQL: a partial refund leaves the request COMPLETED with the
// refunded amount, the rest makes it REFUNDED; more than remains is a 400, a request that
// is not COMPLETED a 409; a refused refund (,99 in the sandbox) ends REFUND_ERROR and may
// be asked again; every move is a payment_request/updated event.
func TestPaymentRefunds(t *testing.T) {
	t.Parallel()
	rc := testsupport.NewTLSReceiver(t)
	env := testsupport.New(t, rc.Route)
	key := env.NewClient(t, "refunds").APIKey
	env.Recipient(t, key)
	env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "payment_request/updated", "url": rc.URL + "/r"}).Want(200)
	paid := func(amount float64) string {
		id := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": amount, "isSandbox": true}).Want(200).String("id")
		var n model.PaymentIntent
		env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": id, "connectorId": payConnector,
			"parameters": map[string]any{"cpf": happyCPF}}).Want(200).JSON(&n)
		consent(t, env, &n, "authorize")
		awaitIntent(t, env, key, n.ID.String(), payments.PaymentCompleted)
		return id
	}
	await := func(id, status string) model.PaymentRequest {
		var p model.PaymentRequest
		testsupport.Eventually(t, id+" "+status, 20*time.Second, func() bool {
			env.Do(t, "GET", "/payments/requests/"+id, key, nil).Want(200).JSON(&p)
			return p.Status == status
		})
		return p
	}

	unpaid := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 5, "isSandbox": true}).Want(200).String("id")
	env.Do(t, "POST", "/payments/requests/"+unpaid+"/refund", key, map[string]any{}).WantError(409, model.CodePaymentRequestNotRefundable.String())

	id := paid(100)
	env.Do(t, "POST", "/payments/requests/"+id+"/refund", key, map[string]any{"amount": 100.01}).WantError(400, model.CodeInvalidParameter.String())
	env.Do(t, "POST", "/payments/requests/"+id+"/refund", key, map[string]any{"amount": 0.001}).WantError(400, model.CodeInvalidParameter.String())
	if p := env.Do(t, "POST", "/payments/requests/"+id+"/refund", key, map[string]any{"amount": 30.5}).Want(200).Map(); p["status"] != payments.RefundInProgress {
		t.Fatalf("after asking a refund: %v", p["status"])
	}
	env.Do(t, "POST", "/payments/requests/"+id+"/refund", key, map[string]any{}).WantError(409, model.CodePaymentRequestNotRefundable.String())
	if p := await(id, payments.Completed); p.RefundedAmount != 30.5 {
		t.Fatalf("after a partial refund: %+v", p)
	}
	g := env.GraphQL(t, key, `mutation($id: UUID!) { refundPaymentRequest(paymentRequestId: $id) { status refundedAmount } }`,
		map[string]any{"id": id}).OK(t)["refundPaymentRequest"].(map[string]any)
	if g["status"] != payments.RefundInProgress {
		t.Fatalf("GraphQL refund %v", g)
	}
	if p := await(id, payments.Refunded); p.RefundedAmount != 100 {
		t.Fatalf("after the rest: %+v", p)
	}
	env.Do(t, "POST", "/payments/requests/"+id+"/refund", key, map[string]any{}).WantError(409, model.CodePaymentRequestNotRefundable.String())

	refused := paid(10)
	env.Do(t, "POST", "/payments/requests/"+refused+"/refund", key, map[string]any{"amount": 4.99}).Want(200)
	if p := await(refused, payments.RefundError); p.RefundedAmount != 0 || p.ErrorDetail == nil || p.ErrorDetail.Code != "REFUND_REJECTED" {
		t.Fatalf("refused refund %+v", p)
	}
	env.Do(t, "POST", "/payments/requests/"+refused+"/refund", key, map[string]any{}).Want(200)
	await(refused, payments.Refunded)

	got := rc.Await(t, "refund events", 20*time.Second, func(d []testsupport.Delivery) bool {
		n := 0
		for _, e := range d {
			if e.Payload["paymentRequestId"] == id && (e.Payload["status"] == payments.RefundInProgress || e.Payload["status"] == payments.Refunded) {
				n++
			}
		}
		return n >= 3
	})
	if len(got) == 0 {
		t.Fatal("no events")
	}
}

// A request nobody pays becomes EXPIRED after the configured time (here half a second),
// with its event; one being paid is left to its payer; an expired request takes no intent.
func TestPaymentRequestExpiry(t *testing.T) {
	t.Parallel()
	rc := testsupport.NewTLSReceiver(t)
	env := testsupport.New(t, rc.Route, func(s *testsupport.Setup) { s.Payments.RequestExpiry = 500 * time.Millisecond })
	key := env.NewClient(t, "expiry").APIKey
	env.Recipient(t, key)
	env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "payment_request/updated", "url": rc.URL + "/e"}).Want(200)
	idle := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 5, "isSandbox": true}).Want(200).String("id")
	busy := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 6, "isSandbox": true}).Want(200).String("id")
	env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": busy, "connectorId": payConnector,
		"parameters": map[string]any{"cpf": happyCPF}}).Want(200)
	testsupport.Eventually(t, "the idle request to expire", 20*time.Second, func() bool {
		return env.Do(t, "GET", "/payments/requests/"+idle, key, nil).Want(200).String("status") == payments.Expired
	})
	rc.Await(t, "the EXPIRED event", 20*time.Second, func(d []testsupport.Delivery) bool {
		for _, e := range d {
			if e.Payload["paymentRequestId"] == idle && e.Payload["status"] == payments.Expired {
				return true
			}
		}
		return false
	})
	if s := env.Do(t, "GET", "/payments/requests/"+busy, key, nil).Want(200).String("status"); s != payments.WaitingPayerAuthorization {
		t.Fatalf("a request being paid became %s", s)
	}
	env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": idle, "connectorId": payConnector,
		"parameters": map[string]any{"cpf": happyCPF}}).WantError(409, model.CodePaymentRequestNotAvailable.String())
}

// The institution refusing an attempt before the payer is asked (the sandbox's blocked
// account) ends the intent REJECTED with its reason, and gives the request back.
func TestPaymentIntentRejected(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "rejected").APIKey
	env.Recipient(t, key)
	req := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 7, "isSandbox": true}).Want(200).String("id")
	var n model.PaymentIntent
	env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": req, "connectorId": payConnector,
		"parameters": map[string]any{"cpf": payer.CPFAccountBlocked}}).Want(200).JSON(&n)
	if n.Status != payments.IntentRejected || n.ErrorDetail == nil || n.ErrorDetail.Code != "ACCOUNT_BLOCKED" ||
		strings.Join(historyOf(&n), " ") != "STARTED ENQUEUED REJECTED" {
		t.Fatalf("intent %+v history %v", n, historyOf(&n))
	}
	if s := env.Do(t, "GET", "/payments/requests/"+req, key, nil).Want(200).String("status"); s != payments.Created {
		t.Fatalf("request after a rejected attempt: %s", s)
	}
}
