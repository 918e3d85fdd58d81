package rest_test

import (
	"testing"
	"time"

	"ponte/model"
	"ponte/testsupport"
)

// POST /sandbox/events fires the smart transfer and boleto events: about a pre-authorization
// on a sandbox connector, a payment under one, and a boleto whose connection's item is on a
// sandbox connector; each delivered like an event a change causes, in the service's shape.
func TestSandboxEventsTransfersAndBoletos(t *testing.T) {
	t.Parallel()
	rc := testsupport.NewTLSReceiver(t)
	env := testsupport.New(t, rc.Route)
	key := env.NewClient(t, "control events transfers").APIKey
	other := env.NewClient(t, "control events transfers other").APIKey
	env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "all", "url": rc.URL + "/all"}).Want(200)
	fire := func(body map[string]any) *model.Event {
		t.Helper()
		var ev model.Event
		env.Do(t, "POST", "/sandbox/events", key, body).Want(200).JSON(&ev)
		if !ev.SandboxControl || ev.Payload["triggeredBy"] != "CLIENT" || ev.Payload["event"] != body["event"] || ev.Payload["sandboxControl"] != true {
			t.Fatalf("%v: %+v", body, ev)
		}
		return &ev
	}

	// A pre-authorization on the sandbox payments connector, approved, and a payment under it.
	appOwn := env.Recipient(t, key)
	var p model.SmartTransferPreauthorization
	env.Do(t, "POST", "/smart-transfers/preauthorizations", key, map[string]any{"connectorId": smartConnector,
		"parameters": map[string]any{"cpf": happyCPF}, "recipientIds": []string{appOwn}, "limits": map[string]any{"transaction": 50},
		"clientPreauthorizationId": "pre-38"}).Want(200).JSON(&p)
	decidePreauth(t, env, &p, "authorize").Want(200)
	pre := p.ID.String()
	done := fire(map[string]any{"event": "smart_transfer_preauthorization/completed", "preauthorizationId": pre})
	if done.Payload["preauthorizationId"] != pre || done.Payload["id"] != pre || done.Payload["status"] != "COMPLETED" ||
		done.Payload["clientPreauthorizationId"] != "pre-38" || done.Payload["error"] != nil {
		t.Errorf("smart_transfer_preauthorization/completed payload %v", done.Payload)
	}
	failed := fire(map[string]any{"event": "smart_transfer_preauthorization/error", "preauthorizationId": pre})
	if e, _ := failed.Payload["error"].(map[string]any); e["code"] != "CONSENT_REJECTED" {
		t.Errorf("smart_transfer_preauthorization/error payload %v", failed.Payload)
	}
	pay := env.Do(t, "POST", "/smart-transfers/payments", key, map[string]any{"preauthorizationId": pre, "recipientId": appOwn,
		"amount": 10, "clientPaymentId": "pay-38"}).Want(200).String("id")
	paid := fire(map[string]any{"event": "smart_transfer_payment/error", "smartTransferPaymentId": pay, "errorCode": "INSUFFICIENT_FUNDS", "errorMessage": "Sem saldo"})
	if e, _ := paid.Payload["error"].(map[string]any); paid.Payload["smartTransferPaymentId"] != pay || paid.Payload["preauthorizationId"] != pre ||
		paid.Payload["clientPaymentId"] != "pay-38" || e["code"] != "INSUFFICIENT_FUNDS" || e["description"] != "Sem saldo" {
		t.Errorf("smart_transfer_payment/error payload %v", paid.Payload)
	}

	// A boleto of a connection whose item is on the sandbox payments connector (6), and one
	// on Banco Aurora Empresas (2), which is not a sandbox connector.
	it := createItem(t, env, key, smartConnector, map[string]any{"cpf": happyCPF})
	approve(t, env, key, it.ID.String())
	conn := env.Do(t, "POST", "/boleto-connections/from-item", key, map[string]any{"itemId": it.ID.String()}).Want(200).String("id")
	boleto := env.Do(t, "POST", "/boletos", key, boletoBody(conn, "EV-38", 45.5, spDay(5))).Want(200).String("id")
	updated := fire(map[string]any{"event": "boleto/updated", "boletoId": boleto})
	status := env.Do(t, "GET", "/boletos/"+boleto, key, nil).Want(200).String("status")
	if updated.Payload["boletoId"] != boleto || updated.Payload["boletoConnectionId"] != conn || updated.Payload["status"] != status || status == "" {
		t.Errorf("boleto/updated payload %v", updated.Payload)
	}
	realBoleto := env.Do(t, "POST", "/boletos", key, boletoBody(boletoConnection(t, env, key), "EV-39", 12, spDay(5))).Want(200).String("id")

	// GraphQL fires the same.
	const mutation = `mutation($in: SandboxEventInput!) { fireSandboxEvent(input: $in) { id event sandboxControl payload } }`
	g := env.GraphQL(t, key, mutation, map[string]any{"in": map[string]any{"event": "smart_transfer_payment/completed", "smartTransferPaymentId": pay}}).
		OK(t)["fireSandboxEvent"].(map[string]any)
	if g["sandboxControl"] != true || g["payload"].(map[string]any)["smartTransferPaymentId"] != pay {
		t.Errorf("GraphQL fired %v", g)
	}
	env.GraphQL(t, key, mutation, map[string]any{"in": map[string]any{"event": "boleto/updated", "boletoId": realBoleto}}).WantCode(t, "SANDBOX_RESOURCE_REQUIRED")
	env.GraphQL(t, other, mutation, map[string]any{"in": map[string]any{"event": "boleto/updated", "boletoId": boleto}}).WantCode(t, "BOLETO_NOT_FOUND")

	fired := []*model.Event{done, failed, paid, updated}
	rc.Await(t, "the fired events at /all", 30*time.Second, func(got []testsupport.Delivery) bool {
		seen := map[string]bool{}
		for _, d := range got {
			seen[d.Header.Get("webhook-id")] = true
		}
		for _, ev := range fired {
			if !seen[ev.ID.String()] {
				return false
			}
		}
		return true
	})

	// Counted by their body's mark: the payment's own steps may still write events meanwhile.
	firedCount := func() int {
		n := 0
		for _, ev := range env.Events(t, key, "") {
			if ev["payload"].(map[string]any)["sandboxControl"] == true {
				n++
			}
		}
		return n
	}
	before := firedCount()
	for _, c := range []struct {
		key    string
		body   map[string]any
		status int
		code   string
	}{
		{other, map[string]any{"event": "smart_transfer_preauthorization/completed", "preauthorizationId": pre}, 404, "SMART_TRANSFER_PREAUTHORIZATION_NOT_FOUND"},
		{other, map[string]any{"event": "smart_transfer_payment/completed", "smartTransferPaymentId": pay}, 404, "SMART_TRANSFER_PAYMENT_NOT_FOUND"},
		{other, map[string]any{"event": "boleto/updated", "boletoId": boleto}, 404, "BOLETO_NOT_FOUND"},
		{key, map[string]any{"event": "boleto/updated", "boletoId": realBoleto}, 403, "SANDBOX_RESOURCE_REQUIRED"},
		{key, map[string]any{"event": "boleto/updated"}, 400, "INVALID_PARAMETER"},
		{key, map[string]any{"event": "boleto/updated", "boletoId": pre}, 404, "BOLETO_NOT_FOUND"},
		{key, map[string]any{"event": "boleto/updated", "boletoId": boleto, "itemId": it.ID.String()}, 400, "INVALID_PARAMETER"},
		{key, map[string]any{"event": "smart_transfer_preauthorization/completed", "smartTransferPaymentId": pay}, 400, "INVALID_PARAMETER"},
		{key, map[string]any{"event": "smart_transfer_preauthorization/completed", "preauthorizationId": pre, "errorCode": "CONSENT_REJECTED"}, 400, "INVALID_PARAMETER"},
		{key, map[string]any{"event": "smart_transfer_payment/error", "smartTransferPaymentId": pay, "errorCode": "CONSENT_REJECTED"}, 400, "INVALID_PARAMETER"},
		{key, map[string]any{"event": "smart_transfer_payment/completed", "smartTransferPaymentId": "nope"}, 400, "MALFORMED_JSON"},
	} {
		env.Do(t, "POST", "/sandbox/events", c.key, c.body).WantError(c.status, c.code)
	}

	// Every connector that offers smart transfers today is a sandbox one, so a pre-authorization
	// on another is made by moving this one there: then it and its payments are refused.
	if _, err := env.DB.Pool.Exec(t.Context(), `UPDATE smart_transfer_preauthorizations SET connector_id = 5 WHERE id = $1`, pre); err != nil {
		t.Fatal(err)
	}
	env.Do(t, "POST", "/sandbox/events", key, map[string]any{"event": "smart_transfer_preauthorization/completed", "preauthorizationId": pre}).
		WantError(403, "SANDBOX_RESOURCE_REQUIRED")
	env.Do(t, "POST", "/sandbox/events", key, map[string]any{"event": "smart_transfer_payment/completed", "smartTransferPaymentId": pay}).
		WantError(403, "SANDBOX_RESOURCE_REQUIRED")
	if after := firedCount(); after != before {
		t.Errorf("refused requests recorded %d events", after-before)
	}
}
