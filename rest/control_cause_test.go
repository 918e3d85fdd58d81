package rest_test

import (
	"encoding/json"
	"strings"
	"testing"

	"ponte/model"
	"ponte/testsupport"
)

// A control move's steps say so in the intent's status history (REST omits the cause of
// the other steps, GraphQL gives null), and a dated authorization failed by a move cancels
// what it had scheduled, with the events, instead of leaving it to run.
func TestSandboxControlStepCauseAndDatedFailure(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a := env.NewClient(t, "movecause-a")
	recipientFor(t, env, a.APIKey, "Loja Exemplo Ltda", "11222333000181", true)

	reqID := env.Do(t, "POST", "/payments/requests", a.APIKey, map[string]any{"amount": 10, "isSandbox": true,
		"schedule": map[string]any{"type": "DAILY", "startDate": day(2), "occurrences": 3}}).Want(200).String("id")
	intentID := env.Do(t, "POST", "/payments/intents", a.APIKey, map[string]any{"paymentRequestId": reqID, "connectorId": payConnector,
		"parameters": map[string]any{"cpf": happyCPF, "name": "Maria Silva"}}).Want(200).String("id")
	intentPath := "/sandbox/payments/payment-intents/" + intentID + "/status"
	env.Do(t, "POST", intentPath, a.APIKey, map[string]any{"status": "CONSENT_AUTHORIZED"}).Want(200)
	var page model.ScheduledPaymentPage
	env.Do(t, "GET", "/payments/requests/"+reqID+"/schedules", a.APIKey, nil).Want(200).JSON(&page)
	if len(page.Results) != 3 {
		t.Fatalf("schedules after the authorization: %d", len(page.Results))
	}
	// The first runs now; the consent then fails.
	env.Do(t, "POST", "/sandbox/payments/scheduled-payments/"+page.Results[0].ID.String()+"/status", a.APIKey,
		map[string]any{"status": "COMPLETED"}).Want(200)
	var mv model.SandboxPaymentMove
	env.Do(t, "POST", intentPath, a.APIKey, map[string]any{"status": "ERROR",
		"errorDetail": map[string]any{"description": "Consentimento revogado na instituição"}}).Want(200).JSON(&mv)
	if mv.PaymentIntent.Status != "ERROR" || mv.PaymentRequest.Status != "ERROR" || mv.PaymentIntent.ErrorDetail == nil ||
		mv.PaymentIntent.ErrorDetail.Description != "Consentimento revogado na instituição" {
		t.Fatalf("dated consent failed by a move: %+v / %+v", mv.PaymentIntent, mv.PaymentRequest)
	}
	env.Do(t, "GET", "/payments/requests/"+reqID+"/schedules", a.APIKey, nil).Want(200).JSON(&page)
	want := []string{"COMPLETED", "CANCELED", "CANCELED"}
	for i, s := range page.Results {
		if s.Status != want[i] {
			t.Fatalf("schedule %d after the consent failed: %s, want %s", i, s.Status, want[i])
		}
	}
	canceled := map[string]bool{}
	for _, ev := range env.Events(t, a.APIKey, "") {
		if ev["event"] == "scheduled_payment/canceled" {
			raw, _ := json.Marshal(ev["payload"])
			for _, s := range page.Results[1:] {
				canceled[s.ID.String()] = canceled[s.ID.String()] || strings.Contains(string(raw), s.ID.String())
			}
		}
	}
	if len(canceled) != 2 || !canceled[page.Results[1].ID.String()] || !canceled[page.Results[2].ID.String()] {
		t.Fatalf("scheduled_payment/canceled for the payments left: %v", canceled)
	}
	// Nothing is left to run: a later move of a canceled payment is refused.
	env.Do(t, "POST", "/sandbox/payments/scheduled-payments/"+page.Results[1].ID.String()+"/status", a.APIKey,
		map[string]any{"status": "COMPLETED"}).WantError(400, model.CodeSandboxMoveNotAllowed.String())
	env.AuditLedger(t)

	// The history: STARTED, ENQUEUED and CONSENT_AWAITING_AUTHORIZATION are the service's own
	// steps, CONSENT_AUTHORIZED and ERROR the moves'.
	wantCause := map[string]any{"STARTED": nil, "ENQUEUED": nil, "CONSENT_AWAITING_AUTHORIZATION": nil,
		"CONSENT_AUTHORIZED": "SANDBOX_CONTROL", "ERROR": "SANDBOX_CONTROL"}
	check := func(surface string, steps []any) {
		t.Helper()
		if len(steps) != len(wantCause) {
			t.Fatalf("%s: history %v", surface, steps)
		}
		for _, s := range steps {
			m := s.(map[string]any)
			cause, present := m["cause"]
			if cause != wantCause[m["status"].(string)] {
				t.Fatalf("%s: step %v has cause %v", surface, m["status"], cause)
			}
			if surface == "REST" && cause == nil && present {
				t.Fatalf("REST: step %v shows a cause it has not: %v", m["status"], m)
			}
		}
	}
	check("REST", env.Do(t, "GET", "/payments/intents/"+intentID, a.APIKey, nil).Want(200).Map()["statusHistory"].([]any))
	d := env.GraphQL(t, a.APIKey, `query($id: UUID!) { paymentIntent(id: $id) { statusHistory { status at cause } } }`,
		map[string]any{"id": intentID}).OK(t)
	check("GraphQL", d["paymentIntent"].(map[string]any)["statusHistory"].([]any))
}
