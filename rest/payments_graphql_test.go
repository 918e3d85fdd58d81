package rest_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"ponte/model"
	"ponte/payments"
	"ponte/testsupport"
)

// The same payments through GraphQL: one implementation serves both surfaces.
func TestPaymentsGraphQL(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "payments-graphql").APIKey
	d := env.GraphQL(t, key, `{ paymentInstitutions(name: "Itaú", pageSize: 5) { total results { id ispb compe tradeName } } }`, nil).OK(t)
	inst := d["paymentInstitutions"].(map[string]any)["results"].([]any)
	if len(inst) == 0 {
		t.Fatal("no institution named Itaú")
	}
	instID := inst[0].(map[string]any)["id"]

	d = env.GraphQL(t, key, `mutation($r: PaymentRecipientInput!, $c: PaymentCustomerInput!) {
		createPaymentRecipient(input: $r) { id isDefault paymentInstitution { ispb } account { branch number type } }
		createPaymentCustomer(input: $c) { id type cnpj }
	}`, map[string]any{
		"r": map[string]any{"name": "Loja", "taxNumber": "11222333000181", "paymentInstitutionId": instID, "isDefault": true,
			"account": map[string]any{"branch": "0001", "number": "1-9", "type": "CHECKING_ACCOUNT"}},
		"c": map[string]any{"type": "BUSINESS", "name": "Cliente SA", "cnpj": "11.222.333/0001-81"},
	}).OK(t)
	if d["createPaymentCustomer"].(map[string]any)["cnpj"] != "11222333000181" {
		t.Fatalf("customer %v", d["createPaymentCustomer"])
	}
	customerID := d["createPaymentCustomer"].(map[string]any)["id"]

	// The same validation as REST, with its codeDescription in the extensions.
	env.GraphQL(t, key, `mutation { createPaymentCustomer(input: {type: "INDIVIDUAL", name: "X", cpf: "123"}) { id } }`, nil).WantCode(t, model.CodeInvalidCPF.String())
	env.GraphQL(t, key, `mutation { createPaymentRequest(input: {amount: 10, schedule: {type: "WEEKLY", startDate: "2020-01-01", occurrences: 2, dayOfWeek: "MONDAY"}}) { id } }`, nil).
		WantCode(t, model.CodeInvalidSchedule.String())

	d = env.GraphQL(t, key, `mutation($c: String) { createPaymentRequest(input: {amount: 12.34, description: "GraphQL", customerId: $c, isSandbox: true}) {
		id status amount fees paymentUrl recipient { id } customer { id } } }`, map[string]any{"c": customerID}).OK(t)
	req := d["createPaymentRequest"].(map[string]any)
	reqID := req["id"].(string)
	if req["status"] != payments.Created || req["amount"] != 12.34 || req["recipient"] == nil {
		t.Fatalf("request %v", req)
	}
	d = env.GraphQL(t, key, `mutation($r: String) { createPaymentIntent(input: {paymentRequestId: $r, connectorId: 6, parameters: {cpf: "11144477735"},
		paymentMethod: "PIX", isDynamicPix: true}) { id status consentUrl pixData { value } connector { id } paymentRequest { id status } } }`,
		map[string]any{"r": reqID}).OK(t)
	intent := d["createPaymentIntent"].(map[string]any)
	if intent["status"] != payments.ConsentAwaitingAuthorization || intent["paymentRequest"].(map[string]any)["status"] != payments.WaitingPayerAuthorization {
		t.Fatalf("intent %v", intent)
	}
	// A second attempt on the same request is a conflict, here as in REST.
	env.GraphQL(t, key, `mutation($r: String) { createPaymentIntent(input: {paymentRequestId: $r, connectorId: 6, parameters: {cpf: "11144477735"}}) { id } }`,
		map[string]any{"r": reqID}).WantCode(t, model.CodePaymentRequestNotAvailable.String())

	u, _ := url.Parse(intent["consentUrl"].(string))
	env.Form(t, u.Path, url.Values{"decision": {"authorize"}}).Want(http.StatusOK)
	id := intent["id"].(string)
	var steps []string
	testsupport.Eventually(t, "the intent to complete", 20*time.Second, func() bool {
		d := env.GraphQL(t, key, `query($id: UUID!) { paymentIntent(id: $id) { status debtor { taxNumber } statusHistory { status at } } }`,
			map[string]any{"id": id}).OK(t)
		n := d["paymentIntent"].(map[string]any)
		steps = nil
		for _, s := range n["statusHistory"].([]any) {
			steps = append(steps, s.(map[string]any)["status"].(string))
			if !testsupport.IsAPITime(s.(map[string]any)["at"]) {
				t.Fatalf("step time %v", s)
			}
		}
		return n["status"] == payments.PaymentCompleted
	})
	if want := append(append(consentSteps, settleSteps...), payments.PaymentCompleted); !slices.Equal(steps, want) {
		t.Fatalf("steps %v, want %v", steps, want)
	}
	d = env.GraphQL(t, key, `query($id: UUID!) { paymentRequest(id: $id) { status intents { id status } scheduledPayments { id } }
		paymentRequests(from: "2020-01-01") { total results { id } } paymentIntents(paymentRequestId: $id) { total } }`, map[string]any{"id": reqID}).OK(t)
	pr := d["paymentRequest"].(map[string]any)
	if pr["status"] != payments.Completed || len(pr["intents"].([]any)) != 1 || d["paymentIntents"].(map[string]any)["total"] != 1.0 {
		t.Fatalf("after completion %v", d)
	}
	// REST reads what GraphQL wrote.
	var n model.PaymentIntent
	env.Do(t, "GET", "/payments/intents/"+id, key, nil).Want(200).JSON(&n)
	if n.Status != payments.PaymentCompleted || !n.IsDynamicPix || n.PixData == nil {
		t.Fatalf("REST view %+v", n)
	}
	env.GraphQL(t, key, `mutation($id: UUID!) { deletePaymentRequest(id: $id) { id } }`, map[string]any{"id": reqID}).WantCode(t, model.CodePaymentRequestNotEditable.String())
	// Automatic PIX through GraphQL.
	d = env.GraphQL(t, key, `mutation { createAutomaticPixPaymentRequest(input: {interval: "WEEKLY", startDate: "`+day(1)+`",
		minimumVariableAmount: 5, maximumVariableAmount: 80, isSandbox: true}) { id amount status automaticPix { interval maximumVariableAmount isRetryAccepted } } }`, nil).OK(t)
	auto := d["createAutomaticPixPaymentRequest"].(map[string]any)
	if auto["amount"] != nil || auto["automaticPix"].(map[string]any)["maximumVariableAmount"] != 80.0 {
		t.Fatalf("automatic PIX request %v", auto)
	}
	env.GraphQL(t, key, `mutation($r: UUID!) { scheduleAutomaticPixPayment(paymentRequestId: $r, input: {amount: 10, date: "`+day(3)+`"}) { id } }`,
		map[string]any{"r": auto["id"]}).WantCode(t, model.CodePaymentRequestNotEditable.String())
	// A Connect Token cannot reach payments.
	tok := env.Do(t, "POST", "/connect_token", key, nil).Want(200).String("accessToken")
	env.Do(t, "GET", "/payments/requests", tok, nil).WantError(403, "FORBIDDEN")
}

// A page of requests with their intents and schedules runs the same few statements
// whatever its length.
func TestPaymentsGraphQLBatching(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "payments-batching").APIKey
	env.Recipient(t, key)
	const q = `{ paymentRequests(pageSize: 50) { total results { id customer { id } recipient { id } intents { id status connector { id } statusHistory { status } } scheduledPayments { id } } } }`
	statements := map[int]any{}
	made := 0
	for _, n := range []int{2, 12} {
		for ; made < n; made++ {
			// Each request has a customer of its own, so reading customers one by one would show.
			cust := env.Do(t, "POST", "/payments/customers", key, map[string]any{"type": "INDIVIDUAL", "name": fmt.Sprint("Cliente ", made), "cpf": happyCPF}).
				Want(200).String("id")
			id := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 10, "isSandbox": true, "customerId": cust}).Want(200).String("id")
			env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": id, "connectorId": 5 + made%2,
				"parameters": map[string]any{"cpf": happyCPF}}).Want(200)
		}
		g := env.GraphQL(t, key, q, nil)
		g.OK(t)
		results := g.Data["paymentRequests"].(map[string]any)["results"].([]any)
		for _, r := range results {
			if len(r.(map[string]any)["intents"].([]any)) != 1 {
				t.Fatalf("request without its intent: %v", r)
			}
		}
		statements[len(results)] = g.Extensions["sqlStatements"]
	}
	t.Logf("SQL statements by page length: %v", statements)
	if statements[2] == nil || statements[2] != statements[12] {
		t.Fatalf("SQL statements by page length: %v", statements)
	}
}
