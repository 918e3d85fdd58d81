package rest_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"ponte/model"
	"ponte/payments"
	"ponte/sandbox/payer"
	"ponte/testsupport"
)

// The sandbox's payment connectors (GET /connectors?supportsPaymentInitiation=true&sandbox=true).
const payConnector = 5

const happyCPF = "11144477735"

// e2eRE is the form of a PIX end-to-end id: E, an ISPB, yyyyMMddHHmm and 11 characters.
var e2eRE = regexp.MustCompile(`^E\d{8}20\d{10}[A-Z0-9]{11}$`)

func steps(list ...string) []string { return list }

var (
	consentSteps = steps(payments.Started, payments.Enqueued, payments.ConsentAwaitingAuthorization)
	settleSteps  = steps(payments.ConsentAuthorized, payments.PaymentPending, payments.SettlementProcessing, payments.SettlementDebtorAccount)
)

func intentOf(t *testing.T, env *testsupport.Env, key, id string) *model.PaymentIntent {
	t.Helper()
	var n model.PaymentIntent
	env.Do(t, "GET", "/payments/intents/"+id, key, nil).Want(200).JSON(&n)
	return &n
}

func historyOf(n *model.PaymentIntent) []string {
	var out []string
	for _, s := range n.StatusHistory {
		out = append(out, s.Status)
	}
	return out
}

// awaitIntent waits for an intent to reach status.
func awaitIntent(t *testing.T, env *testsupport.Env, key, id, status string) *model.PaymentIntent {
	t.Helper()
	var n *model.PaymentIntent
	testsupport.Eventually(t, "intent "+id+" "+status, 20*time.Second, func() bool {
		n = intentOf(t, env, key, id)
		return n.Status == status
	})
	return n
}

// consent answers the consent page by a real form post, as the payer's browser would.
func consent(t *testing.T, env *testsupport.Env, n *model.PaymentIntent, decision string) *testsupport.Response {
	t.Helper()
	u, err := url.Parse(*n.ConsentURL)
	if err != nil {
		t.Fatal(err)
	}
	return env.Form(t, u.Path, url.Values{"decision": {decision}})
}

// Each sandbox scenario from the payer's side: the consent page, every status step, the
// request's status, the error code and the events at the request's own webhookUrl.
func TestPaymentScenarios(t *testing.T) {
	t.Parallel()
	rc := testsupport.NewTLSReceiver(t)
	env := testsupport.New(t, rc.Route)
	key := env.NewClient(t, "payments").APIKey
	env.Recipient(t, key)

	cases := []struct {
		name      string
		cpf       string
		decisions []string
		steps     []string
		request   string
		errorCode string
		events    []string
	}{
		{"completes", happyCPF, []string{"authorize"}, append(append(consentSteps, settleSteps...), payments.PaymentCompleted),
			payments.Completed, "", []string{"payment_intent/created", "payment_intent/waiting_payer_authorization", "payment_intent/completed"}},
		{"payer rejects on the consent page", happyCPF, []string{"reject"}, append(consentSteps, payments.ConsentRejected),
			payments.Created, "REJECTED_BY_USER", []string{"payment_intent/created", "payment_intent/waiting_payer_authorization", "payment_intent/error"}},
		{"payer rejects in the institution's app", payer.CPFRejectedInApp, []string{"authorize"}, append(consentSteps, payments.ConsentRejected),
			payments.Created, "REJECTED_BY_USER", []string{"payment_intent/created", "payment_intent/waiting_payer_authorization", "payment_intent/error"}},
		{"insufficient balance", payer.CPFInsufficientFunds, []string{"authorize"}, append(consentSteps, payments.ConsentAuthorized, payments.PaymentPending, payments.PaymentRejected),
			payments.RequestError, "INSUFFICIENT_FUNDS", []string{"payment_intent/created", "payment_intent/waiting_payer_authorization", "payment_intent/error"}},
		{"limit exceeded", payer.CPFLimitExceeded, []string{"authorize"}, append(consentSteps, payments.ConsentAuthorized, payments.PaymentPending, payments.PaymentRejected),
			payments.RequestError, "LIMIT_EXCEEDED", []string{"payment_intent/created", "payment_intent/waiting_payer_authorization", "payment_intent/error"}},
		{"settlement failure", payer.CPFSettlementFailure, []string{"authorize"},
			append(consentSteps, payments.ConsentAuthorized, payments.PaymentPending, payments.SettlementProcessing, payments.PaymentRejected),
			payments.RequestError, "SETTLEMENT_FAILED", []string{"payment_intent/created", "payment_intent/waiting_payer_authorization", "payment_intent/error"}},
		{"multi-signature", payer.CPFMultiSignature, []string{"authorize", "authorize"},
			append(consentSteps, payments.ConsentAuthorized, payments.PaymentPending, payments.PaymentPartiallyAccepted,
				payments.SettlementProcessing, payments.SettlementDebtorAccount, payments.PaymentCompleted),
			payments.Completed, "", []string{"payment_intent/created", "payment_intent/waiting_payer_authorization", "payment_intent/waiting_payer_authorization", "payment_intent/completed"}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := fmt.Sprintf("/request-%d", i)
			req := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 150.75, "description": "Pedido " + c.name, "isSandbox": true,
				"webhookUrl": rc.URL + path, "callbackUrls": map[string]any{"success": "https://shop.example/ok", "error": "https://shop.example/fail"}}).Want(200).Map()
			reqID := req["id"].(string)
			if req["status"] != payments.Created || req["fees"] != 0.0 || req["recipient"] == nil {
				t.Fatalf("new request %v", req)
			}
			// Half the scenarios start their intent through GraphQL, half through REST.
			var n model.PaymentIntent
			if i%2 == 1 {
				d := env.GraphQL(t, key, `mutation($r: String, $cpf: String) { createPaymentIntent(input: {paymentRequestId: $r, connectorId: 5,
					parameters: {cpf: $cpf, name: "Maria Silva"}}) { id } }`, map[string]any{"r": reqID, "cpf": c.cpf}).OK(t)
				n = *intentOf(t, env, key, d["createPaymentIntent"].(map[string]any)["id"].(string))
			} else {
				env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": reqID, "connectorId": payConnector,
					"parameters": map[string]any{"cpf": c.cpf, "name": "Maria Silva"}}).Want(200).JSON(&n)
			}
			if n.Status != payments.ConsentAwaitingAuthorization || n.ConsentURL == nil || n.PaymentMethod != "PIS" {
				t.Fatalf("new intent %+v", n)
			}
			if n.ReferenceID == nil || !e2eRE.MatchString(*n.ReferenceID) {
				t.Fatalf("referenceId %v is not a PIX end-to-end id", n.ReferenceID)
			}
			if got := env.Do(t, "GET", "/payments/requests/"+reqID, key, nil).Want(200).String("status"); got != payments.WaitingPayerAuthorization {
				t.Fatalf("request status %s while the payer decides", got)
			}
			u, _ := url.Parse(*n.ConsentURL)
			page := string(env.Do(t, "GET", u.Path, "", nil).Want(200).Body)
			for _, want := range []string{"R$ 150,75", "Loja Exemplo Ltda", "Maria Silva", "CPF " + c.cpf[:3] + ".***.***-" + c.cpf[9:], `value="authorize"`} {
				if !strings.Contains(page, want) {
					t.Fatalf("consent page lacks %q:\n%s", want, page)
				}
			}
			for j, d := range c.decisions {
				if j > 0 {
					awaitIntent(t, env, key, n.ID.String(), payments.PaymentPartiallyAccepted)
					if !strings.Contains(string(env.Do(t, "GET", u.Path, "", nil).Want(200).Body), "segundo responsável") {
						t.Fatal("the consent page does not ask for the second signer")
					}
				}
				r := consent(t, env, &n, d)
				if r.Status != http.StatusSeeOther {
					t.Fatalf("decision %s: status %d: %s", d, r.Status, r.Body)
				}
			}
			final := awaitIntent(t, env, key, n.ID.String(), c.steps[len(c.steps)-1])
			if got := historyOf(final); !slices.Equal(got, c.steps) {
				t.Fatalf("steps %v, want %v", got, c.steps)
			}
			var got model.PaymentRequest
			env.Do(t, "GET", "/payments/requests/"+reqID, key, nil).Want(200).JSON(&got)
			if got.Status != c.request {
				t.Fatalf("request status %s, want %s", got.Status, c.request)
			}
			if c.errorCode == "" {
				if final.ErrorDetail != nil || final.Debtor == nil || final.Debtor.TaxNumber != c.cpf {
					t.Fatalf("completed intent: error %+v debtor %+v", final.ErrorDetail, final.Debtor)
				}
			} else {
				if final.ErrorDetail == nil || final.ErrorDetail.Code != c.errorCode || got.ErrorDetail == nil || got.ErrorDetail.Code != c.errorCode {
					t.Fatalf("error detail: intent %+v, request %+v; want %s", final.ErrorDetail, got.ErrorDetail, c.errorCode)
				}
				if final.Debtor != nil {
					t.Fatalf("a failed payment has a debtor: %+v", final.Debtor)
				}
			}

			// The request's own webhookUrl gets every event of the request and only those.
			got2 := rc.Await(t, "every event at "+path, 20*time.Second, func(d []testsupport.Delivery) bool {
				intentEvents, statuses := 0, map[any]bool{}
				for _, x := range d {
					if x.Path != path {
						continue
					}
					if x.Payload["event"] == "payment_request/updated" {
						statuses[x.Payload["status"]] = true
					} else {
						intentEvents++
					}
				}
				return statuses[c.request] && statuses[payments.InProgress] && statuses[payments.WaitingPayerAuthorization] && intentEvents >= len(c.events)
			})
			var names, statuses []string
			for _, d := range got2 {
				if d.Path != path {
					continue
				}
				if d.Payload["paymentRequestId"] != reqID {
					t.Fatalf("event of another request at %s: %v", path, d.Payload)
				}
				ev := d.Payload["event"].(string)
				if ev == "payment_request/updated" {
					statuses = append(statuses, d.Payload["status"].(string))
					continue
				}
				names = append(names, ev)
				if d.Payload["paymentIntentId"] != n.ID.String() {
					t.Fatalf("%s without the intent's id: %v", ev, d.Payload)
				}
				switch ev {
				case "payment_intent/completed":
					if d.Payload["referenceId"] != *n.ReferenceID {
						t.Fatalf("completed event %v", d.Payload)
					}
				case "payment_intent/error":
					e, _ := d.Payload["error"].(map[string]any)
					if e["code"] != c.errorCode || e["description"] == "" {
						t.Fatalf("error event %v", d.Payload)
					}
				}
			}
			// Deliveries run in parallel and may arrive in any order.
			slices.Sort(names)
			want := slices.Sorted(slices.Values(c.events))
			if !slices.Equal(names, want) {
				t.Fatalf("intent events %v, want %v", names, want)
			}
			if !slices.Contains(statuses, payments.InProgress) || !slices.Contains(statuses, payments.WaitingPayerAuthorization) || !slices.Contains(statuses, c.request) {
				t.Fatalf("payment_request/updated statuses %v, want IN_PROGRESS, WAITING_PAYER_AUTHORIZATION and %s", statuses, c.request)
			}

			// Moves the tables do not allow are refused.
			switch c.request {
			case payments.Completed:
				consent(t, env, &n, "authorize").Want(http.StatusConflict)
				env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": reqID, "connectorId": payConnector,
					"parameters": map[string]any{"cpf": happyCPF}}).WantError(409, model.CodePaymentRequestNotAvailable.String())
				env.Do(t, "PATCH", "/payments/requests/"+reqID, key, map[string]any{"amount": 10}).WantError(409, model.CodePaymentRequestNotEditable.String())
				env.Do(t, "DELETE", "/payments/requests/"+reqID, key, nil).WantError(409, model.CodePaymentRequestNotEditable.String())
			case payments.Created:
				// The payer may try again with another attempt.
				consent(t, env, &n, "authorize").Want(http.StatusConflict)
				env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": reqID, "connectorId": payConnector,
					"parameters": map[string]any{"cpf": happyCPF}}).Want(200)
			}
		})
	}
}

// Fifty payers racing on one request: exactly one attempt proceeds.
func TestPaymentIntentRace(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "race").APIKey
	env.Recipient(t, key)
	reqID := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 10, "isSandbox": true}).Want(200).String("id")
	const racers = 50
	var wg sync.WaitGroup
	results := make([]*testsupport.Response, racers)
	start := make(chan struct{})
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			results[i] = env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": reqID, "connectorId": payConnector,
				"parameters": map[string]any{"cpf": happyCPF}})
		}()
	}
	close(start)
	wg.Wait()
	won := 0
	for _, r := range results {
		switch r.Status {
		case 200:
			won++
		case 409:
			r.WantError(409, model.CodePaymentRequestNotAvailable.String())
		default:
			t.Fatalf("status %d: %s", r.Status, r.Body)
		}
	}
	if won != 1 {
		t.Fatalf("%d intents proceeded, want exactly 1", won)
	}
	page := env.Do(t, "GET", "/payments/intents?paymentRequestId="+reqID, key, nil).Want(200).Map()
	if page["total"] != 1.0 {
		t.Fatalf("intents of the request: %v", page["total"])
	}
	if s := env.Do(t, "GET", "/payments/requests/"+reqID, key, nil).Want(200).String("status"); s != payments.WaitingPayerAuthorization {
		t.Fatalf("request %s", s)
	}
}

// An attempt not authorized in time ends in PAYMENT_TIMEOUT and gives the request back.
func TestPaymentTimeout(t *testing.T) {
	t.Parallel()
	rc := testsupport.NewTLSReceiver(t)
	env := testsupport.New(t, func(s *testsupport.Setup) {
		rc.Route(s)
		s.Payments.AuthorizationTimeout = time.Second
	})
	key := env.NewClient(t, "timeout").APIKey
	env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "payment_intent/error", "url": rc.URL + "/errors"}).Want(200)
	env.Recipient(t, key)
	reqID := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 10, "isSandbox": true}).Want(200).String("id")
	id := env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": reqID, "connectorId": payConnector,
		"parameters": map[string]any{"cpf": happyCPF}}).Want(200).String("id")
	n := awaitIntent(t, env, key, id, payments.PaymentTimeout)
	if got := historyOf(n); !slices.Equal(got, append(consentSteps, payments.PaymentTimeout)) {
		t.Fatalf("steps %v", got)
	}
	if n.ErrorDetail == nil || n.ErrorDetail.Code != "PAYMENT_TIMEOUT" {
		t.Fatalf("error detail %+v", n.ErrorDetail)
	}
	if s := env.Do(t, "GET", "/payments/requests/"+reqID, key, nil).Want(200).String("status"); s != payments.Created {
		t.Fatalf("request %s after the time-out, want CREATED", s)
	}
	d := rc.Await(t, "payment_intent/error", 20*time.Second, func(d []testsupport.Delivery) bool { return len(d) > 0 })
	if e, _ := d[0].Payload["error"].(map[string]any); e["code"] != "PAYMENT_TIMEOUT" || d[0].Payload["paymentIntentId"] != id || d[0].Payload["triggeredBy"] != "INTERNAL" {
		t.Fatalf("event %v", d[0].Payload)
	}
	// The late payer finds the attempt closed.
	consent(t, env, n, "authorize").Want(http.StatusConflict)
}
