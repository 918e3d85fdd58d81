package rest_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/testsupport"
)

// Every move of a sandbox boleto's table through REST (GraphQL for one of them), each with
// its boleto/updated event; every other status refused naming the allowed ones; nothing
// moves once it ended; a boleto outside the sandbox, another application's and a keyless
// call refused.
func TestSandboxControlBoletos(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a, b := env.NewClient(t, "boletomove-a"), env.NewClient(t, "boletomove-b")
	key := a.APIKey
	it := createItem(t, env, key, smartConnector, map[string]any{"cpf": happyCPF})
	approve(t, env, key, it.ID.String())
	conn := env.Do(t, "POST", "/boleto-connections/from-item", key, map[string]any{"itemId": it.ID.String()}).Want(200).String("id")
	seq := 0
	fresh := func(overdue bool) string {
		seq++
		id := env.Do(t, "POST", "/boletos", key, boletoBody(conn, "CTL-"+string(rune('A'+seq)), 40, spDay(5))).Want(200).String("id")
		if overdue {
			env.Do(t, "POST", "/sandbox/payments/boletos/"+id+"/status", key, map[string]any{"status": "OVERDUE"}).Want(200)
		}
		return id
	}
	events := func() int {
		list, err := env.DB.Events(context.Background(), uuid.MustParse(a.ID), nil)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range list {
			if e.Event == "boleto/updated" && e.Payload["triggeredBy"] == nil {
				n++
			}
		}
		return n
	}
	table := map[string][]string{"OPEN": {"PAID", "OVERDUE", "CANCELLED"}, "OVERDUE": {"PAID", "CANCELLED", "PROTESTED"}}
	all := []string{"OPEN", "PAID", "OVERDUE", "CANCELLED", "PROTESTED"}
	const gqlMove = `mutation($id: UUID!, $status: String!) { sandboxMovePayment(kind: "boletos", id: $id, input: {status: $status}) {
		kind from status paymentRequest { id } boleto { id status amountPaid } } }`
	for from, allowed := range table {
		held := fresh(from == "OVERDUE")
		for _, to := range all {
			path := "/sandbox/payments/boletos/" + held + "/status"
			if !slices.Contains(allowed, to) {
				e := env.Do(t, "POST", path, key, map[string]any{"status": to}).WantError(400, model.CodeSandboxMoveNotAllowed.String())
				if !strings.Contains(e["message"].(string), strings.Join(allowed, ", ")) {
					t.Fatalf("%s -> %s refusal %q", from, to, e["message"])
				}
				continue
			}
			id := fresh(from == "OVERDUE")
			before := events()
			var mv model.SandboxPaymentMove
			if to == "PROTESTED" {
				got := env.GraphQL(t, key, gqlMove, map[string]any{"id": id, "status": to}).OK(t)["sandboxMovePayment"].(map[string]any)
				if got["from"] != from || got["paymentRequest"] != nil || got["boleto"].(map[string]any)["status"] != to {
					t.Fatalf("GraphQL %s -> %s: %v", from, to, got)
				}
			} else {
				env.Do(t, "POST", "/sandbox/payments/boletos/"+id+"/status", key, map[string]any{"status": to}).Want(200).JSON(&mv)
				if mv.Kind != "boletos" || mv.From != from || mv.Status != to || mv.Boleto == nil || mv.Boleto.Status != to || mv.PaymentRequest != nil {
					t.Fatalf("%s -> %s: %+v", from, to, mv)
				}
				if to == "PAID" && (mv.Boleto.AmountPaid == nil || *mv.Boleto.AmountPaid < 40) {
					t.Fatalf("%s -> PAID: amountPaid %v", from, mv.Boleto.AmountPaid)
				}
			}
			if got := events(); got != before+1 {
				t.Fatalf("%s -> %s: %d boleto/updated events, want %d", from, to, got, before+1)
			}
			if _, open := table[to]; !open { // ended: nothing moves it again
				env.Do(t, "POST", "/sandbox/payments/boletos/"+id+"/status", key, map[string]any{"status": "PAID"}).
					WantError(400, model.CodeSandboxMoveNotAllowed.String())
			}
		}
	}
	env.AuditLedger(t)

	id := fresh(false)
	env.Do(t, "POST", "/sandbox/payments/boletos/"+id+"/status", b.APIKey, map[string]any{"status": "PAID"}).WantError(404, model.CodeBoletoNotFound.String())
	env.Do(t, "POST", "/sandbox/payments/boletos/"+id+"/status", "", map[string]any{"status": "PAID"}).Want(401)
	real := env.Do(t, "POST", "/boletos", key, boletoBody(boletoConnection(t, env, key), "CTL-REAL", 12, spDay(5))).Want(200).String("id")
	env.Do(t, "POST", "/sandbox/payments/boletos/"+real+"/status", key, map[string]any{"status": "PAID"}).WantError(403, model.CodeSandboxOnly.String())
	if st := env.Do(t, "GET", "/boletos/"+real, key, nil).Want(200).String("status"); st != "OPEN" {
		t.Fatalf("a boleto outside the sandbox moved: %s", st)
	}
}
