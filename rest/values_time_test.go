package rest_test

import (
	"testing"
	"time"

	"ponte/testsupport"
)

// produceOnClock reaches the values that need time to pass, on a test clock, in seconds:
// a dated payment that runs (scheduled_payment/completed, /all_completed, the intent
// CONSUMED), one the payer's bank refuses (scheduled_payment/error), and a consent given
// after its schedule's only date went by on the clock (the intent in ERROR).
func produceOnClock(t *testing.T, env *testsupport.Env, key string, got seen) {
	t.Helper()
	recipient := env.Recipient(t, key)
	// Ten minutes before midnight in São Paulo: twenty minutes on, a schedule's date of the
	// next day is today, no longer ahead, while an intent still waits for its consent.
	clock := env.Do(t, "POST", "/sandbox/test-clocks", key, map[string]any{"name": "every value", "frozenTime": "2031-01-03T02:50:00Z"}).Want(200).String("id")
	advance := func(to string) {
		env.Do(t, "POST", "/sandbox/test-clocks/"+clock+"/advance", key, map[string]any{"frozenTime": to}).Want(200)
		testsupport.Eventually(t, "the clock's advance to "+to, 30*time.Second, func() bool {
			return env.Do(t, "GET", "/sandbox/test-clocks/"+clock, key, nil).Want(200).Map()["status"] == "ready"
		})
	}
	dated := func(date, cpf string) (string, string) {
		req := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 12.5, "isSandbox": true, "recipientId": recipient,
			"testClockId": clock, "schedule": map[string]any{"type": "SINGLE", "date": date}}).Want(200).String("id")
		intent := env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": req, "connectorId": 5,
			"parameters": map[string]any{"cpf": cpf}}).Want(200).String("id")
		return req, intent
	}
	consent := func(intent string) {
		got.from("payment intent status", env.Do(t, "POST", "/sandbox/payments/payment-intents/"+intent+"/status", key,
			map[string]any{"status": "CONSENT_AUTHORIZED"}).Want(200).Map(), "status")
	}
	paidReq, paid := dated("2031-01-05", "11144477735")
	refusedReq, refused := dated("2031-01-05", "10000000108") // the sandbox payer without funds
	_, late := dated("2031-01-03", "11144477735")
	consent(paid)
	consent(refused)

	advance("2031-01-03T03:10:00Z")
	consent(late)
	advance("2031-01-08T12:00:00Z")

	intents := map[string]string{paid: "CONSUMED", refused: "CONSUMED", late: "ERROR"}
	for id, want := range intents {
		m := env.Do(t, "GET", "/payments/intents/"+id, key, nil).Want(200).Map()
		if m["status"] != want {
			t.Errorf("intent %s on the clock: %v, want %s (errorDetail %v)", id, m["status"], want, m["errorDetail"])
		}
		got.from("payment intent status", m, "status")
	}
	for _, req := range []string{paidReq, refusedReq} {
		got.from("payment request status", env.Do(t, "GET", "/payments/requests/"+req, key, nil).Want(200).Map(), "status")
	}
}
