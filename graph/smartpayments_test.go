package graph_test

import (
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/testsupport"
)

// Boletos, smart accounts, smart transfers and bulk payments through GraphQL.
func TestBoletosAndSmartPayments(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	g, other := caller(env, env.NewClient(t, "smart-a").APIKey), caller(env, env.NewClient(t, "smart-b").APIKey)
	recipient := env.Recipient(t, g.key)

	t.Run("boletos", func(t *testing.T) {
		const connect = `mutation($id: String) { createBoletoConnection(itemId: $id) { id connectorId } }`
		direct := str(t, newItem(t, g, 0, map[string]any{"user": "user-ok", "password": "password-ok"}), "id")
		g.fails(t, connect, map[string]any{"id": direct}, "CONNECTOR_DOES_NOT_SUPPORT_BOLETOS", 400)
		item := str(t, newItem(t, g, 2, map[string]any{"cnpj": "11222333000181", "cpf": happyCPF, "password": "12345678", "profile": "master"}), "id")
		c := g.ok(t, connect, map[string]any{"id": item})
		conn := str(t, c, "createBoletoConnection.id")
		if again := g.ok(t, connect, map[string]any{"id": item}); at(t, again, "createBoletoConnection.id") != conn || at(t, c, "createBoletoConnection.connectorId") != 2.0 {
			t.Fatalf("connections %v %v", c, again)
		}
		other.fails(t, connect, map[string]any{"id": item}, "ITEM_NOT_FOUND", 404)
		if l := g.ok(t, `{ boletoConnections { total results { id } } }`, nil); !slices.Equal(ids(t, l, "boletoConnections.results"), []string{conn}) {
			t.Fatalf("connections %v", l)
		}
		if one := g.ok(t, `query($id: UUID!) { boletoConnection(id: $id) { connectorId } }`, map[string]any{"id": conn}); at(t, one, "boletoConnection.connectorId") != 2.0 {
			t.Fatalf("connection %v", one)
		}
		other.fails(t, `query($id: UUID!) { boletoConnection(id: $id) { id } }`, map[string]any{"id": conn}, "BOLETO_CONNECTION_NOT_FOUND", 404)

		const create = `mutation($in: CreateBoletoInput!) { createBoleto(input: $in) { id status amount seuNumero nossoNumero barcode digitableLine
			payer { taxNumber personType } fine { value type } } }`
		boleto := func(seu string, amount float64, due string) map[string]any {
			return map[string]any{"in": map[string]any{"boletoConnectionId": conn, "boleto": map[string]any{"seuNumero": seu, "amount": amount, "dueDate": due,
				"payer": map[string]any{"taxNumber": "111.444.777-35", "name": "Maria Souza", "addressState": "SP", "addressZipCode": "01310-100"},
				"fine":  map[string]any{"value": 2, "type": "PERCENTAGE"}}}}
		}
		b1 := g.ok(t, create, boleto("G-1", 30, spDay(5)))
		if at(t, b1, "createBoleto.status") != "OPEN" || at(t, b1, "createBoleto.payer.taxNumber") != happyCPF || at(t, b1, "createBoleto.payer.personType") != "INDIVIDUAL" ||
			len(str(t, b1, "createBoleto.barcode")) != 44 || at(t, b1, "createBoleto.fine.type") != "PERCENTAGE" {
			t.Fatalf("boleto %v", b1)
		}
		b2 := g.ok(t, create, boleto("G-2", 45.5, spDay(20)))
		g.fails(t, create, boleto("G-1", 10, spDay(5)), "BOLETO_SEU_NUMERO_ALREADY_EXISTS", 409)
		g.fails(t, create, boleto("G-3", 10, "2020-01-01"), "BOLETO_DUE_DATE_IN_THE_PAST", 400)
		id1, id2 := str(t, b1, "createBoleto.id"), str(t, b2, "createBoleto.id")
		const q = `query($c: String, $s: String, $from: String, $to: String) { boletos(boletoConnectionId: $c, status: $s, dueDateFrom: $from, dueDateTo: $to) { total results { id } } }`
		if d := g.ok(t, q, nil); !slices.Equal(ids(t, d, "boletos.results"), []string{id1, id2}) {
			t.Fatalf("boletos %v", d)
		}
		if d := g.ok(t, q, map[string]any{"to": spDay(10)}); !slices.Equal(ids(t, d, "boletos.results"), []string{id1}) {
			t.Fatalf("due up to ten days %v", d)
		}
		if d := g.ok(t, q, map[string]any{"from": spDay(10), "c": conn}); !slices.Equal(ids(t, d, "boletos.results"), []string{id2}) {
			t.Fatalf("due from ten days %v", d)
		}
		if c := g.ok(t, `mutation($id: UUID!) { cancelBoleto(id: $id) { status } }`, map[string]any{"id": id1}); at(t, c, "cancelBoleto.status") != "CANCELLED" {
			t.Fatalf("canceled %v", c)
		}
		g.fails(t, `mutation($id: UUID!) { cancelBoleto(id: $id) { status } }`, map[string]any{"id": id1}, "BOLETO_NOT_CANCELABLE", 409)
		if d := g.ok(t, q, map[string]any{"s": "OPEN"}); !slices.Equal(ids(t, d, "boletos.results"), []string{id2}) {
			t.Fatalf("open boletos %v", d)
		}
		if one := g.ok(t, `query($id: UUID!) { boleto(id: $id) { amount status } }`, map[string]any{"id": id2}); at(t, one, "boleto.amount") != 45.5 {
			t.Fatalf("boleto %v", one)
		}
		other.fails(t, `query($id: UUID!) { boleto(id: $id) { id } }`, map[string]any{"id": id2}, "BOLETO_NOT_FOUND", 404)
	})

	var account string
	t.Run("smart accounts", func(t *testing.T) {
		const create = `mutation($in: SmartAccountInput!) { createSmartAccount(input: $in) { id name taxNumber isSandbox agency number type } }`
		d := g.ok(t, create, map[string]any{"in": map[string]any{"name": "Loja", "taxNumber": "11222333000181", "email": "loja@example.com",
			"phoneNumber": "+5511999990000", "isSandbox": true}})
		account = str(t, d, "createSmartAccount.id")
		if at(t, d, "createSmartAccount.type") != "CHECKING_ACCOUNT" || at(t, d, "createSmartAccount.isSandbox") != true {
			t.Fatalf("smart account %v", d)
		}
		g.fails(t, create, map[string]any{"in": map[string]any{"name": "X"}}, "INVALID_PARAMETER", 400)
		if l := g.ok(t, `{ smartAccounts { total results { id } } }`, nil); !slices.Equal(ids(t, l, "smartAccounts.results"), []string{account}) {
			t.Fatalf("smart accounts %v", l)
		}
		const balance = `query($id: UUID!) { smartAccountBalance(id: $id) { balance blockedBalance scheduledBalance } smartAccount(id: $id) { name } }`
		if b := g.ok(t, balance, map[string]any{"id": account}); at(t, b, "smartAccountBalance.balance") != 0.0 || at(t, b, "smartAccount.name") != "Loja" {
			t.Fatalf("new account %v", b)
		}
		other.fails(t, balance, map[string]any{"id": account}, "SMART_ACCOUNT_NOT_FOUND", 404)
		// A payer pays 100 into it.
		req := str(t, g.ok(t, `mutation($a: String) { createPaymentRequest(input: {amount: 100, isSandbox: true, smartAccountId: $a}) { id } }`,
			map[string]any{"a": account}), "createPaymentRequest.id")
		n := g.ok(t, `mutation($r: String) { createPaymentIntent(input: {paymentRequestId: $r, connectorId: 5, parameters: {cpf: "11144477735"}}) { consentUrl } }`,
			map[string]any{"r": req})
		payerForm(t, env, str(t, n, "createPaymentIntent.consentUrl"), "authorize")
		testsupport.Eventually(t, "the account to be funded", 20*time.Second, func() bool {
			return at(t, g.ok(t, balance, map[string]any{"id": account}), "smartAccountBalance.balance") == 100.0
		})
	})

	t.Run("bulk payments", func(t *testing.T) {
		if account == "" {
			t.Fatal("the smart account was not made and funded")
		}
		req := func(amount float64) string {
			return str(t, g.ok(t, `mutation($a: Float) { createPaymentRequest(input: {amount: $a, isSandbox: true}) { id } }`, map[string]any{"a": amount}),
				"createPaymentRequest.id")
		}
		r1, r2, big := req(30), req(20), req(500)
		const create = `mutation($a: String, $r: [String!]) { createBulkPayment(input: {smartAccountId: $a, paymentRequestIds: $r}) { id status totalAmount paymentUrl
			paymentRequests { id } smartAccount { id } } }`
		g.fails(t, create, map[string]any{"a": account, "r": []string{r1, big}}, "INSUFFICIENT_SMART_ACCOUNT_BALANCE", 409)
		g.fails(t, create, map[string]any{"a": account, "r": []string{r1, r1}}, "INVALID_PARAMETER", 400)
		other.fails(t, create, map[string]any{"a": account, "r": []string{r1}}, "SMART_ACCOUNT_NOT_FOUND", 404)
		d := g.ok(t, create, map[string]any{"a": account, "r": []string{r1, r2}})
		id := str(t, d, "createBulkPayment.id")
		if at(t, d, "createBulkPayment.status") != "CREATED" || at(t, d, "createBulkPayment.totalAmount") != 50.0 ||
			!slices.Equal(ids(t, d, "createBulkPayment.paymentRequests"), []string{r1, r2}) || at(t, d, "createBulkPayment.smartAccount.id") != account {
			t.Fatalf("bulk payment %v", d)
		}
		g.fails(t, create, map[string]any{"a": account, "r": []string{r2}}, "PAYMENT_REQUEST_NOT_AVAILABLE", 409)
		if l := g.ok(t, `{ bulkPayments { total results { id } } }`, nil); !slices.Equal(ids(t, l, "bulkPayments.results"), []string{id}) {
			t.Fatalf("bulk payments %v", l)
		}
		if one := g.ok(t, `query($id: UUID!) { bulkPayment(id: $id) { totalAmount } }`, map[string]any{"id": id}); at(t, one, "bulkPayment.totalAmount") != 50.0 {
			t.Fatalf("bulk payment %v", one)
		}
		other.fails(t, `query($id: UUID!) { bulkPayment(id: $id) { id } }`, map[string]any{"id": id}, "BULK_PAYMENT_NOT_FOUND", 404)
		if x := g.ok(t, `mutation($id: UUID!) { deleteBulkPayment(id: $id) { id } }`, map[string]any{"id": id}); at(t, x, "deleteBulkPayment.id") != id {
			t.Fatalf("deleted %v", x)
		}
		g.fails(t, `query($id: UUID!) { bulkPayment(id: $id) { id } }`, map[string]any{"id": id}, "BULK_PAYMENT_NOT_FOUND", 404)
		// Its requests are free again.
		g.ok(t, create, map[string]any{"a": account, "r": []string{r2}})
	})

	t.Run("smart transfers", func(t *testing.T) {
		const create = `mutation($in: SmartTransferPreauthorizationInput!) { createSmartTransferPreauthorization(input: $in) { id status consentUrl
			recipients { id } connector { id } limits { transaction total } } }`
		in := func(connector int) map[string]any {
			return map[string]any{"in": map[string]any{"connectorId": connector, "parameters": map[string]any{"cpf": happyCPF}, "recipientIds": []string{recipient},
				"limits": map[string]any{"transaction": 10, "total": 15}, "clientPreauthorizationId": "pre-1"}}
		}
		g.fails(t, create, in(0), "CONNECTOR_DOES_NOT_SUPPORT_SMART_TRANSFERS", 400)
		d := g.ok(t, create, in(6))
		pre := at(t, d, "createSmartTransferPreauthorization").(map[string]any)
		if pre["status"] != "CREATED" || at(t, pre, "connector.id") != 6.0 || !slices.Equal(ids(t, pre, "recipients"), []string{recipient}) ||
			at(t, pre, "limits.total") != 15.0 {
			t.Fatalf("pre-authorization %v", pre)
		}
		id := pre["id"].(string)
		const pay = `mutation($in: SmartTransferPaymentInput!) { createSmartTransferPayment(input: $in) { id status amount preauthorizationId recipient { id } } }`
		payIn := func(amount float64) map[string]any {
			return map[string]any{"in": map[string]any{"preauthorizationId": id, "recipientId": recipient, "amount": amount}}
		}
		g.fails(t, pay, payIn(5), "SMART_TRANSFER_PREAUTHORIZATION_NOT_ACTIVE", 409)
		payerForm(t, env, pre["consentUrl"].(string), "authorize")
		testsupport.Eventually(t, "the pre-authorization to complete", 20*time.Second, func() bool {
			return at(t, g.ok(t, `query($id: UUID!) { smartTransferPreauthorization(id: $id) { status } }`, map[string]any{"id": id}),
				"smartTransferPreauthorization.status") == "COMPLETED"
		})
		g.fails(t, pay, payIn(11), "SMART_TRANSFER_LIMIT_EXCEEDED", 400)
		p := g.ok(t, pay, payIn(8))
		if at(t, p, "createSmartTransferPayment.preauthorizationId") != id || at(t, p, "createSmartTransferPayment.amount") != 8.0 {
			t.Fatalf("payment %v", p)
		}
		g.fails(t, pay, payIn(8), "SMART_TRANSFER_LIMIT_EXCEEDED", 400) // 16 of a total of 15
		pid := str(t, p, "createSmartTransferPayment.id")
		if one := g.ok(t, `query($id: UUID!) { smartTransferPayment(id: $id) { amount recipient { id } } }`, map[string]any{"id": pid}); at(t, one, "smartTransferPayment.recipient.id") != recipient {
			t.Fatalf("payment %v", one)
		}
		other.fails(t, `query($id: UUID!) { smartTransferPayment(id: $id) { id } }`, map[string]any{"id": pid}, "SMART_TRANSFER_PAYMENT_NOT_FOUND", 404)
		if l := g.ok(t, `{ smartTransferPreauthorizations { total results { id } } }`, nil); !slices.Equal(ids(t, l, "smartTransferPreauthorizations.results"), []string{id}) {
			t.Fatalf("pre-authorizations %v", l)
		}
		const revoke = `mutation($id: UUID!) { revokeSmartTransferPreauthorization(id: $id) { status } }`
		other.fails(t, revoke, map[string]any{"id": id}, "SMART_TRANSFER_PREAUTHORIZATION_NOT_FOUND", 404)
		if r := g.ok(t, revoke, map[string]any{"id": id}); at(t, r, "revokeSmartTransferPreauthorization.status") != "REVOKED" {
			t.Fatalf("revoked %v", r)
		}
		g.fails(t, pay, payIn(1), "SMART_TRANSFER_PREAUTHORIZATION_NOT_ACTIVE", 409)
		g.fails(t, `query($id: UUID!) { smartTransferPreauthorization(id: $id) { id } }`, map[string]any{"id": uuid.NewString()}, "SMART_TRANSFER_PREAUTHORIZATION_NOT_FOUND", 404)
	})
}
