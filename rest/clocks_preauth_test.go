package rest_test

import (
	"context"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/payments"
	"ponte/testsupport"
)

// A sandbox smart transfer pre-authorization on a test clock: created, approved and paid
// under in clock time, its daily limit counted in the clock's São Paulo days (payments up to
// the limit, a refusal, an advance of a day, a payment again), its payments' settlement
// steps run by the advance and its events dated by the clock; a pre-authorization off the
// clock keeps real time. Refusals: another application's clock 404, a connector whose
// isSandbox is false 403, a malformed id 400, none of them written.
func TestPreauthorizationsOnATestClock(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a, b := env.NewClient(t, "preauth clocks A"), env.NewClient(t, "preauth clocks B")
	key := a.APIKey
	appOwn := env.Recipient(t, key)
	clock := env.Do(t, "POST", "/sandbox/test-clocks", key, map[string]any{"name": "jsr", "frozenTime": "2030-01-01T12:00:00Z"}).Want(200).String("id")
	body := func(clockID string) map[string]any {
		b := map[string]any{"connectorId": smartConnector, "parameters": map[string]any{"cpf": happyCPF},
			"recipientIds": []string{appOwn}, "limits": map[string]any{"daily": 50}}
		if clockID != "" {
			b["testClockId"] = clockID
		}
		return b
	}
	var p model.SmartTransferPreauthorization
	env.Do(t, "POST", "/smart-transfers/preauthorizations", key, body(clock)).Want(200).JSON(&p)
	if p.CreatedAt.UTC().Format(time.RFC3339) != "2030-01-01T12:00:00Z" || p.TestClockID == nil || p.TestClockID.String() != clock {
		t.Fatalf("pre-authorization on the clock: %+v", p)
	}
	decidePreauth(t, env, &p, "authorize").Want(200)
	id := p.ID.String()
	got := env.Do(t, "GET", "/smart-transfers/preauthorizations/"+id, key, nil).Want(200).Map()
	if got["status"] != payments.PreauthCompleted || got["updatedAt"] != "2030-01-01T12:00:00.000Z" || got["testClockId"] != clock {
		t.Fatalf("approved on the clock: %v", got)
	}
	var off model.SmartTransferPreauthorization
	env.Do(t, "POST", "/smart-transfers/preauthorizations", key, body("")).Want(200).JSON(&off)
	if off.TestClockID != nil || off.CreatedAt.Year() == 2030 {
		t.Fatalf("pre-authorization off any clock: %+v", off)
	}
	decidePreauth(t, env, &off, "authorize").Want(200)

	pay := func(preauth string, amount float64) *testsupport.Response {
		return env.Do(t, "POST", "/smart-transfers/payments", key, map[string]any{"preauthorizationId": preauth, "recipientId": appOwn, "amount": amount})
	}
	first := pay(id, 30).Want(200).Map()
	if first["createdAt"] != "2030-01-01T12:00:00.000Z" || first["status"] != payments.PaymentPending {
		t.Fatalf("payment under the clocked pre-authorization: %v", first)
	}
	pay(id, 20).Want(200)
	if e := pay(id, 10).WantError(400, model.CodeSmartTransferLimitExceeded.String()); !strings.Contains(e["message"].(string), "daily limit of 50.00: 0.00 is left") {
		t.Fatalf("daily refusal on the clock: %v", e["message"])
	}
	// Real time's day is another: the payments off the clock count nothing of the clock's.
	offPaid := pay(off.ID.String(), 50).Want(200).String("id")
	testsupport.Eventually(t, "the payment off the clock settles", 20*time.Second, func() bool {
		return env.Do(t, "GET", "/smart-transfers/payments/"+offPaid, key, nil).Want(200).String("status") == payments.PaymentCompleted
	})
	if s := env.Do(t, "GET", "/smart-transfers/payments/"+first["id"].(string), key, nil).Want(200).String("status"); s != payments.PaymentPending {
		t.Fatalf("a payment on a clock not advanced moved: %s", s)
	}

	const advance = `mutation($id: UUID!, $to: DateTime) { advanceTestClock(id: $id, input: {frozenTime: $to}) { status } }`
	env.GraphQL(t, key, advance, map[string]any{"id": clock, "to": "2030-01-02T12:00:00Z"}).OK(t)
	testsupport.Eventually(t, "the clock's advance", 20*time.Second, func() bool {
		return env.Do(t, "GET", "/sandbox/test-clocks/"+clock, key, nil).Want(200).String("status") == "ready"
	})
	settled := env.Do(t, "GET", "/smart-transfers/payments/"+first["id"].(string), key, nil).Want(200).Map()
	if settled["status"] != payments.PaymentCompleted || settled["updatedAt"] != "2030-01-01T12:00:00.000Z" {
		t.Fatalf("payment after the advance: %v %v", settled["status"], settled["updatedAt"])
	}
	if next := pay(id, 50).Want(200).Map(); next["createdAt"] != "2030-01-02T12:00:00.000Z" {
		t.Fatalf("payment on the clock's next day: %v", next)
	}
	pay(id, 0.01).WantError(400, model.CodeSmartTransferLimitExceeded.String())

	eventsOf := func(preauth string) string {
		events, err := env.DB.Events(context.Background(), uuid.MustParse(a.ID), nil)
		if err != nil {
			t.Fatal(err)
		}
		var at []string
		for _, e := range events {
			if e.Payload["preauthorizationId"] == preauth {
				at = append(at, e.Event+" "+e.CreatedAt.UTC().Format(time.RFC3339))
			}
		}
		// Events of one clock instant have no order among themselves: compare them as a set.
		sort.Strings(at)
		return strings.Join(at, "|")
	}
	if at := eventsOf(id); at != "smart_transfer_payment/completed 2030-01-01T12:00:00Z|smart_transfer_payment/completed 2030-01-01T12:00:00Z|"+
		"smart_transfer_preauthorization/completed 2030-01-01T12:00:00Z" {
		t.Fatalf("events of the clocked pre-authorization: %v", at)
	}

	// GraphQL creates on a clock, reads it back and revokes it at the clock's time; a payer's
	// rejection is dated so too, with its event.
	const create = `mutation($in: SmartTransferPreauthorizationInput!) { createSmartTransferPreauthorization(input: $in) { id createdAt testClockId } }`
	g := env.GraphQL(t, key, create, map[string]any{"in": body(clock)}).OK(t)["createSmartTransferPreauthorization"].(map[string]any)
	if g["createdAt"] != "2030-01-02T12:00:00.000Z" || g["testClockId"] != clock {
		t.Fatalf("GraphQL pre-authorization on the clock: %v", g)
	}
	env.Do(t, "POST", "/sandbox/test-clocks/"+clock+"/advance", key, map[string]any{"frozenTime": "2030-01-03T12:00:00Z"}).Want(200)
	testsupport.Eventually(t, "the clock's second advance", 20*time.Second, func() bool {
		return env.Do(t, "GET", "/sandbox/test-clocks/"+clock, key, nil).Want(200).String("status") == "ready"
	})
	rv := env.GraphQL(t, key, `mutation($id: UUID!) { revokeSmartTransferPreauthorization(id: $id) { status updatedAt } }`, map[string]any{"id": g["id"]}).OK(t)
	if r := rv["revokeSmartTransferPreauthorization"].(map[string]any); r["status"] != payments.PreauthRevoked || r["updatedAt"] != "2030-01-03T12:00:00.000Z" {
		t.Fatalf("revoked on the clock: %v", r)
	}
	var rejected model.SmartTransferPreauthorization
	env.Do(t, "POST", "/smart-transfers/preauthorizations", key, body(clock)).Want(200).JSON(&rejected)
	decidePreauth(t, env, &rejected, "reject").Want(200)
	if r := env.Do(t, "GET", "/smart-transfers/preauthorizations/"+rejected.ID.String(), key, nil).Want(200).Map(); r["status"] != payments.PreauthRejected || r["updatedAt"] != "2030-01-03T12:00:00.000Z" {
		t.Fatalf("rejected on the clock: %v %v", r["status"], r["updatedAt"])
	}
	if at := eventsOf(rejected.ID.String()); at != "smart_transfer_preauthorization/error 2030-01-03T12:00:00Z" {
		t.Fatalf("events of the pre-authorization rejected on the clock: %v", at)
	}
	r := env.GraphQL(t, key, `query($id: UUID!) { smartTransferPreauthorization(id: $id) { testClockId } }`, map[string]any{"id": id}).OK(t)
	if r["smartTransferPreauthorization"].(map[string]any)["testClockId"] != clock {
		t.Fatalf("GraphQL read of the clocked pre-authorization: %v", r)
	}

	// Refusals leave nothing behind.
	before := env.Do(t, "GET", "/smart-transfers/preauthorizations", key, nil).Want(200).Map()["total"]
	foreign := env.Do(t, "POST", "/sandbox/test-clocks", b.APIKey, map[string]any{"name": "theirs", "frozenTime": "2030-01-01T00:00:00Z"}).Want(200).String("id")
	env.Do(t, "POST", "/smart-transfers/preauthorizations", key, body(foreign)).WantError(404, model.CodeTestClockNotFound.String())
	env.GraphQL(t, key, create, map[string]any{"in": body(foreign)}).WantCode(t, model.CodeTestClockNotFound.String())
	env.Do(t, "POST", "/smart-transfers/preauthorizations", key, body("not-a-clock")).WantError(400, model.CodeInvalidParameter.String())
	real, found, err := env.DB.Connector(context.Background(), smartConnector)
	if err != nil || !found {
		t.Fatal(found, err)
	}
	real.ID, real.Name, real.IsSandbox = 9906, "Banco de produção", false
	if err := env.DB.SeedConnectors(context.Background(), []model.Connector{*real}); err != nil {
		t.Fatal(err)
	}
	onReal := body(clock)
	onReal["connectorId"] = real.ID
	env.Do(t, "POST", "/smart-transfers/preauthorizations", key, onReal).WantError(403, model.CodeSandboxOnly.String())
	env.GraphQL(t, key, create, map[string]any{"in": onReal}).WantCode(t, model.CodeSandboxOnly.String())
	if after := env.Do(t, "GET", "/smart-transfers/preauthorizations", key, nil).Want(200).Map()["total"]; after != before {
		t.Fatalf("refused pre-authorizations were written: %v, then %v", before, after)
	}

	// Deleting the clock leaves its pre-authorizations as they are, back on real time.
	env.Do(t, "DELETE", "/sandbox/test-clocks/"+clock, key, nil).Want(200)
	left := env.Do(t, "GET", "/smart-transfers/preauthorizations/"+id, key, nil).Want(200).Map()
	if _, has := left["testClockId"]; has || left["createdAt"] != "2030-01-01T12:00:00.000Z" {
		t.Fatalf("pre-authorization of a deleted clock: %v", left)
	}
}
