package rest_test

import (
	"testing"
	"time"

	"ponte/testsupport"
)

// A control move on a request that lives on a test clock runs in the clock's time, as the
// payer's own consent does: a consent given on the clock before the schedule's date queues
// the dated payment in clock time (an advance runs it), and one given after the date went
// by on the clock (a date must be after today) ends the intent in ERROR, although real time
// is years before that date.
func TestControlConsentOnATestClock(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "control on a clock").APIKey
	recipient := env.Recipient(t, key)
	clock := env.Do(t, "POST", "/sandbox/test-clocks", key, map[string]any{"name": "control", "frozenTime": "2031-01-03T02:50:00Z"}).Want(200).String("id")
	dated := func() (string, string) {
		req := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 10, "isSandbox": true, "recipientId": recipient,
			"testClockId": clock, "schedule": map[string]any{"type": "SINGLE", "date": "2031-01-03"}}).Want(200).String("id")
		intent := env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": req, "connectorId": 5,
			"parameters": map[string]any{"cpf": "11144477735"}}).Want(200).String("id")
		return req, intent
	}
	consent := func(intent string) map[string]any {
		return env.Do(t, "POST", "/sandbox/payments/payment-intents/"+intent+"/status", key,
			map[string]any{"status": "CONSENT_AUTHORIZED"}).Want(200).Map()["paymentIntent"].(map[string]any)
	}
	onTimeReq, onTime := dated()
	_, late := dated()
	if n := consent(onTime); n["status"] != "CONSENT_AUTHORIZED" {
		t.Fatalf("consent on the clock before the date: %v %v", n["status"], n["errorDetail"])
	}
	advance := func(to string) {
		env.Do(t, "POST", "/sandbox/test-clocks/"+clock+"/advance", key, map[string]any{"frozenTime": to}).Want(200)
		testsupport.Eventually(t, "the clock's advance to "+to, 30*time.Second, func() bool {
			return env.Do(t, "GET", "/sandbox/test-clocks/"+clock, key, nil).Want(200).Map()["status"] == "ready"
		})
	}
	// Twenty minutes on, past midnight in São Paulo: the date is today, no longer ahead,
	// and the late intent still waits for its consent (30 minutes).
	advance("2031-01-03T03:10:00Z")
	n := consent(late)
	if d, _ := n["errorDetail"].(map[string]any); n["status"] != "ERROR" || d["code"] != "INVALID_SCHEDULE" {
		t.Errorf("consent on the clock after the date: %v %v, want ERROR with INVALID_SCHEDULE", n["status"], n["errorDetail"])
	}
	advance("2031-01-05T12:00:00Z")
	if n := env.Do(t, "GET", "/payments/intents/"+onTime, key, nil).Want(200).Map(); n["status"] != "CONSUMED" {
		t.Errorf("intent consented before the date, after the clock passed it: %v (errorDetail %v)", n["status"], n["errorDetail"])
	}
	completed := false
	for _, ev := range env.Events(t, key, "") {
		if p, _ := ev["payload"].(map[string]any); ev["event"] == "scheduled_payment/completed" && p["paymentRequestId"] == onTimeReq {
			completed = true
		}
	}
	if !completed {
		t.Errorf("no scheduled_payment/completed for the request consented on the clock")
	}
}
