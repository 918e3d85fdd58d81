package rest_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/testsupport"
)

// A sandbox boleto on a test clock: dated in clock time, left alone by the daily sweep
// though its due date passed in real time, made OVERDUE and then PROTESTED by advances at
// five past midnight (São Paulo) of the clock's days, with boleto/updated events dated so;
// its sandbox payer waits for the clock too. Boletos off the clock are untouched by the
// advance. Refusals: another application's clock 404, a connection of a non-sandbox
// connector 403, a due date before the clock's today 400.
func TestBoletosOnATestClock(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a, b := env.NewClient(t, "boleto clocks A"), env.NewClient(t, "boleto clocks B")
	key := a.APIKey
	it := createItem(t, env, key, smartConnector, map[string]any{"cpf": happyCPF})
	approve(t, env, key, it.ID.String())
	conn := env.Do(t, "POST", "/boleto-connections/from-item", key, map[string]any{"itemId": it.ID.String()}).Want(200).String("id")
	newClock := func(k, at string) string {
		return env.Do(t, "POST", "/sandbox/test-clocks", k, map[string]any{"name": "boletos", "frozenTime": at}).Want(200).String("id")
	}
	clock := newClock(key, "2020-01-01T12:00:00Z")
	onClock := func(seu string, amount float64, due, clockID string) map[string]any {
		body := boletoBody(conn, seu, amount, due)
		body["testClockId"] = clockID
		return body
	}

	on := env.Do(t, "POST", "/boletos", key, onClock("CLK-1", 45.5, "2020-01-05", clock)).Want(200).Map()
	if on["createdAt"] != "2020-01-01T12:00:00.000Z" || on["testClockId"] != clock || on["status"] != "OPEN" || on["dueDate"] != "2020-01-05T00:00:00.000Z" {
		t.Fatalf("boleto on the clock: %v", on)
	}
	onID := on["id"].(string)
	// ,91 is paid by its sandbox payer one step after issue: on the clock, that step waits
	// for an advance, while the same payer off the clock pays at once.
	payer := env.Do(t, "POST", "/boletos", key, onClock("CLK-2", 10.91, "2020-01-20", clock)).Want(200).String("id")
	off := env.Do(t, "POST", "/boletos", key, boletoBody(conn, "CLK-3", 45.5, spDay(0))).Want(200).Map()
	if _, has := off["testClockId"]; has {
		t.Fatalf("a boleto off any clock names one: %v", off)
	}
	offPayer := env.Do(t, "POST", "/boletos", key, boletoBody(conn, "CLK-4", 10.91, spDay(3))).Want(200).String("id")
	testsupport.Eventually(t, "the payer off the clock", 20*time.Second, func() bool {
		return env.Do(t, "GET", "/boletos/"+offPayer, key, nil).Want(200).String("status") == "PAID"
	})
	if got := env.Do(t, "GET", "/boletos/"+payer, key, nil).Want(200).String("status"); got != "OPEN" {
		t.Fatalf("payer on a clock not advanced: %s", got)
	}
	if n, err := env.Payments.SweepBoletos(context.Background()); err != nil {
		t.Fatal(err)
	} else if got := env.Do(t, "GET", "/boletos/"+onID, key, nil).Want(200).String("status"); got != "OPEN" {
		t.Fatalf("the daily sweep (%d moved) reached a boleto on a clock: %s", n, got)
	}

	wait := func() {
		testsupport.Eventually(t, "the clock's advance", 20*time.Second, func() bool {
			return env.Do(t, "GET", "/sandbox/test-clocks/"+clock, key, nil).Want(200).String("status") == "ready"
		})
	}
	const advance = `mutation($id: UUID!, $to: DateTime) { advanceTestClock(id: $id, input: {frozenTime: $to}) { status } }`
	env.GraphQL(t, key, advance, map[string]any{"id": clock, "to": "2020-01-06T12:00:00Z"}).OK(t)
	wait()
	got := env.Do(t, "GET", "/boletos/"+onID, key, nil).Want(200).Map()
	if got["status"] != "OVERDUE" || got["updatedAt"] != "2020-01-06T03:05:00.000Z" {
		t.Fatalf("boleto a day past its due date in clock time: %v %v", got["status"], got["updatedAt"])
	}
	if p := env.Do(t, "GET", "/boletos/"+payer, key, nil).Want(200).Map(); p["status"] != "PAID" || p["paidAt"] != "2020-01-01T12:00:00.000Z" {
		t.Fatalf("payer on the clock after the advance: %v %v", p["status"], p["paidAt"])
	}
	if s := env.Do(t, "GET", "/boletos/"+off["id"].(string), key, nil).Want(200).String("status"); s != "OPEN" {
		t.Fatalf("boleto off the clock after the advance: %s", s)
	}
	env.Do(t, "POST", "/sandbox/test-clocks/"+clock+"/advance", key, map[string]any{"frozenTime": "2020-02-10T12:00:00Z"}).Want(200)
	wait()
	data := env.GraphQL(t, key, `query($id: UUID!) { boleto(id: $id) { status updatedAt testClockId } }`, map[string]any{"id": onID}).OK(t)
	if g := data["boleto"].(map[string]any); g["status"] != "PROTESTED" || g["updatedAt"] != "2020-02-05T03:05:00.000Z" || g["testClockId"] != clock {
		t.Fatalf("boleto 30 clock days overdue: %v", g)
	}
	var at []string
	events, err := env.DB.Events(context.Background(), uuid.MustParse(a.ID), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		if e.Event == "boleto/updated" && e.Payload["boletoId"] == onID {
			at = append(at, e.Payload["status"].(string)+" "+e.CreatedAt.UTC().Format(time.RFC3339))
		}
	}
	if len(at) != 2 || at[0] != "OVERDUE 2020-01-06T03:05:00Z" || at[1] != "PROTESTED 2020-02-05T03:05:00Z" {
		t.Fatalf("boleto/updated events of the boleto on the clock: %v", at)
	}

	// GraphQL issues on a clock too; the refusals leave nothing behind.
	const create = `mutation($in: CreateBoletoInput!) { createBoleto(input: $in) { createdAt testClockId } }`
	g := env.GraphQL(t, key, create, map[string]any{"in": onClock("CLK-5", 20, "2020-03-01", clock)}).OK(t)["createBoleto"].(map[string]any)
	if g["createdAt"] != "2020-02-10T12:00:00.000Z" || g["testClockId"] != clock {
		t.Fatalf("GraphQL boleto on the clock: %v", g)
	}
	before := env.Do(t, "GET", "/boletos", key, nil).Want(200).Map()["total"]
	foreign := newClock(b.APIKey, "2020-01-01T00:00:00Z")
	env.Do(t, "POST", "/boletos", key, onClock("CLK-6", 20, "2020-03-01", foreign)).WantError(404, model.CodeTestClockNotFound.String())
	env.GraphQL(t, key, create, map[string]any{"in": onClock("CLK-6", 20, "2020-03-01", foreign)}).WantCode(t, model.CodeTestClockNotFound.String())
	env.Do(t, "POST", "/boletos", key, onClock("CLK-6", 20, "2020-02-09", clock)).WantError(400, model.CodeBoletoDueDateInPast.String())
	env.Do(t, "POST", "/boletos", key, onClock("CLK-6", 20, "2020-03-01", "not-a-clock")).WantError(400, model.CodeInvalidParameter.String())
	real := boletoConnection(t, env, key)
	body := boletoBody(real, "CLK-6", 20, spDay(3))
	body["testClockId"] = clock
	env.Do(t, "POST", "/boletos", key, body).WantError(403, model.CodeSandboxOnly.String())
	if after := env.Do(t, "GET", "/boletos", key, nil).Want(200).Map()["total"]; after != before {
		t.Fatalf("refused boletos were written: %v, then %v", before, after)
	}

	// Deleting the clock leaves its boletos as they are, back on real time.
	env.Do(t, "DELETE", "/sandbox/test-clocks/"+clock, key, nil).Want(200)
	left := env.Do(t, "GET", "/boletos/"+onID, key, nil).Want(200).Map()
	if _, has := left["testClockId"]; has || left["status"] != "PROTESTED" || left["updatedAt"] != "2020-02-05T03:05:00.000Z" {
		t.Fatalf("boleto of a deleted clock: %v", left)
	}
}
