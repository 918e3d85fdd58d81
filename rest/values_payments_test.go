package rest_test

import (
	"slices"
	"testing"
	"time"

	"ponte/model"
	"ponte/payments"
	"ponte/testsupport"
)

// producePayments walks the payment intent and request statuses through the sandbox payers
// and control moves, and fires on demand the events no flow here sends.
func producePayments(t *testing.T, env *testsupport.Env, key string, got seen, item string) {
	t.Helper()
	recipient := env.Recipient(t, key)
	request := func(extra map[string]any) string {
		body := map[string]any{"amount": 25.5, "isSandbox": true, "recipientId": recipient}
		for k, v := range extra {
			body[k] = v
		}
		m := env.Do(t, "POST", "/payments/requests", key, body).Want(200).Map()
		got.top("payment request status", m, "status")
		return m["id"].(string)
	}
	intent := func(req, cpf string) string {
		m := env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": req, "connectorId": 5,
			"parameters": map[string]any{"cpf": cpf, "name": "Maria Souza"}}).Want(200).Map()
		got.top("payment intent status", m, "status")
		got.top("payment intent paymentMethod", m, "paymentMethod")
		for _, step := range m["statusHistory"].([]any) {
			got.top("payment intent status", step.(map[string]any), "status")
		}
		return m["id"].(string)
	}
	move := func(kind, id string, statuses ...string) {
		for _, s := range statuses {
			m := env.Do(t, "POST", "/sandbox/payments/"+kind+"/"+id+"/status", key, map[string]any{"status": s}).Want(200).Map()
			set := map[string]string{"payment-intents": "payment intent status", "payment-requests": "payment request status"}[kind]
			got.top(set, m, "from")
			got.top(set, m, "status")
			if r, ok := m["paymentRequest"].(map[string]any); ok {
				got.top("payment request status", r, "status")
			}
		}
	}
	const payer = "11144477735"

	// Paid after a second signer, then refunded: a refusal first.
	paid := request(nil)
	move("payment-intents", intent(paid, payer), "CONSENT_AUTHORIZED", "PAYMENT_PENDING", "PAYMENT_PARTIALLY_ACCEPTED",
		"PAYMENT_SETTLEMENT_PROCESSING", "PAYMENT_SETTLEMENT_DEBTOR_ACCOUNT", "PAYMENT_COMPLETED")
	// Recipients: a bank account (the request above), a PIX QR code.
	r := env.Do(t, "GET", "/payments/requests/"+paid, key, nil).Want(200).Map()["recipient"].(map[string]any)
	got.top("payment request recipient type", r, "type")
	got.from("recipient account type", r["account"], "type")
	qr := payments.BRCode{Key: "fulano@example.com", Amount: 42.9, MerchantName: "Fulano", MerchantCity: "BRASILIA", TxID: "V1"}.Encode()
	got.from("payment request recipient type", env.Do(t, "POST", "/payments/requests/pix-qr", key,
		map[string]any{"pixQrCode": qr, "isSandbox": true}).Want(200).Map()["recipient"], "type")
	move("payment-requests", paid, "REFUND_IN_PROGRESS", "REFUND_ERROR", "REFUND_IN_PROGRESS", "REFUNDED")
	move("payment-intents", intent(request(nil), payer), "CONSENT_REJECTED")
	move("payment-intents", intent(request(nil), payer), "CONSENT_AUTHORIZED", "PAYMENT_PENDING", "PAYMENT_REJECTED")
	move("payment-intents", intent(request(nil), payer), "CANCELED")
	move("payment-intents", intent(request(nil), payer), "PAYMENT_TIMEOUT")
	// An intent by PIX (PIS is the default).
	got.top("payment intent paymentMethod", env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": request(nil),
		"connectorId": 5, "paymentMethod": "PIX", "parameters": map[string]any{"cpf": payer}}).Want(200).Map(), "paymentMethod")
	move("payment-requests", request(nil), "EXPIRED")
	move("payment-requests", request(nil), "CANCELED")
	// The sandbox payer whose bank refuses the attempt before asking: REJECTED.
	blocked := intent(request(nil), "10000000604")
	testsupport.Eventually(t, "the blocked payer's attempt", 20*time.Second, func() bool {
		m := env.Do(t, "GET", "/payments/intents/"+blocked, key, nil).Want(200).Map()
		got.top("payment intent status", m, "status")
		return m["status"] == "REJECTED"
	})

	// A dated payment authorized (SCHEDULED), then its schedule cancelled: the intent REVOKED.
	dated := request(map[string]any{"schedule": map[string]any{"type": "SINGLE", "date": spDay(30)}})
	move("payment-intents", intent(dated, payer), "CONSENT_AUTHORIZED")
	got.top("payment request status", env.Do(t, "GET", "/payments/requests/"+dated, key, nil).Want(200).Map(), "status")
	env.Do(t, "POST", "/payments/requests/"+dated+"/schedules/cancel", key, nil).Want(200)
	for _, n := range env.Do(t, "GET", "/payments/intents?paymentRequestId="+dated, key, nil).Want(200).Map()["results"].([]any) {
		got.top("payment intent status", n.(map[string]any), "status")
	}

	// An automatic PIX authorization (AUTHORIZED), its first charge run at once.
	auto := env.Do(t, "POST", "/payments/requests/automatic-pix", key, map[string]any{"interval": "MONTHLY", "startDate": spDay(1),
		"fixedAmount": 50, "isSandbox": true, "description": "Academia", "firstPayment": map[string]any{"amount": 50}}).Want(200).String("id")
	move("payment-intents", intent(auto, payer), "CONSENT_AUTHORIZED")
	got.top("payment request status", env.Do(t, "GET", "/payments/requests/"+auto, key, nil).Want(200).Map(), "status")

	// Events no flow above sends, fired on demand for the application's own resources.
	// A pre-authorization the payer approves, and a smart transfer payment under it.
	var pre model.SmartTransferPreauthorization
	env.Do(t, "POST", "/smart-transfers/preauthorizations", key, map[string]any{"connectorId": smartConnector,
		"parameters": map[string]any{"cpf": happyCPF}, "recipientIds": []string{recipient}, "limits": map[string]any{"transaction": 50}}).Want(200).JSON(&pre)
	decidePreauth(t, env, &pre, "authorize").Want(200)
	preauth := pre.ID.String()
	transfer := env.Do(t, "POST", "/smart-transfers/payments", key, map[string]any{"preauthorizationId": preauth, "recipientId": recipient,
		"amount": 10}).Want(200).String("id")
	fire := map[string]map[string]any{
		"connector/status_updated":                   {"itemId": item},
		"transactions/updated":                       {"itemId": item},
		"transactions/deleted":                       {"itemId": item},
		"item/deleted":                               {"itemId": item},
		"payment_intent/waiting_payer_authorization": {"paymentRequestId": paid},
		"automatic_pix_payment/error":                {"paymentRequestId": auto},
		"automatic_pix_payment/canceled":             {"paymentRequestId": auto},
		"smart_transfer_preauthorization/completed":  {"preauthorizationId": preauth},
		"smart_transfer_preauthorization/error":      {"preauthorizationId": preauth},
		"smart_transfer_payment/completed":           {"smartTransferPaymentId": transfer},
		"smart_transfer_payment/error":               {"smartTransferPaymentId": transfer},
	}
	names := make([]string, 0, len(fire))
	for ev := range fire {
		names = append(names, ev)
	}
	slices.Sort(names)
	for _, ev := range names {
		body := fire[ev]
		body["event"] = ev
		env.Do(t, "POST", "/sandbox/events", key, body).Want(200)
	}
	testsupport.Eventually(t, "the automatic PIX charge's run", 20*time.Second, func() bool {
		for _, ev := range env.Events(t, key, "") {
			if ev["event"] == "automatic_pix_payment/completed" {
				return true
			}
		}
		return false
	})
}
