package rest_test

import (
	"net/url"
	"sync"
	"testing"
	"time"

	"ponte/model"
	"ponte/payments"
	"ponte/testsupport"
)

// Bulk payments: CREATED requests paid from a smart account in one authorization, refused
// when the account cannot cover them or a request is not payable, each request moving as it
// would alone, the account debited once per request in a ledger that still sums to zero,
// deletion only before authorization, and two authorizations racing for one balance.
func TestBulkPayments(t *testing.T) {
	t.Parallel()
	rc := testsupport.NewTLSReceiver(t)
	env := testsupport.New(t, rc.Route)
	key := env.NewClient(t, "bulk payments").APIKey
	other := env.NewClient(t, "bulk payments other").APIKey
	env.Recipient(t, key)
	env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "payment_request/updated", "url": rc.URL + "/bulk"}).Want(200)
	account := env.Do(t, "POST", "/payments/smart-accounts", key, map[string]any{"name": "Loja", "taxNumber": "11222333000181",
		"email": "loja@example.com", "phoneNumber": "+5511999990000", "isSandbox": true}).Want(200).String("id")
	balance := func() float64 {
		var b model.SmartAccountBalance
		env.Do(t, "GET", "/payments/smart-accounts/"+account+"/balance", key, nil).Want(200).JSON(&b)
		return b.Balance
	}
	// Fund the account: a payer pays 100 into it.
	into := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 100, "smartAccountId": account, "isSandbox": true}).Want(200).String("id")
	var n model.PaymentIntent
	env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": into, "connectorId": payConnector,
		"parameters": map[string]any{"cpf": happyCPF}}).Want(200).JSON(&n)
	consent(t, env, &n, "authorize")
	testsupport.Eventually(t, "the account is funded", 20*time.Second, func() bool { return balance() == 100 })

	request := func(amount float64) string {
		return env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": amount, "isSandbox": true}).Want(200).String("id")
	}
	r1, r2, r3 := request(30), request(20), request(80)
	bulk := func(k string, ids ...string) *testsupport.Response {
		return env.Do(t, "POST", "/payments/bulk", k, map[string]any{"smartAccountId": account, "paymentRequestIds": ids,
			"callbackUrls": map[string]any{"success": "https://app.example.com/ok", "error": "https://app.example.com/fail"}})
	}
	env.Do(t, "POST", "/payments/bulk", key, map[string]any{"paymentRequestIds": []string{r1}}).WantError(400, model.CodeInvalidParameter.String())
	bulk(other, r1).WantError(404, model.CodeSmartAccountNotFound.String())
	bulk(key).WantError(400, model.CodeInvalidParameter.String())
	bulk(key, r1, r1).WantError(400, model.CodeInvalidParameter.String())
	bulk(key, r1, "6b1f8a34-1c7e-4c1e-9f59-3b8d1c0e2a77").WantError(404, model.CodePaymentRequestNotFound.String())
	bulk(key, r1, "not-an-id").WantError(400, model.CodeInvalidParameter.String())
	bulk(key, into).WantError(409, model.CodePaymentRequestNotAvailable.String())
	bulk(key, r1, r3).WantError(409, model.CodeInsufficientSmartAccountBalance.String())

	var b model.BulkPayment
	bulk(key, r1, r2).Want(200).JSON(&b)
	if b.Status != payments.BulkCreated || b.TotalAmount != 50 || b.GrossAmount < 50 || len(b.PaymentRequests) != 2 ||
		b.PaymentRequests[0].ID.String() != r1 || b.SmartAccount == nil || b.SmartAccount.ID.String() != account || b.PaymentURL == "" {
		t.Fatalf("new bulk payment %+v", b)
	}
	id := b.ID.String()
	bulk(key, r2).WantError(409, model.CodePaymentRequestNotAvailable.String())
	env.Do(t, "GET", "/payments/bulk/"+id, other, nil).WantError(404, model.CodeBulkPaymentNotFound.String())
	env.Do(t, "DELETE", "/payments/bulk/"+id, other, nil).WantError(404, model.CodeBulkPaymentNotFound.String())

	// Deleted before authorization: gone, and its request free again.
	gone := bulk(key, r3).Want(200).String("id")
	env.Do(t, "DELETE", "/payments/bulk/"+gone, key, nil).Want(200)
	env.Do(t, "GET", "/payments/bulk/"+gone, key, nil).WantError(404, model.CodeBulkPaymentNotFound.String())

	// The owner authorizes on the paymentUrl page.
	u, _ := url.Parse(b.PaymentURL)
	env.Do(t, "GET", u.Path, "", nil).Want(200)
	if r := env.Form(t, u.Path, url.Values{"decision": {"authorize"}}); r.Status != 303 || r.Header.Get("Location") != "https://app.example.com/ok?bulkPaymentId="+id {
		t.Fatalf("authorization answered %d, Location %q", r.Status, r.Header.Get("Location"))
	}
	if r := env.Form(t, u.Path, url.Values{"decision": {"authorize"}}); r.Status != 409 {
		t.Fatalf("a second authorization answered %d", r.Status)
	}
	env.Do(t, "DELETE", "/payments/bulk/"+id, key, nil).WantError(409, model.CodeBulkPaymentNotDeletable.String())
	testsupport.Eventually(t, "the bulk payment completes", 20*time.Second, func() bool {
		env.Do(t, "GET", "/payments/bulk/"+id, key, nil).Want(200).JSON(&b)
		return b.Status == payments.BulkCompleted
	})
	for _, p := range b.PaymentRequests {
		if p.Status != payments.Completed {
			t.Fatalf("request %s of a completed bulk payment is %s", p.ID, p.Status)
		}
	}
	if got := balance(); got != 50 {
		t.Fatalf("balance after paying 50 of 100: %v", got)
	}
	env.AuditLedger(t)

	// Two bulk payments of 40 each, authorized at once against a balance of 50: one pays,
	// the other ends in ERROR and frees its request.
	a1, a2 := bulk(key, request(40)).Want(200).String("id"), bulk(key, request(40)).Want(200).String("id")
	var wg sync.WaitGroup
	for _, bid := range []string{a1, a2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			env.Form(t, "/payments/bulk-consent/"+bid, url.Values{"decision": {"authorize"}})
		}()
	}
	wg.Wait()
	statuses := map[string]int{}
	for _, bid := range []string{a1, a2} {
		var x model.BulkPayment
		env.Do(t, "GET", "/payments/bulk/"+bid, key, nil).Want(200).JSON(&x)
		statuses[x.Status]++
		if x.Status == payments.BulkError && (x.ErrorDetail == nil || x.ErrorDetail.Code != model.CodeInsufficientSmartAccountBalance.String()) {
			t.Fatalf("the refused one %+v", x)
		}
	}
	if statuses[payments.BulkError] != 1 || statuses[payments.BulkError]+statuses[payments.BulkPaymentInProgress]+statuses[payments.BulkCompleted] != 2 {
		t.Fatalf("two racing authorizations: %v", statuses)
	}
	testsupport.Eventually(t, "the balance", 20*time.Second, func() bool { return balance() == 10 })

	// The owner rejects: ERROR, and the request may join another bulk payment.
	r4 := request(5)
	rej := bulk(key, r4).Want(200).String("id")
	if r := env.Form(t, "/payments/bulk-consent/"+rej, url.Values{"decision": {"reject"}}); r.Header.Get("Location") != "https://app.example.com/fail?bulkPaymentId="+rej {
		t.Fatalf("rejection went to %q", r.Header.Get("Location"))
	}
	g := env.GraphQL(t, key, `mutation($in: BulkPaymentInput!) { createBulkPayment(input: $in) { id status totalAmount paymentRequests { id status } smartAccount { id } } }`,
		map[string]any{"in": map[string]any{"smartAccountId": account, "paymentRequestIds": []string{r4}}}).OK(t)
	again := g["createBulkPayment"].(map[string]any)
	if again["status"] != payments.BulkCreated || again["totalAmount"] != 5.0 {
		t.Fatalf("GraphQL bulk payment %v", again)
	}
	g = env.GraphQL(t, key, `mutation($id: UUID!) { deleteBulkPayment(id: $id) { id } } `, map[string]any{"id": again["id"]}).OK(t)
	env.GraphQL(t, key, `query($id: UUID!) { bulkPayment(id: $id) { id } }`, map[string]any{"id": again["id"]}).WantCode(t, model.CodeBulkPaymentNotFound.String())
	g = env.GraphQL(t, key, `query { bulkPayments { total results { id status } } }`, nil).OK(t)
	if g["bulkPayments"].(map[string]any)["total"] != 4.0 {
		t.Fatalf("GraphQL list %v", g)
	}
	if m := env.Do(t, "GET", "/payments/bulk", key, nil).Want(200).Map(); m["total"] != 4.0 {
		t.Fatalf("REST list %v", m)
	}
	env.GraphQL(t, key, `mutation($in: BulkPaymentInput!) { createBulkPayment(input: $in) { id } }`,
		map[string]any{"in": map[string]any{"smartAccountId": account, "paymentRequestIds": []string{request(11)}}}).WantCode(t, model.CodeInsufficientSmartAccountBalance.String())

	// Field by field against golden shapes (the official client's BulkPayment and
	// SmartAccount): bulk payments completed, failed and waiting.
	compareShapes(t, env, key, []shapeRead{
		{"bulk_payment", []string{"/payments/bulk"}},
		{"smart_account", []string{"/payments/smart-accounts"}},
	})

	// Each request of the bulk payment sent its own events, as it would alone.
	rc.Await(t, "request events", 20*time.Second, func(d []testsupport.Delivery) bool {
		seen := map[string]bool{}
		for _, e := range d {
			if s, _ := e.Payload["status"].(string); s != "" {
				seen[e.Payload["paymentRequestId"].(string)+" "+s] = true
			}
		}
		return seen[r1+" IN_PROGRESS"] && seen[r1+" COMPLETED"] && seen[r2+" COMPLETED"]
	})
}
