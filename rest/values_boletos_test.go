package rest_test

import (
	"testing"
	"time"

	"ponte/testsupport"
)

// produceBoletos reaches the boleto values on a test clock: one left unpaid goes OVERDUE
// and then PROTESTED, one its sandbox payer pays (,91 cents), one paid through its PIX
// charge, one cancelled, with a fine of each type.
func produceBoletos(t *testing.T, env *testsupport.Env, key string, got seen) {
	t.Helper()
	it := createItem(t, env, key, smartConnector, map[string]any{"cpf": happyCPF})
	approve(t, env, key, it.ID.String())
	conn := env.Do(t, "POST", "/boleto-connections/from-item", key, map[string]any{"itemId": it.ID.String()}).Want(200).String("id")
	clock := env.Do(t, "POST", "/sandbox/test-clocks", key, map[string]any{"name": "every boleto value", "frozenTime": "2020-01-01T12:00:00Z"}).Want(200).String("id")
	issue := func(seu string, amount float64, fine string) string {
		body := boletoBody(conn, seu, amount, "2020-01-05")
		body["testClockId"] = clock
		body["boleto"].(map[string]any)["fine"] = map[string]any{"value": 2, "type": fine}
		m := env.Do(t, "POST", "/boletos", key, body).Want(200).Map()
		got.top("boleto status", m, "status")
		return m["id"].(string)
	}
	unpaid := issue("VAL-1", 45.5, "PERCENTAGE")
	byPayer := issue("VAL-2", 10.91, "FIXED")
	byPix := issue("VAL-3", 20, "FIXED")
	cancelled := issue("VAL-4", 30, "PERCENTAGE")
	// A payment request paying the line of a boleto off the clock: its recipient a BOLETO.
	line := env.Do(t, "POST", "/boletos", key, boletoBody(conn, "VAL-5", 33, spDay(5))).Want(200).String("digitableLine")
	got.from("payment request recipient type", env.Do(t, "POST", "/payments/requests", key,
		map[string]any{"boleto": map[string]any{"digitableLine": line}, "isSandbox": true}).Want(200).Map()["recipient"], "type")
	env.Do(t, "POST", "/boletos/pix/"+byPix, "", nil).Want(200)
	env.Do(t, "POST", "/boletos/"+cancelled+"/cancel", key, nil).Want(200)
	read := func() {
		for _, b := range []string{unpaid, byPayer, byPix, cancelled} {
			m := env.Do(t, "GET", "/boletos/"+b, key, nil).Want(200).Map()
			got.top("boleto status", m, "status")
			got.top("boleto paymentOrigin", m, "paymentOrigin")
			if f, ok := m["fine"].(map[string]any); ok {
				got.top("boleto fine type", f, "type")
			}
			if f, ok := m["interest"].(map[string]any); ok {
				got.top("boleto interest type", f, "type")
			}
		}
	}
	for _, to := range []string{"2020-01-06T12:00:00Z", "2020-02-10T12:00:00Z"} {
		env.Do(t, "POST", "/sandbox/test-clocks/"+clock+"/advance", key, map[string]any{"frozenTime": to}).Want(200)
		testsupport.Eventually(t, "the boleto clock's advance to "+to, 30*time.Second, func() bool {
			return env.Do(t, "GET", "/sandbox/test-clocks/"+clock, key, nil).Want(200).String("status") == "ready"
		})
		read()
	}
}
