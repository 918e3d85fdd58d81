package rest_test

import (
	"strings"
	"testing"

	"ponte/model"
	"ponte/testsupport"
)

// Scheduled payments and automatic PIX charges moved through REST and GraphQL on the real
// service: a dated request run to its end by control moves, a charge paid and the
// recurring authorization CONSUMED, the refusals, then hostile callers.
func TestSandboxControlDatedPayments(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a, b := env.NewClient(t, "datedmove-a"), env.NewClient(t, "datedmove-b")
	recipientFor(t, env, a.APIKey, "Loja Exemplo Ltda", "11222333000181", true)
	authorizeByControl := func(reqID string) string {
		id := env.Do(t, "POST", "/payments/intents", a.APIKey, map[string]any{"paymentRequestId": reqID, "connectorId": payConnector,
			"parameters": map[string]any{"cpf": happyCPF, "name": "Maria Silva"}}).Want(200).String("id")
		env.Do(t, "POST", "/sandbox/payments/payment-intents/"+id+"/status", a.APIKey, map[string]any{"status": "CONSENT_AUTHORIZED"}).Want(200)
		return id
	}

	reqID := env.Do(t, "POST", "/payments/requests", a.APIKey, map[string]any{"amount": 10, "isSandbox": true,
		"schedule": map[string]any{"type": "DAILY", "startDate": day(2), "occurrences": 2}}).Want(200).String("id")
	intentID := authorizeByControl(reqID)
	var page model.ScheduledPaymentPage
	env.Do(t, "GET", "/payments/requests/"+reqID+"/schedules", a.APIKey, nil).Want(200).JSON(&page)
	first, second := page.Results[0].ID.String(), page.Results[1].ID.String()
	schedPath := "/sandbox/payments/scheduled-payments/" + first + "/status"

	var mv model.SandboxPaymentMove
	env.Do(t, "POST", schedPath, a.APIKey, map[string]any{"status": "COMPLETED"}).Want(200).JSON(&mv)
	if mv.Kind != "scheduled-payments" || mv.From != "SCHEDULED" || mv.ScheduledPayment == nil || mv.ScheduledPayment.Status != "COMPLETED" ||
		mv.PaymentRequest.Status != "SCHEDULED" {
		t.Fatalf("scheduled payment move: %+v", mv)
	}
	e := env.Do(t, "POST", schedPath, a.APIKey, map[string]any{"status": "ERROR"}).WantError(400, model.CodeSandboxMoveNotAllowed.String())
	if !strings.Contains(e["message"].(string), "allowed next: none") {
		t.Fatalf("refusal message %q", e["message"])
	}
	// The intent's own end: CONSUMED, since a payment ran; REVOKED is refused.
	intentPath := "/sandbox/payments/payment-intents/" + intentID + "/status"
	env.Do(t, "POST", intentPath, a.APIKey, map[string]any{"status": "REVOKED"}).WantError(400, model.CodeSandboxMoveNotAllowed.String())

	const gqlMove = `mutation($kind: String!, $id: UUID!, $status: String!) { sandboxMovePayment(kind: $kind, id: $id, input: {status: $status}) {
		kind from status paymentRequest { id status } scheduledPayment { id status } automaticPixPayment { id status endToEndId } } }`
	got := env.GraphQL(t, a.APIKey, gqlMove, map[string]any{"kind": "scheduled-payments", "id": second, "status": "CANCELED"}).OK(t)["sandboxMovePayment"].(map[string]any)
	if got["scheduledPayment"].(map[string]any)["status"] != "CANCELED" || got["paymentRequest"].(map[string]any)["status"] != "COMPLETED" {
		t.Fatalf("GraphQL scheduled move: %v", got)
	}
	if st := env.Do(t, "GET", "/payments/intents/"+intentID, a.APIKey, nil).Want(200).Map()["status"]; st != "CONSUMED" {
		t.Fatalf("consent after the last scheduled payment: %v", st)
	}

	// An automatic PIX charge paid by a control move, then the authorization CONSUMED.
	autoID := env.Do(t, "POST", "/payments/requests/automatic-pix", a.APIKey, map[string]any{"interval": "MONTHLY", "startDate": day(0),
		"fixedAmount": 30, "isSandbox": true}).Want(200).String("id")
	autoIntent := authorizeByControl(autoID)
	charge := env.Do(t, "POST", "/payments/requests/"+autoID+"/automatic-pix/schedule", a.APIKey, map[string]any{"amount": 30, "date": day(5)}).Want(200).String("id")
	env.GraphQL(t, a.APIKey, gqlMove, map[string]any{"kind": "payment-intents", "id": autoIntent, "status": "CONSUMED"}).
		WantCode(t, model.CodeSandboxMoveNotAllowed.String())
	got = env.GraphQL(t, a.APIKey, gqlMove, map[string]any{"kind": "automatic-pix-payments", "id": charge, "status": "COMPLETED"}).OK(t)["sandboxMovePayment"].(map[string]any)
	if c := got["automaticPixPayment"].(map[string]any); c["status"] != "COMPLETED" || c["endToEndId"] == nil || got["scheduledPayment"] != nil {
		t.Fatalf("GraphQL charge move: %v", got)
	}
	chargePath := "/sandbox/payments/automatic-pix-payments/" + charge + "/status"
	env.Do(t, "POST", chargePath, a.APIKey, map[string]any{"status": "CANCELED"}).WantError(400, model.CodeSandboxMoveNotAllowed.String())
	env.Do(t, "POST", "/sandbox/payments/payment-intents/"+autoIntent+"/status", a.APIKey, map[string]any{"status": "CONSUMED"}).Want(200).JSON(&mv)
	if mv.PaymentRequest.Status != "COMPLETED" || mv.PaymentIntent.Status != "CONSUMED" {
		t.Fatalf("authorization consumed: request %s intent %s", mv.PaymentRequest.Status, mv.PaymentIntent.Status)
	}
	env.AuditLedger(t)

	// Bad input, other applications, no key.
	env.Do(t, "POST", chargePath, a.APIKey, map[string]any{}).WantError(400, model.CodeInvalidParameter.String())
	env.Do(t, "POST", "/sandbox/payments/scheduled-payments/nope/status", a.APIKey, map[string]any{"status": "COMPLETED"}).Want(400)
	env.Do(t, "POST", schedPath, b.APIKey, map[string]any{"status": "CANCELED"}).WantError(404, model.CodeScheduledPaymentNotFound.String())
	env.Do(t, "POST", chargePath, b.APIKey, map[string]any{"status": "CANCELED"}).WantError(404, model.CodeAutomaticPixPaymentNotFound.String())
	env.GraphQL(t, b.APIKey, gqlMove, map[string]any{"kind": "scheduled-payments", "id": first, "status": "CANCELED"}).
		WantCode(t, model.CodeScheduledPaymentNotFound.String())
	env.Do(t, "POST", chargePath, "", map[string]any{"status": "CANCELED"}).Want(401)
}
