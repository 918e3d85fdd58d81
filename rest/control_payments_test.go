package rest_test

import (
	"strings"
	"testing"

	"ponte/model"
	"ponte/testsupport"
)

// Sandbox payment moves through REST and GraphQL on the real service: an
// intent taken to PAYMENT_COMPLETED and its request refunded by control moves alone, the
// refusals, then hostile callers.
func TestSandboxControlPayments(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a, b := env.NewClient(t, "paymove-a"), env.NewClient(t, "paymove-b")
	recipientFor(t, env, a.APIKey, "Loja Exemplo Ltda", "11222333000181", true)
	req := env.Do(t, "POST", "/payments/requests", a.APIKey, map[string]any{"amount": 25.5, "isSandbox": true}).Want(200).Map()
	reqID := req["id"].(string)
	intent := env.Do(t, "POST", "/payments/intents", a.APIKey, map[string]any{"paymentRequestId": reqID, "connectorId": payConnector,
		"parameters": map[string]any{"cpf": happyCPF, "name": "Maria Silva"}}).Want(200).Map()
	intentID := intent["id"].(string)
	intentPath := "/sandbox/payments/payment-intents/" + intentID + "/status"
	reqPath := "/sandbox/payments/payment-requests/" + reqID + "/status"

	for _, to := range []string{"CONSENT_AUTHORIZED", "PAYMENT_PENDING", "PAYMENT_SETTLEMENT_PROCESSING"} {
		var mv model.SandboxPaymentMove
		env.Do(t, "POST", intentPath, a.APIKey, map[string]any{"status": to}).Want(200).JSON(&mv)
		if mv.Status != to || mv.Kind != "payment-intents" || mv.PaymentIntent == nil || mv.PaymentIntent.Status != to ||
			mv.PaymentRequest.Status != "IN_PROGRESS" {
			t.Fatalf("move to %s: %+v", to, mv)
		}
	}
	// A move the table does not list names what it allows.
	e := env.Do(t, "POST", intentPath, a.APIKey, map[string]any{"status": "PAYMENT_COMPLETED"}).WantError(400, model.CodeSandboxMoveNotAllowed.String())
	if msg := e["message"].(string); !strings.Contains(msg, "PAYMENT_SETTLEMENT_DEBTOR_ACCOUNT, PAYMENT_REJECTED, ERROR") {
		t.Fatalf("refusal message %q", msg)
	}

	const gqlMove = `mutation($kind: String!, $id: UUID!, $status: String!) { sandboxMovePayment(kind: $kind, id: $id, input: {status: $status}) {
		kind from status paymentRequest { id status } paymentIntent { id status } } }`
	for _, to := range []string{"PAYMENT_SETTLEMENT_DEBTOR_ACCOUNT", "PAYMENT_COMPLETED"} {
		got := env.GraphQL(t, a.APIKey, gqlMove, map[string]any{"kind": "payment-intents", "id": intentID, "status": to}).OK(t)["sandboxMovePayment"].(map[string]any)
		if got["status"] != to || got["paymentIntent"].(map[string]any)["status"] != to {
			t.Fatalf("GraphQL move to %s: %v", to, got)
		}
	}
	if st := env.Do(t, "GET", "/payments/requests/"+reqID, a.APIKey, nil).Want(200).Map()["status"]; st != "COMPLETED" {
		t.Fatalf("request after PAYMENT_COMPLETED: %v", st)
	}
	env.GraphQL(t, a.APIKey, gqlMove, map[string]any{"kind": "payment-intents", "id": intentID, "status": "ERROR"}).
		WantCode(t, model.CodeSandboxMoveNotAllowed.String())

	// The request's refund, refused once and then paid.
	for _, step := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"status": "REFUND_IN_PROGRESS"}, "REFUND_IN_PROGRESS"},
		{map[string]any{"status": "REFUND_ERROR", "errorDetail": map[string]any{"description": "Conta encerrada"}}, "REFUND_ERROR"},
		{map[string]any{"status": "REFUND_IN_PROGRESS"}, "REFUND_IN_PROGRESS"},
		{map[string]any{"status": "REFUNDED"}, "REFUNDED"},
	} {
		var mv model.SandboxPaymentMove
		env.Do(t, "POST", reqPath, a.APIKey, step.body).Want(200).JSON(&mv)
		if mv.PaymentRequest.Status != step.want || mv.PaymentIntent != nil {
			t.Fatalf("request move to %s: %+v", step.want, mv)
		}
		if step.want == "REFUND_ERROR" && (mv.PaymentRequest.ErrorDetail == nil || mv.PaymentRequest.ErrorDetail.Description != "Conta encerrada" ||
			mv.PaymentRequest.ErrorDetail.Code != model.PaymentErrorRefundRejected) {
			t.Fatalf("refund error detail %+v", mv.PaymentRequest.ErrorDetail)
		}
	}
	env.Do(t, "POST", reqPath, a.APIKey, map[string]any{"status": "REFUND_IN_PROGRESS"}).WantError(400, model.CodeSandboxMoveNotAllowed.String())
	env.AuditLedger(t)

	// Bad input, other applications, no key, a payment outside the sandbox.
	env.Do(t, "POST", reqPath, a.APIKey, map[string]any{}).WantError(400, model.CodeInvalidParameter.String())
	env.Do(t, "POST", "/sandbox/payments/payment-requests/nope/status", a.APIKey, map[string]any{"status": "CANCELED"}).Want(400)
	env.GraphQL(t, a.APIKey, gqlMove, map[string]any{"kind": "refunds", "id": reqID, "status": "CANCELED"}).WantCode(t, model.CodeInvalidParameter.String())
	env.Do(t, "POST", reqPath, b.APIKey, map[string]any{"status": "CANCELED"}).WantError(404, model.CodePaymentRequestNotFound.String())
	env.Do(t, "POST", intentPath, b.APIKey, map[string]any{"status": "ERROR"}).WantError(404, model.CodePaymentIntentNotFound.String())
	env.GraphQL(t, b.APIKey, gqlMove, map[string]any{"kind": "payment-requests", "id": reqID, "status": "CANCELED"}).
		WantCode(t, model.CodePaymentRequestNotFound.String())
	env.Do(t, "POST", reqPath, "", map[string]any{"status": "CANCELED"}).Want(401)
	real := env.Do(t, "POST", "/payments/requests", a.APIKey, map[string]any{"amount": 3, "isSandbox": false}).Want(200).Map()["id"].(string)
	env.Do(t, "POST", "/sandbox/payments/payment-requests/"+real+"/status", a.APIKey, map[string]any{"status": "CANCELED"}).
		WantError(403, model.CodeSandboxOnly.String())
	env.GraphQL(t, a.APIKey, gqlMove, map[string]any{"kind": "payment-requests", "id": real, "status": "CANCELED"}).WantCode(t, model.CodeSandboxOnly.String())
	if st := env.Do(t, "GET", "/payments/requests/"+real, a.APIKey, nil).Want(200).Map()["status"]; st != "CREATED" {
		t.Fatalf("non-sandbox request moved: %v", st)
	}
}
