package rest_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"ponte/model"
	"ponte/testsupport"
	"ponte/webhooks"
)

// POST /sandbox/events: an event on demand is recorded, delivered and signed like one a
// change causes, about a sandbox resource of the caller only.
func TestSandboxEventsFire(t *testing.T) {
	t.Parallel()
	rc := testsupport.NewTLSReceiver(t)
	env := testsupport.New(t, rc.Route)
	a := env.NewClient(t, "control events A")
	key := a.APIKey
	env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "all", "url": rc.URL + "/all"}).Want(200)
	secret := env.Do(t, "GET", "/webhooks/signing-secret", key, nil).Want(200).String("secret")
	it := createItem(t, env, key, 0, map[string]any{"user": "user-ok", "password": "password-ok"})
	item := it.ID.String()
	env.WaitItem(t, key, item, testsupport.Settled)
	accounts := env.AccountIDs(t, key, item)
	checking := accounts["CHECKING_ACCOUNT"]

	fire := func(body map[string]any) *model.Event {
		t.Helper()
		var ev model.Event
		env.Do(t, "POST", "/sandbox/events", key, body).Want(200).JSON(&ev)
		if !ev.SandboxControl || ev.Payload["triggeredBy"] != "CLIENT" || ev.Payload["eventId"] != ev.ID.String() || ev.Payload["event"] != body["event"] {
			t.Fatalf("%v: %+v", body, ev)
		}
		return &ev
	}

	updated := fire(map[string]any{"event": "item/updated", "itemId": item})
	if updated.Payload["itemId"] != item || updated.Payload["id"] != item {
		t.Errorf("item/updated payload %v", updated.Payload)
	}
	if _, ok := updated.Payload["clientUserId"]; !ok {
		t.Errorf("item/updated without clientUserId: %v", updated.Payload)
	}
	failed := fire(map[string]any{"event": "item/error", "itemId": item, "errorCode": "SITE_NOT_AVAILABLE", "errorMessage": "Banco fora do ar"})
	if e, _ := failed.Payload["error"].(map[string]any); e["code"] != "SITE_NOT_AVAILABLE" || e["message"] != "Banco fora do ar" {
		t.Errorf("item/error payload %v", failed.Payload)
	}
	conn := fire(map[string]any{"event": "connector/status_updated", "itemId": item})
	if conn.Payload["connectorId"] != "0" || conn.Payload["data"].(map[string]any)["status"] != "ONLINE" {
		t.Errorf("connector/status_updated payload %v", conn.Payload)
	}
	created := fire(map[string]any{"event": "transactions/created", "itemId": item, "accountId": checking})
	var page struct {
		Total   int `json:"total"`
		Results []struct {
			ID string `json:"id"`
		} `json:"results"`
	}
	env.Do(t, "GET", "/transactions?accountId="+checking+"&pageSize=500", key, nil).Want(200).JSON(&page)
	if created.Payload["accountId"] != checking || created.Payload["transactionsCount"] != float64(page.Total) || page.Total == 0 {
		t.Errorf("transactions/created payload %v; the account has %d", created.Payload, page.Total)
	}
	link, _ := created.Payload["createdTransactionsLink"].(string)
	if !strings.HasPrefix(link, env.URL+"/transactions?") {
		t.Fatalf("createdTransactionsLink %q", link)
	}
	var linked struct {
		Total int `json:"total"`
	}
	env.Do(t, "GET", strings.TrimPrefix(link, env.URL), key, nil).Want(200).JSON(&linked)
	if linked.Total != page.Total {
		t.Errorf("the link lists %d transactions, the event announced %d", linked.Total, page.Total)
	}
	deleted := fire(map[string]any{"event": "transactions/deleted", "itemId": item, "accountId": checking,
		"transactionIds": []string{page.Results[0].ID, page.Results[1].ID, page.Results[0].ID}})
	if ids, _ := deleted.Payload["transactionIds"].([]any); len(ids) != 2 || ids[0] != page.Results[0].ID {
		t.Errorf("transactions/deleted payload %v", deleted.Payload)
	}
	if _, ok := deleted.Payload["clientUserId"]; ok {
		t.Errorf("a transactions event carries clientUserId: %v", deleted.Payload)
	}

	// Payments: a sandbox request, its intent, its schedule.
	env.Recipient(t, key)
	req := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 12.5, "description": "Pedido", "isSandbox": true}).Want(200).String("id")
	fire(map[string]any{"event": "payment_request/updated", "paymentRequestId": req})
	env.Do(t, "POST", "/sandbox/events", key, map[string]any{"event": "payment_intent/completed", "paymentRequestId": req}).
		WantError(400, "INVALID_PARAMETER")
	intent := env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": req, "connectorId": payConnector,
		"parameters": map[string]any{"cpf": happyCPF, "name": "Maria"}}).Want(200).String("id")
	ie := fire(map[string]any{"event": "payment_intent/error", "paymentRequestId": req, "errorCode": "INSUFFICIENT_FUNDS"})
	if ie.Payload["paymentIntentId"] != intent || ie.Payload["error"].(map[string]any)["code"] != "INSUFFICIENT_FUNDS" {
		t.Errorf("payment_intent/error payload %v", ie.Payload)
	}
	if _, ok := ie.Payload["sandboxControl"]; ok {
		t.Errorf("an event whose payload the interface shows carries a field more: %v", ie.Payload)
	}
	sched := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 20, "description": "Mensal", "isSandbox": true,
		"schedule": map[string]any{"type": "DAILY", "startDate": day(5), "occurrences": 3}}).Want(200).String("id")
	var n model.PaymentIntent
	env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": sched, "connectorId": payConnector,
		"parameters": map[string]any{"cpf": happyCPF, "name": "Maria"}}).Want(200).JSON(&n)
	consent(t, env, &n, "authorize").Want(http.StatusOK)
	sp := fire(map[string]any{"event": "scheduled_payment/completed", "paymentRequestId": sched})
	if sp.Payload["scheduledPaymentId"] == nil || sp.Payload["scheduledDate"] != day(5) || sp.Payload["sandboxControl"] != true {
		t.Errorf("scheduled_payment/completed payload %v", sp.Payload)
	}
	all := fire(map[string]any{"event": "scheduled_payment/all_created", "paymentRequestId": sched})
	if all.Payload["scheduledPaymentsCount"] != 3.0 || all.Payload["paymentIntentId"] != n.ID.String() {
		t.Errorf("scheduled_payment/all_created payload %v", all.Payload)
	}

	// Each went to the webhook, signed with the application's secret, and GET /events/{id}
	// shows it was fired on demand.
	fired := []*model.Event{updated, failed, conn, created, deleted, ie, sp, all}
	got := rc.Await(t, "the fired events at /all", 30*time.Second, func(got []testsupport.Delivery) bool {
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
	k, err := webhooks.SecretKey(secret)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range got {
		if d.Header.Get("webhook-id") != updated.ID.String() {
			continue
		}
		if want := webhooks.Sign([][]byte{k}, d.Header.Get("webhook-id"), d.Header.Get("webhook-timestamp"), d.Body); d.Header.Get("webhook-signature") != want {
			t.Errorf("signature %q, want %q", d.Header.Get("webhook-signature"), want)
		}
	}
	var rec model.Event
	testsupport.Eventually(t, "item/updated's delivery is recorded", 20*time.Second, func() bool {
		env.Do(t, "GET", "/events/"+updated.ID.String(), key, nil).Want(200).JSON(&rec)
		return len(rec.Deliveries) == 1 && rec.Deliveries[0].Status == "DELIVERED"
	})
	if !rec.SandboxControl {
		t.Errorf("GET /events/{id} does not say it was fired on demand: %+v", rec)
	}
}

// Hostile input: no key, a Connect Token, another application's resource, a resource that
// is not a sandbox one, an event or an id that does not apply.
func TestSandboxEventsRefused(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a, b := env.NewClient(t, "control A"), env.NewClient(t, "control B")
	key := a.APIKey
	it := createItem(t, env, key, 0, map[string]any{"user": "user-ok", "password": "password-ok"})
	item := it.ID.String()
	env.WaitItem(t, key, item, testsupport.Settled)
	env.Recipient(t, key)
	files := env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 900, "parameters": map[string]any{}}).Want(200).String("id")
	real := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 10, "description": "Real", "isSandbox": false}).Want(200).String("id")
	sandboxReq := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 10, "description": "Teste", "isSandbox": true}).Want(200).String("id")
	other := createItem(t, env, b.APIKey, 0, map[string]any{"user": "user-ok", "password": "password-ok"}).ID.String()
	env.WaitItem(t, b.APIKey, other, testsupport.Settled)
	otherTx := env.Do(t, "GET", "/transactions?accountId="+env.AccountIDs(t, b.APIKey, other)["CHECKING_ACCOUNT"], b.APIKey, nil).Want(200).Map()["results"].([]any)[0].(map[string]any)["id"]
	token := env.Do(t, "POST", "/connect_token", key, map[string]any{"itemId": item}).Want(200).String("accessToken")
	before := len(env.Events(t, key, ""))

	body := map[string]any{"event": "item/updated", "itemId": item}
	env.Do(t, "POST", "/sandbox/events", "", body).WantError(401, "API_KEY_MISSING")
	env.Do(t, "POST", "/sandbox/events", token, body).WantError(403, "FORBIDDEN")
	env.Do(t, "POST", "/sandbox/events", b.APIKey, body).WantError(404, "ITEM_NOT_FOUND")
	env.Do(t, "POST", "/sandbox/events", b.APIKey, map[string]any{"event": "payment_request/updated", "paymentRequestId": sandboxReq}).
		WantError(404, "PAYMENT_REQUEST_NOT_FOUND")
	for _, c := range []struct {
		body   map[string]any
		status int
		code   string
	}{
		{map[string]any{"event": "item/updated", "itemId": files}, 403, "SANDBOX_RESOURCE_REQUIRED"},
		{map[string]any{"event": "payment_request/updated", "paymentRequestId": real}, 403, "SANDBOX_RESOURCE_REQUIRED"},
		{map[string]any{"event": "item/sneezed", "itemId": item}, 400, "INVALID_WEBHOOK_EVENT"},
		{map[string]any{"event": "all", "itemId": item}, 400, "INVALID_WEBHOOK_EVENT"},
		{map[string]any{"event": "boleto/updated"}, 400, "INVALID_PARAMETER"},
		{map[string]any{"itemId": item}, 400, "INVALID_PARAMETER"},
		{map[string]any{"event": "item/updated"}, 400, "INVALID_PARAMETER"},
		{map[string]any{"event": "item/updated", "itemId": item, "paymentRequestId": sandboxReq}, 400, "INVALID_PARAMETER"},
		{map[string]any{"event": "item/updated", "itemId": item, "errorCode": "SITE_NOT_AVAILABLE"}, 400, "INVALID_PARAMETER"},
		{map[string]any{"event": "item/error", "itemId": item, "errorCode": "SUCCESS"}, 400, "INVALID_PARAMETER"},
		{map[string]any{"event": "item/error", "itemId": item, "errorMessage": strings.Repeat("x", 501)}, 400, "INVALID_PARAMETER"},
		{map[string]any{"event": "payment_intent/error", "paymentRequestId": sandboxReq, "errorCode": "NOT_A_CODE"}, 400, "INVALID_PARAMETER"},
		{map[string]any{"event": "transactions/created", "itemId": item, "transactionIds": []string{item}}, 400, "INVALID_PARAMETER"},
		{map[string]any{"event": "transactions/updated", "itemId": item, "transactionIds": []string{}}, 400, "INVALID_PARAMETER"},
		{map[string]any{"event": "transactions/updated", "itemId": item, "transactionIds": []any{otherTx}}, 404, "TRANSACTION_NOT_FOUND"},
		{map[string]any{"event": "transactions/updated", "itemId": item, "accountId": env.AccountIDs(t, b.APIKey, other)["CHECKING_ACCOUNT"]}, 404, "ACCOUNT_NOT_FOUND"},
		{map[string]any{"event": "scheduled_payment/created", "paymentRequestId": sandboxReq}, 400, "INVALID_PARAMETER"},
		{map[string]any{"event": "automatic_pix_payment/created", "paymentRequestId": sandboxReq}, 400, "INVALID_PARAMETER"},
		{map[string]any{"event": "payment_intent/created", "paymentRequestId": sandboxReq, "paymentIntentId": item}, 404, "PAYMENT_INTENT_NOT_FOUND"},
	} {
		env.Do(t, "POST", "/sandbox/events", key, c.body).WantError(c.status, c.code)
	}
	if after := len(env.Events(t, key, "")); after != before {
		t.Errorf("refused requests recorded %d events", after-before)
	}
}

// The GraphQL mutation and the polled read of the stream: the cursor misses no event and
// repeats none, also when a transaction that began first commits last.
func TestSandboxEventsGraphQL(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a := env.NewClient(t, "control GraphQL")
	key := a.APIKey
	it := createItem(t, env, key, 0, map[string]any{"user": "user-ok", "password": "password-ok"})
	item := it.ID.String()
	env.WaitItem(t, key, item, testsupport.Settled)

	const read = `query($c: String) { sandboxEvents(cursor: $c) { cursor events { id event sandboxControl payload } } }`
	start := env.GraphQL(t, key, read, nil).OK(t)["sandboxEvents"].(map[string]any)
	cursor := start["cursor"].(string)
	if len(start["events"].([]any)) != 0 {
		t.Fatalf("a stream from now began with old events: %v", start)
	}
	const fire = `mutation($in: SandboxEventInput!) { fireSandboxEvent(input: $in) { id event sandboxControl payload } }`
	first := env.GraphQL(t, key, fire, map[string]any{"in": map[string]any{"event": "item/login_succeeded", "itemId": item}}).OK(t)["fireSandboxEvent"].(map[string]any)
	if first["sandboxControl"] != true || first["payload"].(map[string]any)["triggeredBy"] != "CLIENT" {
		t.Fatalf("fired %v", first)
	}

	// A transaction that wrote an event and has not committed holds back the events
	// committed after it began, so a reader that moved past them cannot skip it.
	tx, err := env.DB.Pool.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(t.Context()) //nolint:errcheck
	late := "0a0a0a0a-0000-4000-8000-000000000001"
	if _, err := tx.Exec(t.Context(), `INSERT INTO events (id, client_id, event, payload) VALUES ($1, $2, 'item/updated', '{"itemId":"x"}')`, late, a.ID); err != nil {
		t.Fatal(err)
	}
	second := env.GraphQL(t, key, fire, map[string]any{"in": map[string]any{"event": "item/updated", "itemId": item}}).OK(t)["fireSandboxEvent"].(map[string]any)

	var seen []string
	poll := func() []any {
		got := env.GraphQL(t, key, read, map[string]any{"c": cursor}).OK(t)["sandboxEvents"].(map[string]any)
		cursor = got["cursor"].(string)
		for _, e := range got["events"].([]any) {
			seen = append(seen, e.(map[string]any)["id"].(string))
		}
		return got["events"].([]any)
	}
	testsupport.Eventually(t, "the first fired event is read", 10*time.Second, func() bool { poll(); return len(seen) >= 1 })
	if seen[0] != first["id"] {
		t.Fatalf("read %v, want %s first", seen, first["id"])
	}
	// Held back: the open transaction began before the second event's.
	for range 3 {
		poll()
	}
	if len(seen) != 1 {
		t.Fatalf("read %v past a transaction still running", seen)
	}
	if err := tx.Commit(t.Context()); err != nil {
		t.Fatal(err)
	}
	testsupport.Eventually(t, "the late and the second event are read", 10*time.Second, func() bool { poll(); return len(seen) >= 3 })
	if want := []string{first["id"].(string), late, second["id"].(string)}; strings.Join(seen, ",") != strings.Join(want, ",") {
		t.Fatalf("read %v, want %v (commit order, each once)", seen, want)
	}
	if poll(); len(seen) != 3 {
		t.Fatalf("a read after the last repeated events: %v", seen)
	}

	env.GraphQL(t, key, read, map[string]any{"c": "not-a-cursor"}).WantCode(t, "INVALID_CURSOR")
	token := env.Do(t, "POST", "/connect_token", key, map[string]any{"itemId": item}).Want(200).String("accessToken")
	env.GraphQL(t, token, read, nil).WantCode(t, "FORBIDDEN")
	env.GraphQL(t, token, fire, map[string]any{"in": map[string]any{"event": "item/updated", "itemId": item}}).WantCode(t, "FORBIDDEN")
	b := env.NewClient(t, "control GraphQL B")
	env.GraphQL(t, b.APIKey, fire, map[string]any{"in": map[string]any{"event": "item/updated", "itemId": item}}).WantCode(t, "ITEM_NOT_FOUND")
}

// A read from now skips what was committed before it, even behind a transaction that was
// still running then, and shows that transaction's events when it commits later.
func TestSandboxEventsFromNow(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a := env.NewClient(t, "control from now")
	key := a.APIKey
	it := createItem(t, env, key, 0, map[string]any{"user": "user-ok", "password": "password-ok"})
	item := it.ID.String()
	env.WaitItem(t, key, item, testsupport.Settled)
	const read = `query($c: String) { sandboxEvents(cursor: $c) { cursor events { id } } }`
	const fire = `mutation($in: SandboxEventInput!) { fireSandboxEvent(input: $in) { id } }`

	tx, err := env.DB.Pool.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(t.Context()) //nolint:errcheck
	running := "0a0a0a0a-0000-4000-8000-000000000002"
	if _, err := tx.Exec(t.Context(), `INSERT INTO events (id, client_id, event, payload) VALUES ($1, $2, 'item/updated', '{"itemId":"x"}')`, running, a.ID); err != nil {
		t.Fatal(err)
	}
	before := env.GraphQL(t, key, fire, map[string]any{"in": map[string]any{"event": "item/updated", "itemId": item}}).OK(t)["fireSandboxEvent"].(map[string]any)["id"]
	start := env.GraphQL(t, key, read, nil).OK(t)["sandboxEvents"].(map[string]any)
	cursor := start["cursor"].(string)
	if err := tx.Commit(t.Context()); err != nil {
		t.Fatal(err)
	}
	after := env.GraphQL(t, key, fire, map[string]any{"in": map[string]any{"event": "item/error", "itemId": item}}).OK(t)["fireSandboxEvent"].(map[string]any)["id"]
	var seen []string
	testsupport.Eventually(t, "the events committed after the start are read", 10*time.Second, func() bool {
		got := env.GraphQL(t, key, read, map[string]any{"c": cursor}).OK(t)["sandboxEvents"].(map[string]any)
		cursor = got["cursor"].(string)
		for _, e := range got["events"].([]any) {
			seen = append(seen, e.(map[string]any)["id"].(string))
		}
		return len(seen) >= 2
	})
	if want := []string{running, after.(string)}; strings.Join(seen, ",") != strings.Join(want, ",") {
		t.Fatalf("read %v, want %v (not %v, committed before the start)", seen, want, before)
	}
}
