package rest_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/sandbox/payer"
	"ponte/testsupport"
)

// The application's own actions on requests that live on a test clock are dated in clock
// time, at the clock's current time and not at the request's creation: cancelling a
// scheduled payment (one, then the rest through GraphQL), an edit, a refund (whose answer then
// waits for the clock), a deletion, a retried charge (which the clock then runs) and, on an automatic PIX authorization, cancelling a charge and the
// authorization itself; each with its events dated so.
func TestActionsOnRequestsOnATestClock(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a := env.NewClient(t, "clock actions")
	key := a.APIKey
	recipient := env.Recipient(t, key)
	clock := env.Do(t, "POST", "/sandbox/test-clocks", key, map[string]any{"name": "actions", "frozenTime": "2031-01-01T12:00:00Z"}).Want(200).String("id")
	request := func(body map[string]any) string {
		body["isSandbox"], body["recipientId"], body["testClockId"] = true, recipient, clock
		return env.Do(t, "POST", "/payments/requests", key, body).Want(200).String("id")
	}
	consentByControl := func(reqID string) {
		id := env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": reqID, "connectorId": payConnector,
			"parameters": map[string]any{"cpf": happyCPF, "name": "Maria Silva"}}).Want(200).String("id")
		env.Do(t, "POST", "/sandbox/payments/payment-intents/"+id+"/status", key, map[string]any{"status": "CONSENT_AUTHORIZED"}).Want(200)
	}
	advance := func(to string) {
		env.Do(t, "POST", "/sandbox/test-clocks/"+clock+"/advance", key, map[string]any{"frozenTime": to}).Want(200)
		testsupport.Eventually(t, "the clock's advance to "+to, 30*time.Second, func() bool {
			return env.Do(t, "GET", "/sandbox/test-clocks/"+clock, key, nil).Want(200).String("status") == "ready"
		})
	}
	const now = "2031-01-02T12:00:00.000Z"

	scheduled := request(map[string]any{"amount": 10, "schedule": map[string]any{"type": "DAILY", "startDate": "2031-01-05", "occurrences": 3}})
	consentByControl(scheduled)
	paid := request(map[string]any{"amount": 10, "schedule": map[string]any{"type": "SINGLE", "date": "2031-01-02"}})
	consentByControl(paid)
	editable := request(map[string]any{"amount": 10})
	auto := env.Do(t, "POST", "/payments/requests/automatic-pix", key, map[string]any{"interval": "MONTHLY", "startDate": "2031-01-05",
		"fixedAmount": 30, "isSandbox": true, "testClockId": clock}).Want(200).String("id")
	consentByControl(auto)
	charge := env.Do(t, "POST", "/payments/requests/"+auto+"/automatic-pix/schedule", key, map[string]any{"amount": 30, "date": "2031-01-05"}).Want(200).String("id")
	// A payer without funds, whose weekly charges fail, for a retry.
	retried := env.Do(t, "POST", "/payments/requests/automatic-pix", key, map[string]any{"interval": "WEEKLY", "startDate": "2031-01-05",
		"fixedAmount": 30, "isRetryAccepted": true, "isSandbox": true, "testClockId": clock}).Want(200).String("id")
	id := env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": retried, "connectorId": payConnector,
		"parameters": map[string]any{"cpf": payer.CPFInsufficientFunds, "name": "Maria Silva"}}).Want(200).String("id")
	env.Do(t, "POST", "/sandbox/payments/payment-intents/"+id+"/status", key, map[string]any{"status": "CONSENT_AUTHORIZED"}).Want(200)
	env.Do(t, "POST", "/payments/requests/"+retried+"/automatic-pix/schedule", key, map[string]any{"amount": 30, "date": "2031-01-05"}).Want(200)
	failing := env.Do(t, "POST", "/payments/requests/"+retried+"/automatic-pix/schedule", key, map[string]any{"amount": 30, "date": "2031-01-12"}).Want(200).String("id")

	// A day on: the SINGLE payment ran at 08:00 in São Paulo, the rest waits.
	advance("2031-01-02T12:00:00Z")
	if s := env.Do(t, "GET", "/payments/requests/"+paid, key, nil).Want(200).String("status"); s != "COMPLETED" {
		t.Fatalf("request paid by its schedule on the clock: %s", s)
	}

	// Scheduled payments: one cancelled through REST, the rest through GraphQL.
	var list struct{ Results []map[string]any }
	env.Do(t, "GET", "/payments/requests/"+scheduled+"/schedules", key, nil).Want(200).JSON(&list)
	one := env.Do(t, "POST", "/payments/requests/"+scheduled+"/schedules/"+list.Results[0]["id"].(string)+"/cancel", key, nil).Want(200).Map()
	if one["status"] != "CANCELED" || one["updatedAt"] != now {
		t.Fatalf("scheduled payment cancelled on the clock: %v %v", one["status"], one["updatedAt"])
	}
	rest := env.GraphQL(t, key, `mutation($id: UUID!) { cancelScheduledPayments(paymentRequestId: $id) { results { status updatedAt } } }`,
		map[string]any{"id": scheduled}).OK(t)["cancelScheduledPayments"].(map[string]any)["results"].([]any)
	for _, r := range rest {
		if r := r.(map[string]any); r["status"] != "CANCELED" || r["updatedAt"] != now {
			t.Fatalf("scheduled payments cancelled through GraphQL on the clock: %v", rest)
		}
	}
	if r := env.Do(t, "GET", "/payments/requests/"+scheduled, key, nil).Want(200).Map(); r["updatedAt"] != now {
		t.Fatalf("request whose schedule was cancelled on the clock: %v %v", r["status"], r["updatedAt"])
	}

	// An edit, through REST and GraphQL.
	if r := env.Do(t, "PATCH", "/payments/requests/"+editable, key, map[string]any{"description": "editada"}).Want(200).Map(); r["updatedAt"] != now {
		t.Fatalf("request edited on the clock: %v", r["updatedAt"])
	}
	g := env.GraphQL(t, key, `mutation($id: UUID!) { updatePaymentRequest(id: $id, input: {amount: 12}) { updatedAt } }`, map[string]any{"id": editable}).OK(t)
	if g["updatePaymentRequest"].(map[string]any)["updatedAt"] != now {
		t.Fatalf("request edited through GraphQL on the clock: %v", g)
	}

	// A refund: started at the clock's time; the institution's answer waits for the clock.
	if r := env.Do(t, "POST", "/payments/requests/"+paid+"/refund", key, map[string]any{"amount": 4}).Want(200).Map(); r["status"] != "REFUND_IN_PROGRESS" || r["updatedAt"] != now {
		t.Fatalf("refund on the clock: %v %v", r["status"], r["updatedAt"])
	}
	advance("2031-01-02T13:00:00Z")
	if r := env.Do(t, "GET", "/payments/requests/"+paid, key, nil).Want(200).Map(); r["status"] != "COMPLETED" || r["updatedAt"] != now {
		t.Fatalf("partial refund answered by the advance: %v %v", r["status"], r["updatedAt"])
	}
	g = env.GraphQL(t, key, `mutation($id: UUID!) { refundPaymentRequest(paymentRequestId: $id) { status updatedAt } }`, map[string]any{"id": paid}).OK(t)
	if r := g["refundPaymentRequest"].(map[string]any); r["status"] != "REFUND_IN_PROGRESS" || r["updatedAt"] != "2031-01-02T13:00:00.000Z" {
		t.Fatalf("refund through GraphQL on the clock: %v", r)
	}

	// Automatic PIX: a charge cancelled through REST, the authorization through GraphQL.
	c := env.Do(t, "POST", "/payments/requests/"+auto+"/automatic-pix/schedules/"+charge+"/cancel", key, nil).Want(200).Map()
	if c["status"] != "CANCELED" || c["updatedAt"] != "2031-01-02T13:00:00.000Z" {
		t.Fatalf("charge cancelled on the clock: %v %v", c["status"], c["updatedAt"])
	}
	g = env.GraphQL(t, key, `mutation($id: UUID!) { cancelAutomaticPixAuthorization(paymentRequestId: $id) { status updatedAt } }`, map[string]any{"id": auto}).OK(t)
	if r := g["cancelAutomaticPixAuthorization"].(map[string]any); r["status"] != "CANCELED" || r["updatedAt"] != "2031-01-02T13:00:00.000Z" {
		t.Fatalf("authorization cancelled on the clock: %v", r)
	}

	// A charge retried on the clock: dated by it, and run again by an advance.
	advance("2031-01-12T20:00:00Z")
	chargePath := "/payments/requests/" + retried + "/automatic-pix/schedules/" + failing
	if c := env.Do(t, "GET", chargePath, key, nil).Want(200).Map(); c["status"] != "ERROR" {
		t.Fatalf("charge of a payer without funds on the clock: %v", c)
	}
	if c := env.Do(t, "POST", chargePath+"/retry", key, map[string]any{"date": "2031-01-15"}).Want(200).Map(); c["status"] != "SCHEDULED" || c["updatedAt"] != "2031-01-12T20:00:00.000Z" {
		t.Fatalf("charge retried on the clock: %v %v", c["status"], c["updatedAt"])
	}
	advance("2031-01-16T12:00:00Z")
	if c := env.Do(t, "GET", chargePath, key, nil).Want(200).Map(); c["status"] != "ERROR" || !strings.HasPrefix(c["updatedAt"].(string), "2031-01-15") {
		t.Fatalf("retried charge after the advance past its date: %v %v", c["status"], c["updatedAt"])
	}

	// A deletion cancels the request at the clock's time.
	env.Do(t, "DELETE", "/payments/requests/"+editable, key, nil).Want(200)

	events, err := env.DB.Events(context.Background(), uuid.MustParse(a.ID), nil)
	if err != nil {
		t.Fatal(err)
	}
	dated := map[string][]string{}
	for _, e := range events {
		id, _ := e.Payload["paymentRequestId"].(string)
		what := e.Event
		if s, ok := e.Payload["status"].(string); ok && e.Event == "payment_request/updated" {
			what += " " + s
		}
		dated[id] = append(dated[id], what+" "+e.CreatedAt.UTC().Format(time.RFC3339))
	}
	for id, want := range map[string][]string{
		scheduled: {"scheduled_payment/canceled 2031-01-02T12:00:00Z"},
		paid: {"payment_request/updated REFUND_IN_PROGRESS 2031-01-02T12:00:00Z", "payment_request/updated COMPLETED 2031-01-02T12:00:00Z",
			"payment_request/updated REFUND_IN_PROGRESS 2031-01-02T13:00:00Z"},
		editable: {"payment_request/updated CANCELED 2031-01-16T12:00:00Z"},
		auto:     {"automatic_pix_payment/canceled 2031-01-02T13:00:00Z", "payment_request/updated CANCELED 2031-01-02T13:00:00Z"},
	} {
		for _, w := range want {
			if !slices.Contains(dated[id], w) {
				t.Errorf("request %s: no %q among its events %v", id, w, dated[id])
			}
		}
		for _, d := range dated[id] {
			if d[len(d)-20:len(d)-16] != "2031" {
				t.Errorf("request %s: an event dated off the clock: %q", id, d)
			}
		}
	}
}
