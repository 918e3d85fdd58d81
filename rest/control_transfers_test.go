package rest_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"ponte/model"
	"ponte/testsupport"
)

// Smart transfer payments and bulk payments moved through REST and GraphQL on the real
// service (their own steps held back an hour, so the moves alone decide): a payment settled
// and another rejected, a bulk payment approved and settled, the refusals naming what is
// allowed, a bulk payment from a smart account outside the sandbox, another application,
// no credential.
func TestSandboxControlTransferMoves(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t, func(s *testsupport.Setup) { s.Payments.StepDelay = time.Hour })
	a, b := env.NewClient(t, "transfermove-a"), env.NewClient(t, "transfermove-b")
	recipient := recipientFor(t, env, a.APIKey, "Loja Exemplo Ltda", "11222333000181", true)
	var pre model.SmartTransferPreauthorization
	env.Do(t, "POST", "/smart-transfers/preauthorizations", a.APIKey, map[string]any{"connectorId": smartConnector,
		"parameters": map[string]any{"cpf": happyCPF}, "recipientIds": []string{recipient}}).Want(200).JSON(&pre)
	decidePreauth(t, env, &pre, "authorize").Want(200)
	transfer := func() string {
		return env.Do(t, "POST", "/smart-transfers/payments", a.APIKey, map[string]any{"preauthorizationId": pre.ID,
			"recipientId": recipient, "amount": 12.5}).Want(200).String("id")
	}
	paid, rejected := transfer(), transfer()
	path := func(kind, id string) string { return "/sandbox/payments/" + kind + "/" + id + "/status" }

	e := env.Do(t, "POST", path("smart-transfer-payments", paid), a.APIKey, map[string]any{"status": "PAYMENT_COMPLETED"}).
		WantError(400, model.CodeSandboxMoveNotAllowed.String())
	if msg := e["message"].(string); !strings.Contains(msg, "allowed next: PAYMENT_SETTLEMENT_PROCESSING, PAYMENT_REJECTED") {
		t.Fatalf("refusal message %q", msg)
	}
	for _, to := range []string{"PAYMENT_SETTLEMENT_PROCESSING", "PAYMENT_SETTLEMENT_DEBTOR_ACCOUNT", "PAYMENT_COMPLETED"} {
		var mv model.SandboxPaymentMove
		env.Do(t, "POST", path("smart-transfer-payments", paid), a.APIKey, map[string]any{"status": to}).Want(200).JSON(&mv)
		if mv.Kind != "smart-transfer-payments" || mv.Status != to || mv.SmartTransferPayment == nil || mv.SmartTransferPayment.Status != to ||
			mv.PaymentRequest != nil {
			t.Fatalf("move to %s: %+v", to, mv)
		}
	}
	const gqlMove = `mutation($kind: String!, $id: UUID!, $status: String!, $err: SandboxPaymentErrorInput) {
		sandboxMovePayment(kind: $kind, id: $id, input: {status: $status, errorDetail: $err}) {
		kind from status smartTransferPayment { id status errorDetail { code description } }
		bulkPayment { id status paymentRequests { id status } } } }`
	got := env.GraphQL(t, a.APIKey, gqlMove, map[string]any{"kind": "smart-transfer-payments", "id": rejected, "status": "PAYMENT_REJECTED",
		"err": map[string]any{"code": "INSUFFICIENT_FUNDS", "description": "Saldo insuficiente"}}).OK(t)["sandboxMovePayment"].(map[string]any)
	st := got["smartTransferPayment"].(map[string]any)
	if st["status"] != "PAYMENT_REJECTED" || st["errorDetail"].(map[string]any)["code"] != "INSUFFICIENT_FUNDS" {
		t.Fatalf("GraphQL rejection: %v", got)
	}
	ends := map[string]string{}
	for _, ev := range env.Events(t, a.APIKey, "") {
		if strings.HasPrefix(ev["event"].(string), "smart_transfer_payment/") {
			raw, _ := json.Marshal(ev["payload"])
			if !strings.Contains(string(raw), `"triggeredBy":"CLIENT"`) {
				t.Fatalf("%s not triggered by the client: %s", ev["event"], raw)
			}
			for _, id := range []string{paid, rejected} {
				if strings.Contains(string(raw), id) {
					ends[id] += ev["event"].(string)
				}
			}
		}
	}
	if ends[paid] != "smart_transfer_payment/completed" || ends[rejected] != "smart_transfer_payment/error" {
		t.Fatalf("end events: %v", ends)
	}

	// A bulk payment from a sandbox smart account, funded by moves.
	account := func(sandbox bool) string {
		id := env.Do(t, "POST", "/payments/smart-accounts", a.APIKey, map[string]any{"name": "Conta", "taxNumber": happyCPF,
			"email": "conta@example.com", "phoneNumber": "+5511999990000", "isSandbox": sandbox}).Want(200).String("id")
		req := env.Do(t, "POST", "/payments/requests", a.APIKey, map[string]any{"amount": 40, "isSandbox": true, "smartAccountId": id}).Want(200).String("id")
		intent := env.Do(t, "POST", "/payments/intents", a.APIKey, map[string]any{"paymentRequestId": req, "connectorId": payConnector,
			"parameters": map[string]any{"cpf": happyCPF, "name": "Maria Silva"}}).Want(200).String("id")
		for _, s := range []string{"CONSENT_AUTHORIZED", "PAYMENT_PENDING", "PAYMENT_SETTLEMENT_PROCESSING", "PAYMENT_SETTLEMENT_DEBTOR_ACCOUNT", "PAYMENT_COMPLETED"} {
			env.Do(t, "POST", path("payment-intents", intent), a.APIKey, map[string]any{"status": s}).Want(200)
		}
		return id
	}
	bulk := func(acc string) string {
		r1 := env.Do(t, "POST", "/payments/requests", a.APIKey, map[string]any{"amount": 7, "isSandbox": true}).Want(200).String("id")
		r2 := env.Do(t, "POST", "/payments/requests", a.APIKey, map[string]any{"amount": 3, "isSandbox": true}).Want(200).String("id")
		return env.Do(t, "POST", "/payments/bulk", a.APIKey, map[string]any{"smartAccountId": acc, "paymentRequestIds": []string{r1, r2}}).Want(200).String("id")
	}
	sandboxBulk := bulk(account(true))
	e = env.Do(t, "POST", path("bulk-payments", sandboxBulk), a.APIKey, map[string]any{"status": "COMPLETED"}).
		WantError(400, model.CodeSandboxMoveNotAllowed.String())
	if msg := e["message"].(string); !strings.Contains(msg, "allowed next: PAYMENT_IN_PROGRESS, ERROR") {
		t.Fatalf("bulk refusal message %q", msg)
	}
	var mv model.SandboxPaymentMove
	env.Do(t, "POST", path("bulk-payments", sandboxBulk), a.APIKey, map[string]any{"status": "PAYMENT_IN_PROGRESS"}).Want(200).JSON(&mv)
	if mv.From != "CREATED" || mv.Status != "PAYMENT_IN_PROGRESS" || mv.BulkPayment == nil || len(mv.BulkPayment.PaymentRequests) != 2 ||
		mv.BulkPayment.PaymentRequests[0].Status != "IN_PROGRESS" {
		t.Fatalf("bulk approval: %+v", mv)
	}
	got = env.GraphQL(t, a.APIKey, gqlMove, map[string]any{"kind": "bulk-payments", "id": sandboxBulk, "status": "COMPLETED"}).OK(t)["sandboxMovePayment"].(map[string]any)
	bp := got["bulkPayment"].(map[string]any)
	if bp["status"] != "COMPLETED" {
		t.Fatalf("GraphQL bulk settlement: %v", got)
	}
	for _, p := range bp["paymentRequests"].([]any) {
		if p.(map[string]any)["status"] != "COMPLETED" {
			t.Fatalf("bulk request after settlement: %v", p)
		}
	}
	env.GraphQL(t, a.APIKey, gqlMove, map[string]any{"kind": "bulk-payments", "id": sandboxBulk, "status": "ERROR"}).
		WantCode(t, model.CodeSandboxMoveNotAllowed.String())
	env.AuditLedger(t)

	// Outside the sandbox, another application's, no API key.
	env.Do(t, "POST", path("bulk-payments", bulk(account(false))), a.APIKey, map[string]any{"status": "ERROR"}).
		WantError(403, model.CodeSandboxOnly.String())
	env.Do(t, "POST", path("bulk-payments", sandboxBulk), b.APIKey, map[string]any{"status": "ERROR"}).
		WantError(404, model.CodeBulkPaymentNotFound.String())
	env.Do(t, "POST", path("smart-transfer-payments", paid), b.APIKey, map[string]any{"status": "PAYMENT_REJECTED"}).
		WantError(404, model.CodeSmartTransferPaymentNotFound.String())
	env.Do(t, "POST", path("smart-transfer-payments", paid), "", map[string]any{"status": "PAYMENT_REJECTED"}).Want(401)
}
