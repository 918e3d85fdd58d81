package graph_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/testsupport"
)

// payerForm answers a payer's page (consent, pre-authorization) by a form post, as the
// payer's browser would, and returns the HTTP status.
func payerForm(t *testing.T, env *testsupport.Env, page, decision string) int {
	t.Helper()
	u, err := url.Parse(page)
	if err != nil {
		t.Fatal(err)
	}
	return env.Form(t, u.Path, url.Values{"decision": {decision}}).Status
}

// brCode writes a static PIX BR Code (EMV, with its CRC16-CCITT) for key and amount.
func brCode(key, amount, name, city, txid string) string {
	f := func(id, v string) string { return fmt.Sprintf("%s%02d%s", id, len(v), v) }
	s := f("00", "01") + f("26", f("00", "BR.GOV.BCB.PIX")+f("01", key)) + f("52", "0000") + f("53", "986") + f("54", amount) +
		f("58", "BR") + f("59", name) + f("60", city) + f("62", f("05", txid)) + "6304"
	crc := uint16(0xFFFF)
	for i := 0; i < len(s); i++ {
		crc ^= uint16(s[i]) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return s + fmt.Sprintf("%04X", crc)
}

// Parties of payments: institutions, customers and recipients, with their rules and pages.
func TestPaymentParties(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	g, other := caller(env, env.NewClient(t, "parties-a").APIKey), caller(env, env.NewClient(t, "parties-b").APIKey)

	inst := g.ok(t, `{ paymentInstitutions(name: "nubank", pageSize: 5) { total page results { id name tradeName ispb compe } } }`, nil)
	if num(t, inst, "paymentInstitutions.total") != 1 || !strings.Contains(strings.ToLower(str(t, inst, "paymentInstitutions.results.0.tradeName")), "nubank") {
		t.Fatalf("institutions named nubank %v", inst)
	}
	instID := str(t, inst, "paymentInstitutions.results.0.id")
	if one := g.ok(t, `query($id: UUID!) { paymentInstitution(id: $id) { ispb } }`, map[string]any{"id": instID}); at(t, one, "paymentInstitution.ispb") != at(t, inst, "paymentInstitutions.results.0.ispb") {
		t.Fatalf("institution %v", one)
	}
	p1 := g.ok(t, `{ paymentInstitutions(pageSize: 3) { total totalPages page results { tradeName } } }`, nil)
	total := num(t, p1, "paymentInstitutions.total")
	if total < 4 || num(t, p1, "paymentInstitutions.totalPages") != float64(int(total+2)/3) || len(list(t, p1, "paymentInstitutions.results")) != 3 {
		t.Fatalf("institutions by threes %v", p1)
	}
	g.fails(t, `query($id: UUID!) { paymentInstitution(id: $id) { id } }`, map[string]any{"id": uuid.NewString()}, "PAYMENT_INSTITUTION_NOT_FOUND", 404)
	g.fails(t, `{ paymentInstitutions(pageSize: 501) { total } }`, nil, "INVALID_PARAMETER", 400)

	t.Run("customers", func(t *testing.T) {
		const create = `mutation($in: PaymentCustomerInput!) { createPaymentCustomer(input: $in) { id type name email cpf cnpj } }`
		var made []string
		for i, in := range []map[string]any{
			{"type": "INDIVIDUAL", "name": "Maria", "cpf": "111.444.777-35", "email": "maria@example.com"},
			{"type": "BUSINESS", "name": "Loja SA", "cnpj": "11.222.333/0001-81"},
			{"type": "INDIVIDUAL", "name": "João", "cpf": happyCPF},
		} {
			d := g.ok(t, create, map[string]any{"in": in})
			made = append(made, str(t, d, "createPaymentCustomer.id"))
			if i == 0 && (at(t, d, "createPaymentCustomer.cpf") != happyCPF || at(t, d, "createPaymentCustomer.cnpj") != nil) {
				t.Fatalf("customer %v", d)
			}
		}
		g.fails(t, create, map[string]any{"in": map[string]any{"type": "INDIVIDUAL", "name": "X", "cpf": "123"}}, "INVALID_CPF", 400)
		g.fails(t, create, map[string]any{"in": map[string]any{"type": "BUSINESS", "name": "X", "cnpj": "11222333000180"}}, "INVALID_CNPJ", 400)
		g.fails(t, create, map[string]any{"in": map[string]any{"type": "ALIEN", "name": "X"}}, "INVALID_PARAMETER", 400)

		const page = `query($p: Int, $s: Int) { paymentCustomers(page: $p, pageSize: $s) { total totalPages page results { id } } }`
		a, b := g.ok(t, page, map[string]any{"s": 2}), g.ok(t, page, map[string]any{"p": 2, "s": 2})
		newestFirst := []string{made[2], made[1], made[0]}
		if num(t, a, "paymentCustomers.total") != 3 || num(t, a, "paymentCustomers.totalPages") != 2 ||
			!slices.Equal(append(ids(t, a, "paymentCustomers.results"), ids(t, b, "paymentCustomers.results")...), newestFirst) {
			t.Fatalf("customers %v %v", a, b)
		}
		up := g.ok(t, `mutation($id: UUID!) { updatePaymentCustomer(id: $id, input: {name: "Maria Souza"}) { name cpf email } }`, map[string]any{"id": made[0]})
		if at(t, up, "updatePaymentCustomer.name") != "Maria Souza" || at(t, up, "updatePaymentCustomer.email") != "maria@example.com" {
			t.Fatalf("updated %v", up)
		}
		if one := g.ok(t, `query($id: UUID!) { paymentCustomer(id: $id) { name } }`, map[string]any{"id": made[0]}); at(t, one, "paymentCustomer.name") != "Maria Souza" {
			t.Fatalf("read back %v", one)
		}
		other.fails(t, `query($id: UUID!) { paymentCustomer(id: $id) { id } }`, map[string]any{"id": made[0]}, "PAYMENT_CUSTOMER_NOT_FOUND", 404)
		other.fails(t, `mutation($id: UUID!) { deletePaymentCustomer(id: $id) { id } }`, map[string]any{"id": made[0]}, "PAYMENT_CUSTOMER_NOT_FOUND", 404)
		if d := g.ok(t, `mutation($id: UUID!) { deletePaymentCustomer(id: $id) { id name } }`, map[string]any{"id": made[2]}); at(t, d, "deletePaymentCustomer.name") != "João" {
			t.Fatalf("deleted %v", d)
		}
		g.fails(t, `query($id: UUID!) { paymentCustomer(id: $id) { id } }`, map[string]any{"id": made[2]}, "PAYMENT_CUSTOMER_NOT_FOUND", 404)
		if n := num(t, g.ok(t, page, nil), "paymentCustomers.total"); n != 2 {
			t.Fatalf("%v customers after a deletion", n)
		}
	})

	t.Run("recipients", func(t *testing.T) {
		const create = `mutation($in: PaymentRecipientInput!) { createPaymentRecipient(input: $in) { id name taxNumber isDefault pixKey
			paymentInstitution { id } account { branch number type } } }`
		account := map[string]any{"branch": "0001", "number": "1234567-8", "type": "CHECKING_ACCOUNT"}
		first := g.ok(t, create, map[string]any{"in": map[string]any{"name": "Loja", "taxNumber": "11.222.333/0001-81", "paymentInstitutionId": instID,
			"isDefault": true, "account": account}})
		if at(t, first, "createPaymentRecipient.taxNumber") != "11222333000181" || at(t, first, "createPaymentRecipient.isDefault") != true ||
			at(t, first, "createPaymentRecipient.paymentInstitution.id") != instID || at(t, first, "createPaymentRecipient.pixKey") != nil {
			t.Fatalf("recipient %v", first)
		}
		firstID := str(t, first, "createPaymentRecipient.id")
		second := g.ok(t, create, map[string]any{"in": map[string]any{"name": "Outra", "taxNumber": happyCPF, "paymentInstitutionId": instID,
			"isDefault": true, "account": account}})
		secondID := str(t, second, "createPaymentRecipient.id")
		// The new default displaces the old one.
		if d := g.ok(t, `query($id: UUID!) { paymentRecipient(id: $id) { isDefault } }`, map[string]any{"id": firstID}); at(t, d, "paymentRecipient.isDefault") != false {
			t.Fatalf("the first recipient stayed the default: %v", d)
		}
		g.fails(t, create, map[string]any{"in": map[string]any{"name": "X", "taxNumber": "123", "paymentInstitutionId": instID, "account": account}}, "INVALID_CPF", 400)
		g.fails(t, create, map[string]any{"in": map[string]any{"pixKey": "not a key"}}, "INVALID_PIX_KEY", 400)
		g.fails(t, create, map[string]any{"in": map[string]any{"smartAccountId": uuid.NewString()}}, "PAYMENT_FEATURE_NOT_SUPPORTED", 400)
		l := g.ok(t, `{ paymentRecipients { total results { id } } }`, nil)
		if !slices.Equal(ids(t, l, "paymentRecipients.results"), []string{secondID, firstID}) {
			t.Fatalf("recipients %v", l)
		}
		up := g.ok(t, `mutation($id: UUID!) { updatePaymentRecipient(id: $id, input: {name: "Loja Nova", isDefault: true}) { name isDefault taxNumber } }`, map[string]any{"id": firstID})
		if at(t, up, "updatePaymentRecipient.name") != "Loja Nova" || at(t, up, "updatePaymentRecipient.isDefault") != true ||
			at(t, up, "updatePaymentRecipient.taxNumber") != "11222333000181" {
			t.Fatalf("updated %v", up)
		}
		other.fails(t, `query($id: UUID!) { paymentRecipient(id: $id) { id } }`, map[string]any{"id": firstID}, "PAYMENT_RECIPIENT_NOT_FOUND", 404)
		g.ok(t, `mutation($id: UUID!) { deletePaymentRecipient(id: $id) { id } }`, map[string]any{"id": secondID})
		g.fails(t, `mutation($id: UUID!) { deletePaymentRecipient(id: $id) { id } }`, map[string]any{"id": secondID}, "PAYMENT_RECIPIENT_NOT_FOUND", 404)
	})

	t.Run("a Connect Token reaches no payment", func(t *testing.T) {
		tok := caller(env, str(t, g.ok(t, `mutation { createConnectToken { accessToken } }`, nil), "createConnectToken.accessToken"))
		for _, q := range []string{`{ paymentCustomers { total } }`, `{ paymentRecipients { total } }`, `{ paymentInstitutions { total } }`,
			`{ paymentRequests { total } }`, `{ smartAccounts { total } }`, `{ boletos { total } }`, `{ bulkPayments { total } }`,
			`{ smartTransferPreauthorizations { total } }`, `mutation { createPaymentRequest(input: {amount: 1}) { id } }`} {
			tok.fails(t, q, nil, "FORBIDDEN", 403)
		}
	})
}

// Requests and the payer's attempts, from creation to completion and refund, with the
// scheduled and automatic kinds and the list filters.
func TestPaymentRequestsAndIntents(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	g, other := caller(env, env.NewClient(t, "requests-a").APIKey), caller(env, env.NewClient(t, "requests-b").APIKey)
	const create = `mutation($in: PaymentRequestInput!) { createPaymentRequest(input: $in) { id status amount fees description paymentUrl isSandbox
		recipient { id } schedule { type startDate occurrences } callbackUrls { success error } } }`
	// No default recipient yet: a request needs one.
	if r := g.fails(t, create, map[string]any{"in": map[string]any{"amount": 10}}, "INVALID_PARAMETER", 400); !strings.Contains(r.Errors[0].Message, "default recipient") {
		t.Fatalf("the refusal does not say why: %q", r.Errors[0].Message)
	}
	recipient := env.Recipient(t, g.key)

	var made []string
	for i, in := range []map[string]any{
		{"amount": 10.5, "isSandbox": true, "description": "primeiro", "callbackUrls": map[string]any{"success": "https://app.example.com/ok"}},
		{"amount": 20.0, "isSandbox": true},
		{"amount": 30.0, "isSandbox": true, "schedule": map[string]any{"type": "DAILY", "startDate": spDay(5), "occurrences": 3}},
	} {
		d := g.ok(t, create, map[string]any{"in": in})
		made = append(made, str(t, d, "createPaymentRequest.id"))
		if at(t, d, "createPaymentRequest.status") != "CREATED" || at(t, d, "createPaymentRequest.recipient.id") != recipient ||
			at(t, d, "createPaymentRequest.amount") != in["amount"] || at(t, d, "createPaymentRequest.fees") != 0.0 ||
			!strings.Contains(str(t, d, "createPaymentRequest.paymentUrl"), made[i]) {
			t.Fatalf("request %d %v", i, d)
		}
		if i == 2 && (at(t, d, "createPaymentRequest.schedule.type") != "DAILY" || at(t, d, "createPaymentRequest.schedule.occurrences") != 3.0) {
			t.Fatalf("scheduled request %v", d)
		}
	}
	for _, bad := range []map[string]any{{"amount": -1}, {"amount": 10.001}, {"amount": 1_000_000_000.01}, {}, {"amount": 5, "description": strings.Repeat("x", 141)}} {
		g.fails(t, create, map[string]any{"in": bad}, "INVALID_PARAMETER", 400)
	}
	g.fails(t, create, map[string]any{"in": map[string]any{"amount": 5, "schedule": map[string]any{"type": "SINGLE", "date": "2020-01-01"}}}, "INVALID_SCHEDULE", 400)
	g.fails(t, create, map[string]any{"in": map[string]any{"amount": 5, "recipientId": uuid.NewString()}}, "PAYMENT_RECIPIENT_NOT_FOUND", 404)

	t.Run("lists: newest first, pages and dates", func(t *testing.T) {
		const q = `query($p: Int, $s: Int, $from: String, $to: String) { paymentRequests(page: $p, pageSize: $s, from: $from, to: $to) {
			total totalPages page results { id } } }`
		all := g.ok(t, q, nil)
		if !slices.Equal(ids(t, all, "paymentRequests.results"), []string{made[2], made[1], made[0]}) {
			t.Fatalf("requests %v", all)
		}
		if p2 := g.ok(t, q, map[string]any{"p": 2, "s": 2}); !slices.Equal(ids(t, p2, "paymentRequests.results"), []string{made[0]}) || num(t, p2, "paymentRequests.totalPages") != 2 {
			t.Fatalf("second page %v", p2)
		}
		today := time.Now().UTC().Format(time.DateOnly)
		if d := g.ok(t, q, map[string]any{"from": today, "to": today}); num(t, d, "paymentRequests.total") != 3 {
			t.Fatalf("today's requests %v", d)
		}
		if d := g.ok(t, q, map[string]any{"to": "2020-01-01"}); num(t, d, "paymentRequests.total") != 0 {
			t.Fatalf("requests of 2020 %v", d)
		}
		if d := g.ok(t, q, map[string]any{"from": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)}); num(t, d, "paymentRequests.total") != 0 {
			t.Fatalf("requests of the next hour %v", d)
		}
		g.fails(t, q, map[string]any{"from": "yesterday"}, "INVALID_PARAMETER", 400)
		g.fails(t, q, map[string]any{"to": "soon"}, "INVALID_PARAMETER", 400)
		g.fails(t, q, map[string]any{"from": "2026-02-01", "to": "2026-01-01"}, "INVALID_PARAMETER", 400)
		g.fails(t, q, map[string]any{"p": 0}, "INVALID_PARAMETER", 400)
		if d := other.ok(t, q, nil); num(t, d, "paymentRequests.total") != 0 {
			t.Fatalf("another application's requests %v", d)
		}
		g.fails(t, `query($id: UUID!) { paymentIntents(paymentRequestId: $id, from: "x") { total } }`, map[string]any{"id": made[0]}, "INVALID_PARAMETER", 400)
	})

	t.Run("update and delete before any attempt", func(t *testing.T) {
		up := g.ok(t, `mutation($id: UUID!) { updatePaymentRequest(id: $id, input: {amount: 21.5, description: "mudou"}) { amount description } }`, map[string]any{"id": made[1]})
		if at(t, up, "updatePaymentRequest.amount") != 21.5 || at(t, up, "updatePaymentRequest.description") != "mudou" {
			t.Fatalf("updated %v", up)
		}
		other.fails(t, `mutation($id: UUID!) { updatePaymentRequest(id: $id, input: {amount: 1}) { id } }`, map[string]any{"id": made[1]}, "PAYMENT_REQUEST_NOT_FOUND", 404)
		extra := str(t, g.ok(t, create, map[string]any{"in": map[string]any{"amount": 1, "isSandbox": true}}), "createPaymentRequest.id")
		if d := g.ok(t, `mutation($id: UUID!) { deletePaymentRequest(id: $id) { id amount } }`, map[string]any{"id": extra}); at(t, d, "deletePaymentRequest.amount") != 1.0 {
			t.Fatalf("deleted %v", d)
		}
		g.fails(t, `query($id: UUID!) { paymentRequest(id: $id) { id } }`, map[string]any{"id": extra}, "PAYMENT_REQUEST_NOT_FOUND", 404)
	})

	t.Run("an intent from consent to completion, then a refund", func(t *testing.T) {
		const start = `mutation($in: PaymentIntentInput!) { createPaymentIntent(input: $in) { id status consentUrl paymentMethod referenceId
			connector { id } paymentRequest { id status } } }`
		in := func(req string, connector int) map[string]any {
			return map[string]any{"in": map[string]any{"paymentRequestId": req, "connectorId": connector, "parameters": map[string]any{"cpf": happyCPF}}}
		}
		g.fails(t, start, in(made[0], 0), "CONNECTOR_DOES_NOT_SUPPORT_PAYMENTS", 400)
		other.fails(t, start, in(made[0], payConnector), "PAYMENT_REQUEST_NOT_FOUND", 404)
		d := g.ok(t, start, in(made[0], payConnector))
		n := at(t, d, "createPaymentIntent").(map[string]any)
		if n["status"] != "CONSENT_AWAITING_AUTHORIZATION" || at(t, n, "paymentRequest.status") != "WAITING_PAYER_AUTHORIZATION" ||
			n["paymentMethod"] != "PIS" || at(t, n, "connector.id") != float64(payConnector) {
			t.Fatalf("intent %v", n)
		}
		g.fails(t, start, in(made[0], payConnector), "PAYMENT_REQUEST_NOT_AVAILABLE", 409)
		g.fails(t, `mutation($id: UUID!) { updatePaymentRequest(id: $id, input: {amount: 1}) { id } }`, map[string]any{"id": made[0]}, "PAYMENT_REQUEST_NOT_EDITABLE", 409)
		if s := payerForm(t, env, n["consentUrl"].(string), "authorize"); s != http.StatusOK && s != http.StatusSeeOther {
			t.Fatalf("consent answered %d", s)
		}
		id := n["id"].(string)
		var intent map[string]any
		testsupport.Eventually(t, "the payment to complete", 20*time.Second, func() bool {
			intent = at(t, g.ok(t, `query($id: UUID!) { paymentIntent(id: $id) { status debtor { taxNumber } statusHistory { status at } } }`,
				map[string]any{"id": id}), "paymentIntent").(map[string]any)
			return intent["status"] == "PAYMENT_COMPLETED"
		})
		var steps []string
		for i := range list(t, intent, "statusHistory") {
			steps = append(steps, str(t, intent, fmt.Sprintf("statusHistory.%d.status", i)))
		}
		want := []string{"STARTED", "ENQUEUED", "CONSENT_AWAITING_AUTHORIZATION", "CONSENT_AUTHORIZED", "PAYMENT_PENDING",
			"PAYMENT_SETTLEMENT_PROCESSING", "PAYMENT_SETTLEMENT_DEBTOR_ACCOUNT", "PAYMENT_COMPLETED"}
		if !slices.Equal(steps, want) || at(t, intent, "debtor.taxNumber") != happyCPF {
			t.Fatalf("completed intent %v", intent)
		}
		req := g.ok(t, `query($id: UUID!) { paymentRequest(id: $id) { status refundedAmount intents { id status } } paymentIntents(paymentRequestId: $id) { total results { id } } }`,
			map[string]any{"id": made[0]})
		if at(t, req, "paymentRequest.status") != "COMPLETED" || !slices.Equal(ids(t, req, "paymentRequest.intents"), []string{id}) ||
			!slices.Equal(ids(t, req, "paymentIntents.results"), []string{id}) || at(t, req, "paymentRequest.refundedAmount") != 0.0 {
			t.Fatalf("paid request %v", req)
		}
		other.fails(t, `query($id: UUID!) { paymentIntent(id: $id) { id } }`, map[string]any{"id": id}, "PAYMENT_INTENT_NOT_FOUND", 404)
		g.fails(t, `mutation($id: UUID!) { deletePaymentRequest(id: $id) { id } }`, map[string]any{"id": made[0]}, "PAYMENT_REQUEST_NOT_EDITABLE", 409)

		const refund = `mutation($id: UUID!, $amount: Float) { refundPaymentRequest(paymentRequestId: $id, amount: $amount) { status refundedAmount } }`
		g.fails(t, refund, map[string]any{"id": made[0], "amount": 10.51}, "INVALID_PARAMETER", 400)
		g.fails(t, refund, map[string]any{"id": made[1]}, "PAYMENT_REQUEST_NOT_REFUNDABLE", 409)
		if r := g.ok(t, refund, map[string]any{"id": made[0], "amount": 0.5}); at(t, r, "refundPaymentRequest.status") != "REFUND_IN_PROGRESS" {
			t.Fatalf("refund %v", r)
		}
		testsupport.Eventually(t, "the partial refund", 20*time.Second, func() bool {
			r := g.ok(t, `query($id: UUID!) { paymentRequest(id: $id) { status refundedAmount } }`, map[string]any{"id": made[0]})
			return at(t, r, "paymentRequest.status") == "COMPLETED" && at(t, r, "paymentRequest.refundedAmount") == 0.5
		})
	})

	t.Run("a scheduled request's dated payments", func(t *testing.T) {
		n := g.ok(t, `mutation($r: String) { createPaymentIntent(input: {paymentRequestId: $r, connectorId: 5, parameters: {cpf: "11144477735"}}) { consentUrl } }`,
			map[string]any{"r": made[2]})
		payerForm(t, env, str(t, n, "createPaymentIntent.consentUrl"), "authorize")
		const q = `query($id: UUID!) { scheduledPayments(paymentRequestId: $id) { total totalPages page results { id status scheduledDate } } }`
		var d map[string]any
		testsupport.Eventually(t, "the dated payments", 20*time.Second, func() bool {
			d = g.ok(t, q, map[string]any{"id": made[2]})
			return num(t, d, "scheduledPayments.total") == 3
		})
		for i, want := range []string{spDay(5), spDay(6), spDay(7)} {
			if str(t, d, fmt.Sprintf("scheduledPayments.results.%d.scheduledDate", i)) != want || str(t, d, fmt.Sprintf("scheduledPayments.results.%d.status", i)) != "SCHEDULED" {
				t.Fatalf("dated payments %v", d)
			}
		}
		first := str(t, d, "scheduledPayments.results.0.id")
		nested := g.ok(t, `query($id: UUID!) { paymentRequest(id: $id) { scheduledPayments { id } } }`, map[string]any{"id": made[2]})
		if !slices.Equal(ids(t, nested, "paymentRequest.scheduledPayments"), ids(t, d, "scheduledPayments.results")) {
			t.Fatalf("paymentRequest.scheduledPayments %v", nested)
		}
		one := g.ok(t, `query($r: UUID!, $id: UUID!) { scheduledPayment(paymentRequestId: $r, id: $id) { scheduledDate } }`, map[string]any{"r": made[2], "id": first})
		if at(t, one, "scheduledPayment.scheduledDate") != spDay(5) {
			t.Fatalf("one dated payment %v", one)
		}
		const cancelOne = `mutation($r: UUID!, $id: UUID!) { cancelScheduledPayment(paymentRequestId: $r, id: $id) { id status } }`
		if c := g.ok(t, cancelOne, map[string]any{"r": made[2], "id": first}); at(t, c, "cancelScheduledPayment.status") != "CANCELED" {
			t.Fatalf("canceled %v", c)
		}
		g.fails(t, cancelOne, map[string]any{"r": made[2], "id": first}, "SCHEDULED_PAYMENT_NOT_CANCELABLE", 409)
		g.fails(t, cancelOne, map[string]any{"r": made[2], "id": uuid.NewString()}, "SCHEDULED_PAYMENT_NOT_FOUND", 404)
		all := g.ok(t, `mutation($r: UUID!) { cancelScheduledPayments(paymentRequestId: $r) { total results { status } } }`, map[string]any{"r": made[2]})
		for i := range 3 {
			if str(t, all, fmt.Sprintf("cancelScheduledPayments.results.%d.status", i)) != "CANCELED" {
				t.Fatalf("after canceling all %v", all)
			}
		}
		if d := g.ok(t, q, map[string]any{"id": made[1]}); num(t, d, "scheduledPayments.total") != 0 || num(t, d, "scheduledPayments.totalPages") != 0 {
			t.Fatalf("dated payments of a request without a schedule %v", d)
		}
		other.fails(t, q, map[string]any{"id": made[2]}, "PAYMENT_REQUEST_NOT_FOUND", 404)
	})

	t.Run("a request from a BR Code", func(t *testing.T) {
		const q = `mutation($in: PixQrPaymentRequestInput!) { createPaymentRequestFromPixQr(input: $in) { id amount recipient { type name pixKey }
			pixQrCode { dynamic pixKey amount merchantName merchantCity transactionId } } }`
		code := brCode("fulano@example.com", "42.90", "Fulano", "BRASILIA", "P1")
		d := g.ok(t, q, map[string]any{"in": map[string]any{"pixQrCode": code, "isSandbox": true}})
		if at(t, d, "createPaymentRequestFromPixQr.amount") != 42.9 || at(t, d, "createPaymentRequestFromPixQr.recipient.type") != "PIX_QR_CODE" ||
			at(t, d, "createPaymentRequestFromPixQr.recipient.pixKey") != "fulano@example.com" ||
			at(t, d, "createPaymentRequestFromPixQr.pixQrCode.pixKey") != "fulano@example.com" || at(t, d, "createPaymentRequestFromPixQr.pixQrCode.dynamic") != false ||
			at(t, d, "createPaymentRequestFromPixQr.pixQrCode.merchantCity") != "BRASILIA" {
			t.Fatalf("BR Code request %v", d)
		}
		g.fails(t, q, map[string]any{"in": map[string]any{"pixQrCode": code[:len(code)-1] + "0"}}, "INVALID_PIX_QR_CODE", 400)
	})

	t.Run("automatic PIX", func(t *testing.T) {
		const create = `mutation($in: AutomaticPixRequestInput!) { createAutomaticPixPaymentRequest(input: $in) { id amount status automaticPix { interval fixedAmount startDate isRetryAccepted } } }`
		d := g.ok(t, create, map[string]any{"in": map[string]any{"interval": "MONTHLY", "startDate": spDay(1), "fixedAmount": 50, "isSandbox": true, "isRetryAccepted": true}})
		id := str(t, d, "createAutomaticPixPaymentRequest.id")
		if at(t, d, "createAutomaticPixPaymentRequest.amount") != nil || at(t, d, "createAutomaticPixPaymentRequest.automaticPix.fixedAmount") != 50.0 {
			t.Fatalf("automatic PIX request %v", d)
		}
		g.fails(t, create, map[string]any{"in": map[string]any{"interval": "HOURLY", "startDate": spDay(1), "fixedAmount": 50}}, "INVALID_PARAMETER", 400)
		const schedule = `mutation($r: UUID!, $in: AutomaticPixPaymentInput!) { scheduleAutomaticPixPayment(paymentRequestId: $r, input: $in) { id status amount date } }`
		g.fails(t, schedule, map[string]any{"r": id, "in": map[string]any{"amount": 50, "date": spDay(5)}}, "PAYMENT_REQUEST_NOT_EDITABLE", 409)
		n := g.ok(t, `mutation($r: String) { createPaymentIntent(input: {paymentRequestId: $r, connectorId: 5, parameters: {cpf: "11144477735", name: "Maria"}}) { consentUrl } }`,
			map[string]any{"r": id})
		payerForm(t, env, str(t, n, "createPaymentIntent.consentUrl"), "authorize")
		testsupport.Eventually(t, "the authorization", 20*time.Second, func() bool {
			return at(t, g.ok(t, `query($id: UUID!) { paymentRequest(id: $id) { status } }`, map[string]any{"id": id}), "paymentRequest.status") == "AUTHORIZED"
		})
		g.fails(t, schedule, map[string]any{"r": id, "in": map[string]any{"amount": 49, "date": spDay(5)}}, "AUTOMATIC_PIX_AMOUNT_OUT_OF_TERMS", 400)
		c := g.ok(t, schedule, map[string]any{"r": id, "in": map[string]any{"amount": 50, "date": spDay(5)}})
		charge := str(t, c, "scheduleAutomaticPixPayment.id")
		if at(t, c, "scheduleAutomaticPixPayment.status") != "SCHEDULED" || at(t, c, "scheduleAutomaticPixPayment.date") != spDay(5) {
			t.Fatalf("charge %v", c)
		}
		l := g.ok(t, `query($r: UUID!) { automaticPixPayments(paymentRequestId: $r) { total results { id } } }`, map[string]any{"r": id})
		if !slices.Equal(ids(t, l, "automaticPixPayments.results"), []string{charge}) {
			t.Fatalf("charges %v", l)
		}
		const one = `query($r: UUID!, $id: UUID!) { automaticPixPayment(paymentRequestId: $r, id: $id) { amount } }`
		if o := g.ok(t, one, map[string]any{"r": id, "id": charge}); at(t, o, "automaticPixPayment.amount") != 50.0 {
			t.Fatalf("charge %v", o)
		}
		g.fails(t, one, map[string]any{"r": id, "id": uuid.NewString()}, "AUTOMATIC_PIX_PAYMENT_NOT_FOUND", 404)
		g.fails(t, `mutation($r: UUID!, $id: UUID!) { retryAutomaticPixPayment(paymentRequestId: $r, id: $id, input: {date: "`+spDay(6)+`"}) { id } }`,
			map[string]any{"r": id, "id": charge}, "AUTOMATIC_PIX_PAYMENT_NOT_RETRIABLE", 409)
		const cancel = `mutation($r: UUID!, $id: UUID!) { cancelAutomaticPixPayment(paymentRequestId: $r, id: $id) { status } }`
		if x := g.ok(t, cancel, map[string]any{"r": id, "id": charge}); at(t, x, "cancelAutomaticPixPayment.status") != "CANCELED" {
			t.Fatalf("canceled charge %v", x)
		}
		if x := g.ok(t, `mutation($r: UUID!) { cancelAutomaticPixAuthorization(paymentRequestId: $r) { status } }`, map[string]any{"r": id}); at(t, x, "cancelAutomaticPixAuthorization.status") != "CANCELED" {
			t.Fatalf("canceled authorization %v", x)
		}
		other.fails(t, `query($r: UUID!) { automaticPixPayments(paymentRequestId: $r) { total } }`, map[string]any{"r": id}, "PAYMENT_REQUEST_NOT_FOUND", 404)
	})
}
