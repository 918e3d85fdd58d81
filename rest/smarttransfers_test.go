package rest_test

import (
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"ponte/model"
	"ponte/payments"
	"ponte/sandbox/payer"
	"ponte/testsupport"
)

// smartConnector is the sandbox connector that offers smart transfers.
const smartConnector = 6

// recipientFor creates a bank-account recipient with the given owner's document.
func recipientFor(t *testing.T, env *testsupport.Env, key, name, taxNumber string, isDefault bool) string {
	t.Helper()
	inst := env.Do(t, "GET", "/payments/recipients/institutions?name=Nubank", key, nil).Want(200).Map()
	instID := inst["results"].([]any)[0].(map[string]any)["id"]
	return env.Do(t, "POST", "/payments/recipients", key, map[string]any{"name": name, "taxNumber": taxNumber, "paymentInstitutionId": instID,
		"isDefault": isDefault, "account": map[string]any{"branch": "0001", "number": "7654321-0", "type": "CHECKING_ACCOUNT"}}).Want(200).String("id")
}

// decidePreauth answers the consent page as the payer's browser would.
func decidePreauth(t *testing.T, env *testsupport.Env, p *model.SmartTransferPreauthorization, decision string) *testsupport.Response {
	t.Helper()
	if p.ConsentURL == nil {
		t.Fatalf("pre-authorization %s has no consentUrl", p.ID)
	}
	u, err := url.Parse(*p.ConsentURL)
	if err != nil {
		t.Fatal(err)
	}
	return env.Form(t, u.Path, url.Values{"decision": {decision}})
}

// Pre-authorizations from request to revocation: refusals naming their cause, the payer's
// consent page (approve, reject, the institution's refusal, revoke), callbacks and events.
func TestSmartTransferPreauthorizations(t *testing.T) {
	t.Parallel()
	rc := testsupport.NewTLSReceiver(t)
	env := testsupport.New(t, rc.Route)
	key := env.NewClient(t, "smart transfers").APIKey
	other := env.NewClient(t, "smart transfers other").APIKey
	env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "all", "url": rc.URL + "/st"}).Want(200)
	appOwn := env.Recipient(t, key) // the application's default recipient
	payerOwn := recipientFor(t, env, key, "Conta do pagador", happyCPF, false)
	stranger := recipientFor(t, env, key, "Outra pessoa", "52998224725", false)
	othersRecipient := env.Recipient(t, other)

	body := func(edit func(map[string]any)) map[string]any {
		b := map[string]any{"connectorId": smartConnector, "parameters": map[string]any{"cpf": happyCPF, "name": "Maria Silva"},
			"recipientIds": []string{payerOwn, appOwn}, "limits": map[string]any{"transaction": 30, "daily": 50},
			"callbackUrls":             map[string]any{"success": "https://app.example.com/ok", "error": "https://app.example.com/fail"},
			"clientPreauthorizationId": "jsr-1"}
		if edit != nil {
			edit(b)
		}
		return b
	}
	for _, c := range []struct {
		name   string
		edit   func(map[string]any)
		status int
		code   model.Code
	}{
		{"connector without smart transfers", func(b map[string]any) { b["connectorId"] = 0 }, 400, model.CodeConnectorNoSmartTransfers},
		{"unknown connector", func(b map[string]any) { b["connectorId"] = 9999 }, 404, model.CodeConnectorNotFound},
		{"no connector", func(b map[string]any) { delete(b, "connectorId") }, 400, model.CodeInvalidParameter},
		{"no payer", func(b map[string]any) { delete(b, "parameters") }, 400, model.CodeInvalidParameter},
		{"bad CPF", func(b map[string]any) { b["parameters"] = map[string]any{"cpf": "11144477736"} }, 400, model.CodeInvalidCPF},
		{"no recipients", func(b map[string]any) { b["recipientIds"] = []string{} }, 400, model.CodeInvalidParameter},
		{"a recipient twice", func(b map[string]any) { b["recipientIds"] = []string{appOwn, appOwn} }, 400, model.CodeInvalidParameter},
		{"a stranger", func(b map[string]any) { b["recipientIds"] = []string{payerOwn, stranger} }, 400, model.CodeSmartTransferRecipientNotAllowed},
		{"another application's recipient", func(b map[string]any) { b["recipientIds"] = []string{othersRecipient} }, 404, model.CodePaymentRecipientNotFound},
		{"a limit of a fraction of a cent", func(b map[string]any) { b["limits"] = map[string]any{"daily": 0.001} }, 400, model.CodeInvalidParameter},
		{"a negative limit", func(b map[string]any) { b["limits"] = map[string]any{"total": -5} }, 400, model.CodeInvalidParameter},
		{"a pending callback", func(b map[string]any) { b["callbackUrls"] = map[string]any{"pending": "https://app.example.com/p"} }, 400, model.CodeInvalidParameter},
	} {
		env.Do(t, "POST", "/smart-transfers/preauthorizations", key, body(c.edit)).WantError(c.status, c.code.String())
	}

	create := func(b map[string]any) *model.SmartTransferPreauthorization {
		var p model.SmartTransferPreauthorization
		env.Do(t, "POST", "/smart-transfers/preauthorizations", key, b).Want(200).JSON(&p)
		return &p
	}
	p := create(body(nil))
	if p.Status != payments.PreauthCreated || p.ConsentURL == nil || len(p.Recipients) != 2 || p.Recipients[0].ID.String() != payerOwn ||
		p.Connector == nil || p.Connector.ID != smartConnector || p.Limits == nil || *p.Limits.Daily != 50 || p.Limits.Weekly != nil ||
		*p.ClientPreauthorizationID != "jsr-1" || *p.CallbackUrls.Success != "https://app.example.com/ok" {
		t.Fatalf("new pre-authorization %+v", p)
	}
	id := p.ID.String()
	env.Do(t, "GET", "/smart-transfers/preauthorizations/"+id, other, nil).WantError(404, model.CodeSmartTransferPreauthorizationNotFound.String())
	env.Do(t, "POST", "/smart-transfers/payments", key, map[string]any{"preauthorizationId": id, "recipientId": appOwn, "amount": 1}).
		WantError(409, model.CodeSmartTransferPreauthorizationInactive.String())

	page := string(env.Do(t, "GET", "/smart-transfers/consent/"+id, "", nil).Want(200).Body)
	for _, want := range []string{"Maria Silva", "111.***.***-35", "Conta do pagador", "R$ 50,00", `value="authorize"`} {
		if !strings.Contains(page, want) {
			t.Fatalf("consent page lacks %q:\n%s", want, page)
		}
	}
	r := decidePreauth(t, env, p, "authorize")
	if r.Status != 303 || r.Header.Get("Location") != "https://app.example.com/ok?preauthorizationId="+id {
		t.Fatalf("approval answered %d, Location %q", r.Status, r.Header.Get("Location"))
	}
	env.Do(t, "GET", "/smart-transfers/preauthorizations/"+id, key, nil).Want(200).JSON(p)
	if p.Status != payments.PreauthCompleted || p.ConsentURL != nil {
		t.Fatalf("approved pre-authorization %+v", p)
	}
	if r := env.Form(t, "/smart-transfers/consent/"+id, url.Values{"decision": {"reject"}}); r.Status != 409 {
		t.Fatalf("a second decision answered %d", r.Status)
	}
	if r := env.Form(t, "/smart-transfers/consent/"+id, url.Values{"decision": {"maybe"}}); r.Status != 400 {
		t.Fatalf("an unknown decision answered %d", r.Status)
	}

	// The payer rejects; the institution refuses a blocked account.
	rejected := create(body(nil))
	if r := decidePreauth(t, env, rejected, "reject"); r.Header.Get("Location") != "https://app.example.com/fail?preauthorizationId="+rejected.ID.String() {
		t.Fatalf("rejection went to %q", r.Header.Get("Location"))
	}
	env.Do(t, "GET", "/smart-transfers/preauthorizations/"+rejected.ID.String(), key, nil).Want(200).JSON(rejected)
	if rejected.Status != payments.PreauthRejected || rejected.ErrorDetail == nil || rejected.ErrorDetail.Code != "CONSENT_REJECTED" {
		t.Fatalf("rejected %+v", rejected)
	}
	blocked := create(body(func(b map[string]any) {
		b["parameters"] = map[string]any{"cpf": payer.CPFAccountBlocked}
		b["recipientIds"] = []string{appOwn}
		delete(b, "callbackUrls")
	}))
	decidePreauth(t, env, blocked, "authorize").Want(200)
	env.Do(t, "GET", "/smart-transfers/preauthorizations/"+blocked.ID.String(), key, nil).Want(200).JSON(blocked)
	if blocked.Status != payments.PreauthError || blocked.ErrorDetail == nil || blocked.ErrorDetail.Code != "ACCOUNT_BLOCKED" {
		t.Fatalf("blocked account %+v", blocked)
	}

	// Revocation: by the application, then by the payer on the page.
	env.Do(t, "POST", "/smart-transfers/preauthorizations/"+id+"/revoke", other, nil).WantError(404, model.CodeSmartTransferPreauthorizationNotFound.String())
	if s := env.Do(t, "POST", "/smart-transfers/preauthorizations/"+id+"/revoke", key, nil).Want(200).String("status"); s != payments.PreauthRevoked {
		t.Fatalf("revoked: %s", s)
	}
	env.Do(t, "POST", "/smart-transfers/preauthorizations/"+id+"/revoke", key, nil).WantError(409, model.CodeSmartTransferNotRevocable.String())
	env.Do(t, "POST", "/smart-transfers/payments", key, map[string]any{"preauthorizationId": id, "recipientId": appOwn, "amount": 1}).
		WantError(409, model.CodeSmartTransferPreauthorizationInactive.String())
	byPayer := create(body(func(b map[string]any) { delete(b, "callbackUrls") }))
	decidePreauth(t, env, byPayer, "authorize").Want(200)
	if page := string(env.Form(t, "/smart-transfers/consent/"+byPayer.ID.String(), url.Values{"decision": {"revoke"}}).Want(200).Body); !strings.Contains(page, "revogada") {
		t.Fatalf("revocation page:\n%s", page)
	}

	// GraphQL reads and writes the same.
	g := env.GraphQL(t, key, `query { smartTransferPreauthorizations(pageSize: 2) { total totalPages results { id status recipients { id } connector { id } } } }`, nil).OK(t)
	if pg := g["smartTransferPreauthorizations"].(map[string]any); pg["total"] != 4.0 || pg["totalPages"] != 2.0 {
		t.Fatalf("GraphQL page %v", pg)
	}
	g = env.GraphQL(t, key, `mutation($in: SmartTransferPreauthorizationInput!) { createSmartTransferPreauthorization(input: $in) { status consentUrl limits { total } } }`,
		map[string]any{"in": body(func(b map[string]any) { b["limits"] = map[string]any{"total": 1000} })}).OK(t)
	if c := g["createSmartTransferPreauthorization"].(map[string]any); c["status"] != "CREATED" || c["limits"].(map[string]any)["total"] != 1000.0 {
		t.Fatalf("GraphQL create %v", c)
	}
	env.GraphQL(t, key, `mutation($in: SmartTransferPreauthorizationInput!) { createSmartTransferPreauthorization(input: $in) { id } }`,
		map[string]any{"in": body(func(b map[string]any) { b["connectorId"] = 0 })}).WantCode(t, model.CodeConnectorNoSmartTransfers.String())
	if m := env.Do(t, "GET", "/smart-transfers/preauthorizations?page=2&pageSize=3", key, nil).Want(200).Map(); m["total"] != 5.0 || len(m["results"].([]any)) != 2 {
		t.Fatalf("REST page %v", m)
	}

	rc.Await(t, "pre-authorization events", 20*time.Second, func(d []testsupport.Delivery) bool {
		seen := map[string]bool{}
		for _, e := range d {
			seen[e.Payload["event"].(string)+" "+e.Payload["preauthorizationId"].(string)] = true
		}
		return seen["smart_transfer_preauthorization/completed "+id] && seen["smart_transfer_preauthorization/error "+rejected.ID.String()] &&
			seen["smart_transfer_preauthorization/error "+blocked.ID.String()]
	})
}

// Payments under a pre-authorization: its recipients only, every limit (the message naming
// it), settlement through the sandbox steps or a rejection for insufficient funds, events,
// and a race of 20 payments against a day limit that allows 5.
func TestSmartTransferPayments(t *testing.T) {
	t.Parallel()
	rc := testsupport.NewTLSReceiver(t)
	env := testsupport.New(t, rc.Route)
	key := env.NewClient(t, "smart transfer payments").APIKey
	other := env.NewClient(t, "smart transfer payments other").APIKey
	env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "all", "url": rc.URL + "/stp"}).Want(200)
	appOwn := env.Recipient(t, key)
	payerOwn := recipientFor(t, env, key, "Conta do pagador", happyCPF, false)
	approved := func(cpf string, limits map[string]any, recipients ...string) string {
		var p model.SmartTransferPreauthorization
		env.Do(t, "POST", "/smart-transfers/preauthorizations", key, map[string]any{"connectorId": smartConnector,
			"parameters": map[string]any{"cpf": cpf}, "recipientIds": recipients, "limits": limits}).Want(200).JSON(&p)
		decidePreauth(t, env, &p, "authorize").Want(200)
		return p.ID.String()
	}
	id := approved(happyCPF, map[string]any{"transaction": 30, "daily": 50}, appOwn)
	pay := func(key string, amount any, recipient string) *testsupport.Response {
		return env.Do(t, "POST", "/smart-transfers/payments", key, map[string]any{"preauthorizationId": id, "recipientId": recipient,
			"amount": amount, "description": "mensalidade", "clientPaymentId": "c-1"})
	}
	pay(key, 10, payerOwn).WantError(400, model.CodeSmartTransferRecipientNotAllowed.String())
	pay(other, 10, appOwn).WantError(404, model.CodeSmartTransferPreauthorizationNotFound.String())
	pay(key, 0, appOwn).WantError(400, model.CodeInvalidParameter.String())
	pay(key, "10", appOwn).WantError(400, model.CodeInvalidParameter.String())
	pay(key, 1e300, appOwn).WantError(400, model.CodeInvalidParameter.String())
	if e := pay(key, 30.01, appOwn).WantError(400, model.CodeSmartTransferLimitExceeded.String()); !strings.Contains(e["message"].(string), "per-transaction limit of 30.00") {
		t.Fatalf("per-transaction refusal: %v", e["message"])
	}
	var first model.SmartTransferPayment
	pay(key, 20, appOwn).Want(200).JSON(&first)
	if first.Status != payments.PaymentPending || first.Amount != 20 || first.Recipient == nil || first.Recipient.ID.String() != appOwn ||
		first.PreauthorizationID.String() != id || *first.ClientPaymentID != "c-1" || *first.Description != "mensalidade" {
		t.Fatalf("new payment %+v", first)
	}
	pay(key, 25, appOwn).Want(200)
	if e := pay(key, 10, appOwn).WantError(400, model.CodeSmartTransferLimitExceeded.String()); !strings.Contains(e["message"].(string), "daily limit of 50.00: 5.00 is left") {
		t.Fatalf("daily refusal: %v", e["message"])
	}
	env.Do(t, "GET", "/smart-transfers/payments/"+first.ID.String(), other, nil).WantError(404, model.CodeSmartTransferPaymentNotFound.String())
	testsupport.Eventually(t, "the payment settles", 20*time.Second, func() bool {
		env.Do(t, "GET", "/smart-transfers/payments/"+first.ID.String(), key, nil).Want(200).JSON(&first)
		return first.Status == payments.PaymentCompleted
	})

	// The sandbox payer without funds: accepted, then rejected by the institution; a
	// rejected payment no longer counts against the limits.
	poor := approved(payer.CPFInsufficientFunds, map[string]any{"total": 15}, appOwn)
	var rejected model.SmartTransferPayment
	env.Do(t, "POST", "/smart-transfers/payments", key, map[string]any{"preauthorizationId": poor, "recipientId": appOwn, "amount": 15}).Want(200).JSON(&rejected)
	testsupport.Eventually(t, "the payment is rejected", 20*time.Second, func() bool {
		env.Do(t, "GET", "/smart-transfers/payments/"+rejected.ID.String(), key, nil).Want(200).JSON(&rejected)
		return rejected.Status == payments.PaymentRejected
	})
	if rejected.ErrorDetail == nil || rejected.ErrorDetail.Code != "INSUFFICIENT_FUNDS" {
		t.Fatalf("rejected payment %+v", rejected)
	}
	env.Do(t, "POST", "/smart-transfers/payments", key, map[string]any{"preauthorizationId": poor, "recipientId": appOwn, "amount": 15}).Want(200)

	// Twenty payments race against a day limit that allows five.
	race := approved(happyCPF, map[string]any{"daily": 50}, appOwn)
	var mu sync.Mutex
	codes := map[int]int{}
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := env.Do(t, "POST", "/smart-transfers/payments", key, map[string]any{"preauthorizationId": race, "recipientId": appOwn, "amount": 10})
			mu.Lock()
			codes[r.Status]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if codes[200] != 5 || codes[400] != 15 {
		t.Fatalf("20 racing payments against a limit of 5: %v", codes)
	}

	// GraphQL.
	g := env.GraphQL(t, key, `mutation($in: SmartTransferPaymentInput!) { createSmartTransferPayment(input: $in) { id status amount recipient { id } } }`,
		map[string]any{"in": map[string]any{"preauthorizationId": id, "recipientId": appOwn, "amount": 5}}).OK(t)
	created := g["createSmartTransferPayment"].(map[string]any)
	if created["status"] != payments.PaymentPending || created["amount"] != 5.0 {
		t.Fatalf("GraphQL payment %v", created)
	}
	g = env.GraphQL(t, key, `query($id: UUID!) { smartTransferPayment(id: $id) { preauthorizationId } }`, map[string]any{"id": created["id"]}).OK(t)
	if g["smartTransferPayment"].(map[string]any)["preauthorizationId"] != id {
		t.Fatalf("GraphQL read %v", g)
	}
	env.GraphQL(t, key, `mutation($in: SmartTransferPaymentInput!) { createSmartTransferPayment(input: $in) { id } }`,
		map[string]any{"in": map[string]any{"preauthorizationId": id, "recipientId": appOwn, "amount": 1}}).WantCode(t, model.CodeSmartTransferLimitExceeded.String())

	// Field by field against golden shapes (the official client's
	// SmartTransferPreauthorization and SmartTransferPayment).
	compareShapes(t, env, key, []shapeRead{
		{"smart_transfer_preauthorization", []string{"/smart-transfers/preauthorizations"}},
		{"smart_transfer_payment", []string{"/smart-transfers/payments/" + first.ID.String(), "/smart-transfers/payments/" + rejected.ID.String()}},
	})

	rc.Await(t, "payment events", 20*time.Second, func(d []testsupport.Delivery) bool {
		var done, failed bool
		for _, e := range d {
			done = done || e.Payload["event"] == "smart_transfer_payment/completed" && e.Payload["smartTransferPaymentId"] == first.ID.String() && e.Payload["clientPaymentId"] == "c-1"
			failed = failed || e.Payload["event"] == "smart_transfer_payment/error" && e.Payload["smartTransferPaymentId"] == rejected.ID.String()
		}
		return done && failed
	})
}
