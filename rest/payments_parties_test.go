package rest_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/payments"
	"ponte/sandbox/payer"
	"ponte/testsupport"
)

// statusOf is the status of a codeDescription: unknown ids are 404s, the rest bad input.
func statusOf(code string) int {
	if strings.HasSuffix(code, "_NOT_FOUND") {
		return http.StatusNotFound
	}
	return http.StatusBadRequest
}

func TestPaymentInstitutions(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "institutions").APIKey
	var page model.PaymentInstitutionPage
	env.Do(t, "GET", "/payments/recipients/institutions?pageSize=500", key, nil).Want(200).JSON(&page)
	if page.Total < 50 || len(page.Results) != page.Total {
		t.Fatalf("%d institutions, %d listed; want at least 50", page.Total, len(page.Results))
	}
	seen := map[string]bool{}
	for _, i := range page.Results {
		if len(i.Ispb) != 8 || i.Name == "" || i.TradeName == "" || (i.Compe != nil && len(*i.Compe) != 3) || seen[i.Ispb] {
			t.Fatalf("institution %+v", i)
		}
		seen[i.Ispb] = true
	}
	for ispb, compe := range map[string]string{"00000000": "001", "60701190": "341", "60746948": "237", "00360305": "104", "90400888": "033", "18236120": "260"} {
		found := false
		for _, i := range page.Results {
			found = found || (i.Ispb == ispb && *i.Compe == compe)
		}
		if !found {
			t.Fatalf("no institution with ISPB %s and COMPE %s", ispb, compe)
		}
	}
	var past model.PaymentInstitutionPage
	env.Do(t, "GET", "/payments/recipients/institutions?page=100&pageSize=10", key, nil).Want(200).JSON(&past)
	if past.Total != page.Total || len(past.Results) != 0 || past.Page != 100 {
		t.Fatalf("page past the end: %+v", past)
	}
	var one model.PaymentInstitutionPage
	env.Do(t, "GET", "/payments/recipients/institutions?name=bradesco", key, nil).Want(200).JSON(&one)
	if one.Total != 1 || one.Results[0].Ispb != "60746948" {
		t.Fatalf("name=bradesco: %+v", one)
	}
	env.Do(t, "GET", "/payments/recipients/institutions/"+one.Results[0].ID.String(), key, nil).Want(200)
	env.Do(t, "GET", "/payments/recipients/institutions/"+uuid.NewString(), key, nil).WantError(404, model.CodePaymentInstitutionNotFound.String())
	env.Do(t, "GET", "/payments/recipients/institutions?country=BR", key, nil).WantError(400, model.CodeInvalidParameter.String())
}

func TestPaymentCustomersAndRecipients(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "parties").APIKey
	other := env.NewClient(t, "parties-other").APIKey

	t.Run("customers", func(t *testing.T) {
		bad := []struct {
			body map[string]any
			code string
			msg  string
		}{
			{map[string]any{"type": "INDIVIDUAL", "name": "Ana", "cpf": "11144477736"}, model.CodeInvalidCPF.String(), "cpf"},
			{map[string]any{"type": "INDIVIDUAL", "name": "Ana"}, model.CodeInvalidParameter.String(), "cpf is required"},
			{map[string]any{"type": "BUSINESS", "name": "Loja", "cnpj": "11222333000180"}, model.CodeInvalidCNPJ.String(), "cnpj"},
			{map[string]any{"type": "BUSINESS", "name": "Loja", "cnpj": "12ABC34501DE36"}, model.CodeInvalidCNPJ.String(), "cnpj"},
			{map[string]any{"type": "BUSINESS", "name": "Loja", "cpf": happyCPF}, model.CodeInvalidParameter.String(), "cnpj is required"},
			{map[string]any{"type": "PERSON", "name": "Ana", "cpf": happyCPF}, model.CodeInvalidParameter.String(), "INDIVIDUAL or BUSINESS"},
			{map[string]any{"type": "INDIVIDUAL", "cpf": happyCPF}, model.CodeInvalidParameter.String(), "name"},
			{map[string]any{"type": "INDIVIDUAL", "name": "Ana", "cpf": happyCPF, "email": "not-an-email"}, model.CodeInvalidParameter.String(), "email"},
		}
		for _, b := range bad {
			m := env.Do(t, "POST", "/payments/customers", key, b.body).WantError(400, b.code)
			if !strings.Contains(m["message"].(string), b.msg) {
				t.Fatalf("%v: message %q does not mention %q", b.body, m["message"], b.msg)
			}
		}
		var c model.PaymentCustomer
		// Punctuated documents are accepted and stored as digits; "" stands for "none".
		env.Do(t, "POST", "/payments/customers", key, map[string]any{"type": "INDIVIDUAL", "name": "Ana Souza", "email": "ana@example.com",
			"cpf": "111.444.777-35", "cnpj": ""}).Want(200).JSON(&c)
		if c.Cpf == nil || *c.Cpf != happyCPF || c.Cnpj != nil {
			t.Fatalf("customer %+v", c)
		}
		id := c.ID.String()
		env.Do(t, "PATCH", "/payments/customers/"+id, key, map[string]any{"name": "Ana Souza Lima"}).Want(200).JSON(&c)
		if c.Name != "Ana Souza Lima" || *c.Cpf != happyCPF {
			t.Fatalf("after PATCH %+v", c)
		}
		env.Do(t, "PATCH", "/payments/customers/"+id, key, map[string]any{"type": "BUSINESS"}).WantError(400, model.CodeInvalidParameter.String())
		env.Do(t, "GET", "/payments/customers/"+id, other, nil).WantError(404, model.CodePaymentCustomerNotFound.String())
		if m := env.Do(t, "GET", "/payments/customers", key, nil).Want(200).Map(); m["total"] != 1.0 {
			t.Fatalf("list %v", m)
		}
		env.Do(t, "DELETE", "/payments/customers/"+id, key, nil).Want(200)
		env.Do(t, "GET", "/payments/customers/"+id, key, nil).WantError(404, model.CodePaymentCustomerNotFound.String())
		// The alphanumeric CNPJ (issued from July 2026), in the Receita Federal's example.
		env.Do(t, "POST", "/payments/customers", key, map[string]any{"type": "BUSINESS", "name": "Nova SA",
			"cnpj": "12.ABC.345/01DE-35"}).Want(200).JSON(&c)
		if c.Cnpj == nil || *c.Cnpj != "12ABC34501DE35" {
			t.Fatalf("alphanumeric CNPJ customer %+v", c)
		}
		env.Do(t, "GET", "/payments/customers/not-a-uuid", key, nil).WantError(400, model.CodeInvalidParameter.String())
	})

	t.Run("recipients", func(t *testing.T) {
		first := env.Recipient(t, key)
		var inst model.PaymentInstitutionPage
		env.Do(t, "GET", "/payments/recipients/institutions?name=Inter", key, nil).Want(200).JSON(&inst)
		instID := inst.Results[0].ID.String()
		account := map[string]any{"branch": "0001", "number": "998877-6", "type": "SAVINGS_ACCOUNT"}
		bad := []struct {
			body map[string]any
			code string
		}{
			{map[string]any{"name": "X", "taxNumber": "123", "paymentInstitutionId": instID, "account": account}, model.CodeInvalidCPF.String()},
			{map[string]any{"name": "X", "taxNumber": happyCPF, "paymentInstitutionId": uuid.NewString(), "account": account}, model.CodePaymentInstitutionNotFound.String()},
			{map[string]any{"name": "X", "taxNumber": happyCPF, "paymentInstitutionId": instID, "account": map[string]any{"branch": "12345", "number": "1", "type": "CHECKING_ACCOUNT"}}, model.CodeInvalidParameter.String()},
			{map[string]any{"name": "X", "taxNumber": happyCPF, "paymentInstitutionId": instID, "account": map[string]any{"branch": "1", "number": "1", "type": "WALLET"}}, model.CodeInvalidParameter.String()},
			{map[string]any{"pixKey": "not a key"}, model.CodeInvalidPixKey.String()},
			{map[string]any{"pixKey": "+5511"}, model.CodeInvalidPixKey.String()},
			{map[string]any{"smartAccountId": uuid.NewString()}, model.CodePaymentFeatureNotSupported.String()},
		}
		for _, b := range bad {
			env.Do(t, "POST", "/payments/recipients", key, b.body).WantError(statusOf(b.code), b.code)
		}
		var r model.PaymentRecipient
		env.Do(t, "POST", "/payments/recipients", key, map[string]any{"name": "Oficina", "taxNumber": happyCPF, "paymentInstitutionId": instID,
			"account": account, "isDefault": true}).Want(200).JSON(&r)
		if !r.IsDefault || r.PaymentInstitution.Ispb != "00416968" || r.Account.Type != "SAVINGS_ACCOUNT" || r.Type != "BANK_ACCOUNT" {
			t.Fatalf("recipient %+v", r)
		}
		// A new default takes the flag from the previous one.
		var was model.PaymentRecipient
		env.Do(t, "GET", "/payments/recipients/"+first, key, nil).Want(200).JSON(&was)
		if was.IsDefault {
			t.Fatal("two default recipients")
		}
		// A PIX key resolves (in the sandbox) to an account, always the same one.
		for _, k := range []string{"fulano@example.com", "+5511987654321", happyCPF, "11222333000181", "123e4567-e12b-12d1-a456-426655440000"} {
			var a, b model.PaymentRecipient
			env.Do(t, "POST", "/payments/recipients", key, map[string]any{"pixKey": k}).Want(200).JSON(&a)
			env.Do(t, "POST", "/payments/recipients", key, map[string]any{"pixKey": k}).Want(200).JSON(&b)
			if a.PixKey == nil || *a.PixKey != k || a.Account == nil || a.PaymentInstitution == nil || a.TaxNumber == "" ||
				a.Account.Number != b.Account.Number || a.PaymentInstitution.ID != b.PaymentInstitution.ID {
				t.Fatalf("pix key %s: %+v / %+v", k, a, b)
			}
		}
		env.Do(t, "PATCH", "/payments/recipients/"+r.ID.String(), key, map[string]any{"name": "Oficina Silva", "isDefault": false}).Want(200).JSON(&r)
		if r.Name != "Oficina Silva" || r.IsDefault {
			t.Fatalf("after PATCH %+v", r)
		}
		env.Do(t, "PATCH", "/payments/recipients/"+r.ID.String(), key, map[string]any{"pixKey": "x@example.com"}).WantError(400, model.CodeInvalidParameter.String())
		env.Do(t, "GET", "/payments/recipients/"+r.ID.String(), other, nil).WantError(404, model.CodePaymentRecipientNotFound.String())
		env.Do(t, "DELETE", "/payments/recipients/"+r.ID.String(), key, nil).Want(200)
		env.Do(t, "GET", "/payments/recipients/"+r.ID.String(), key, nil).WantError(404, model.CodePaymentRecipientNotFound.String())
	})
}

func TestPaymentRequestRules(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "request-rules").APIKey
	// Without a recipient and without a default one there is no one to pay.
	env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 10}).WantError(400, model.CodeInvalidParameter.String())
	recipient := env.Recipient(t, key)
	bad := []struct {
		body map[string]any
		code string
	}{
		{map[string]any{}, model.CodeInvalidParameter.String()},
		{map[string]any{"amount": -1}, model.CodeInvalidParameter.String()},
		{map[string]any{"amount": 10.001}, model.CodeInvalidParameter.String()},
		{map[string]any{"amount": "ten"}, model.CodeInvalidParameter.String()},
		{map[string]any{"amount": 10, "recipientId": "nope"}, model.CodeInvalidParameter.String()},
		{map[string]any{"amount": 10, "recipientId": uuid.NewString()}, model.CodePaymentRecipientNotFound.String()},
		{map[string]any{"amount": 10, "customerId": uuid.NewString()}, model.CodePaymentCustomerNotFound.String()},
		{map[string]any{"amount": 10, "callbackUrls": map[string]any{"success": "javascript:alert(1)"}}, model.CodeInvalidParameter.String()},
		{map[string]any{"amount": 10, "webhookUrl": "http://localhost/hook"}, model.CodeInvalidParameter.String()},
		{map[string]any{"amount": 10, "smartAccountId": uuid.NewString()}, model.CodeSmartAccountNotFound.String()},
		{map[string]any{"amount": 10, "description": strings.Repeat("x", 141)}, model.CodeInvalidParameter.String()},
	}
	for _, b := range bad {
		env.Do(t, "POST", "/payments/requests", key, b.body).WantError(statusOf(b.code), b.code)
	}
	var p model.PaymentRequest
	env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 25.5, "clientPaymentId": "order-7", "isSandbox": true}).Want(200).JSON(&p)
	if p.Recipient == nil || p.Recipient.ID.String() != recipient || p.ClientPaymentID == nil || !strings.HasSuffix(p.PaymentURL, "/payments/pay/"+p.ID.String()) {
		t.Fatalf("request %+v", p)
	}
	// Every field of section 2.9 is present, null where it does not apply.
	m := env.Do(t, "GET", "/payments/requests/"+p.ID.String(), key, nil).Want(200).Map()
	for _, f := range []string{"id", "amount", "fees", "description", "status", "clientPaymentId", "createdAt", "updatedAt", "callbackUrls", "paymentUrl",
		"recipient", "customer", "smartAccount", "pixQrCode", "boleto", "automaticPix", "schedule", "errorDetail", "isSandbox", "bulkPaymentId"} {
		if _, ok := m[f]; !ok {
			t.Fatalf("request lacks %s: %v", f, m)
		}
	}
	if !testsupport.IsAPITime(m["createdAt"]) {
		t.Fatalf("createdAt %v", m["createdAt"])
	}
	env.Do(t, "PATCH", "/payments/requests/"+p.ID.String(), key, map[string]any{"amount": 30, "description": "Pedido 7"}).Want(200).JSON(&p)
	if p.Amount == nil || *p.Amount != 30 || *p.Description != "Pedido 7" {
		t.Fatalf("after PATCH %+v", p)
	}
	env.Do(t, "PATCH", "/payments/requests/"+p.ID.String(), key, map[string]any{"isSandbox": false}).WantError(400, model.CodeInvalidParameter.String())

	// Intents check their input before anything else.
	intentBad := []struct {
		body   map[string]any
		status int
		code   string
	}{
		{map[string]any{"connectorId": payConnector, "parameters": map[string]any{"cpf": happyCPF}}, 400, model.CodeInvalidParameter.String()},
		{map[string]any{"paymentRequestId": p.ID, "parameters": map[string]any{"cpf": happyCPF}}, 400, model.CodeInvalidParameter.String()},
		{map[string]any{"paymentRequestId": p.ID, "connectorId": 0, "parameters": map[string]any{"cpf": happyCPF}}, 400, model.CodeConnectorNoPayments.String()},
		{map[string]any{"paymentRequestId": p.ID, "connectorId": 999, "parameters": map[string]any{"cpf": happyCPF}}, 404, "CONNECTOR_NOT_FOUND"},
		{map[string]any{"paymentRequestId": p.ID, "connectorId": payConnector}, 400, model.CodeInvalidParameter.String()},
		{map[string]any{"paymentRequestId": p.ID, "connectorId": payConnector, "parameters": map[string]any{"cpf": "12345678900"}}, 400, model.CodeInvalidCPF.String()},
		{map[string]any{"paymentRequestId": p.ID, "connectorId": payConnector, "parameters": map[string]any{"cpf": happyCPF, "cnpj": "1"}}, 400, model.CodeInvalidCNPJ.String()},
		{map[string]any{"paymentRequestId": p.ID, "connectorId": payConnector, "parameters": map[string]any{"cpf": happyCPF}, "paymentMethod": "TED"}, 400, model.CodeInvalidParameter.String()},
		{map[string]any{"paymentRequestId": p.ID, "connectorId": payConnector, "parameters": map[string]any{"cpf": happyCPF}, "isDynamicPix": true}, 400, model.CodeInvalidParameter.String()},
		{map[string]any{"paymentRequestId": p.ID, "connectorId": payConnector, "parameters": map[string]any{"cpf": happyCPF}, "paymentMethod": "PIX", "isDynamicPix": true}, 400, model.CodeInvalidParameter.String()},
		{map[string]any{"paymentRequestId": uuid.NewString(), "connectorId": payConnector, "parameters": map[string]any{"cpf": happyCPF}}, 404, model.CodePaymentRequestNotFound.String()},
	}
	for i, b := range intentBad {
		t.Run(fmt.Sprint("intent input ", i), func(t *testing.T) {
			env.Do(t, "POST", "/payments/intents", key, b.body).WantError(b.status, b.code)
		})
	}
	if s := env.Do(t, "GET", "/payments/requests/"+p.ID.String(), key, nil).Want(200).String("status"); s != payments.Created {
		t.Fatalf("refused intents moved the request to %s", s)
	}

	// Deleting a request waiting for its payer cancels the attempt with it.
	id := env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": p.ID, "connectorId": payConnector,
		"parameters": map[string]any{"cpf": happyCPF}}).Want(200).String("id")
	env.Do(t, "DELETE", "/payments/requests/"+p.ID.String(), key, nil).Want(200)
	env.Do(t, "GET", "/payments/requests/"+p.ID.String(), key, nil).WantError(404, model.CodePaymentRequestNotFound.String())
	n := intentOf(t, env, key, id)
	if n.Status != payments.IntentCanceled {
		t.Fatalf("intent of a deleted request: %s", n.Status)
	}
	consent(t, env, n, "authorize").Want(http.StatusNotFound)
}

// A request made from a pasted BR Code, and intents paid by PIX (static and dynamic codes).
func TestPaymentPixCodes(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "pix").APIKey
	code := payments.BRCode{Key: "fulano@example.com", Amount: 42.9, MerchantName: "Fulano de Tal", MerchantCity: "BRASILIA", TxID: "PEDIDO99"}.Encode()
	var p model.PaymentRequest
	env.Do(t, "POST", "/payments/requests/pix-qr", key, map[string]any{"pixQrCode": code, "isSandbox": true}).Want(200).JSON(&p)
	if p.Amount == nil || *p.Amount != 42.9 || p.PixQrCode == nil || *p.PixQrCode.PixKey != "fulano@example.com" || p.PixQrCode.MerchantName != "Fulano de Tal" ||
		*p.PixQrCode.TransactionID != "PEDIDO99" || p.Recipient == nil || p.Recipient.Type != "PIX_QR_CODE" ||
		p.Recipient.Name != "Fulano de Tal" || *p.Recipient.PixKey != "fulano@example.com" || p.Recipient.Account != nil {
		t.Fatalf("request from a BR Code %+v", p)
	}
	tampered := strings.Replace(code, "42.90", "12.90", 1)
	m := env.Do(t, "POST", "/payments/requests/pix-qr", key, map[string]any{"pixQrCode": tampered}).WantError(400, model.CodeInvalidPixQrCode.String())
	if !strings.Contains(m["message"].(string), "CRC") {
		t.Fatalf("message %q does not say the CRC is wrong", m["message"])
	}
	noAmount := payments.BRCode{Key: "fulano@example.com", MerchantName: "Fulano", MerchantCity: "BRASILIA"}.Encode()
	env.Do(t, "POST", "/payments/requests/pix-qr", key, map[string]any{"pixQrCode": noAmount}).WantError(400, model.CodeInvalidPixQrCode.String())
	env.Do(t, "POST", "/payments/requests/pix-qr", key, map[string]any{}).WantError(400, model.CodeInvalidParameter.String())

	// Paying the pasted code by PIX hands the payer that very code.
	var n model.PaymentIntent
	env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": p.ID, "connectorId": payConnector, "paymentMethod": "PIX",
		"parameters": map[string]any{"cpf": happyCPF}}).Want(200).JSON(&n)
	if n.PixData == nil || n.PixData.Value != code || !strings.HasPrefix(n.PixData.Qr, "data:image/png;base64,") {
		t.Fatalf("pixData %+v", n.PixData)
	}

	// A dynamic code needs a customer with a document, and points at this service.
	env.Recipient(t, key)
	cust := env.Do(t, "POST", "/payments/customers", key, map[string]any{"type": "BUSINESS", "name": "Cliente SA", "cnpj": "11222333000181"}).Want(200).String("id")
	reqID := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 99.99, "customerId": cust, "isSandbox": true}).Want(200).String("id")
	env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": reqID, "connectorId": payConnector, "paymentMethod": "PIX",
		"isDynamicPix": true, "parameters": map[string]any{"cpf": happyCPF}}).Want(200).JSON(&n)
	got, err := payments.ParseBRCode(n.PixData.Value)
	if err != nil {
		t.Fatalf("dynamic code %q: %v", n.PixData.Value, err)
	}
	if !got.Dynamic || got.Amount != 99.99 || !strings.Contains(got.URL, "/payments/pix/"+n.ID.String()) {
		t.Fatalf("dynamic code %+v", got)
	}
	// The code's location serves the charge while it can be paid.
	var charge map[string]any
	env.Do(t, "GET", "/payments/pix/"+n.ID.String(), "", nil).Want(200).JSON(&charge)
	if charge["status"] != "ATIVA" || charge["valor"].(map[string]any)["original"] != "99.99" || charge["chave"] != "11222333000181" {
		t.Fatalf("charge %v", charge)
	}
	// The consent page shows the QR code as an inline image.
	page := string(env.Do(t, "GET", "/payments/consent/"+n.ID.String(), "", nil).Want(200).Body)
	if !strings.Contains(page, `src="data:image/png;base64,`) || !strings.Contains(page, n.PixData.Value) {
		t.Fatal("consent page without the QR code")
	}
}

// The paymentUrl page: the payer picks an institution and gives a CPF, by a form post.
func TestPaymentPage(t *testing.T) {
	t.Parallel()
	rc := testsupport.NewTLSReceiver(t)
	env := testsupport.New(t, rc.Route)
	key := env.NewClient(t, "pay-page").APIKey
	env.Recipient(t, key)
	env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "payment_intent/created", "url": rc.URL + "/created"}).Want(200)
	var p model.PaymentRequest
	env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 1234.5, "description": "Assinatura anual", "isSandbox": true}).Want(200).JSON(&p)
	u, err := url.Parse(p.PaymentURL)
	if err != nil {
		t.Fatal(err)
	}
	page := env.Do(t, "GET", u.Path, "", nil).Want(200)
	body := string(page.Body)
	for _, want := range []string{"R$ 1.234,50", "Assinatura anual", "Loja Exemplo Ltda", `name="connectorId"`, `value="5"`, `name="cpf"`} {
		if !strings.Contains(body, want) {
			t.Fatalf("payment page lacks %q:\n%s", want, body)
		}
	}
	if csp := page.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
		t.Fatalf("CSP %q", csp)
	}
	// A sandbox request's page offers the sandbox payment institution (6) beside the real
	// ones; a real request's page offers real institutions only.
	if !strings.Contains(body, `value="6"`) {
		t.Fatalf("the sandbox request's page does not offer the sandbox payment connector:\n%s", body)
	}
	var live model.PaymentRequest
	env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 10, "isSandbox": false}).Want(200).JSON(&live)
	liveURL, _ := url.Parse(live.PaymentURL)
	if body := string(env.Do(t, "GET", liveURL.Path, "", nil).Want(200).Body); !strings.Contains(body, `value="5"`) || strings.Contains(body, `value="6"`) {
		t.Fatalf("a real request's page must offer connector 5 and not the sandbox's 6:\n%s", body)
	}
	bad := env.Form(t, u.Path, url.Values{"connectorId": {"5"}, "cpf": {"123.456.789-00"}})
	if bad.Status != 400 || !strings.Contains(string(bad.Body), "not a valid CPF") {
		t.Fatalf("bad CPF: %d %s", bad.Status, bad.Body)
	}
	r := env.Form(t, u.Path, url.Values{"connectorId": {"5"}, "cpf": {"111.444.777-35"}, "name": {"Maria Silva"}})
	if r.Status != http.StatusSeeOther || !strings.Contains(r.Header.Get("Location"), "/payments/consent/") {
		t.Fatalf("start: %d %s", r.Status, r.Header.Get("Location"))
	}
	var list model.PaymentIntentPage
	env.Do(t, "GET", "/payments/intents?paymentRequestId="+p.ID.String(), key, nil).Want(200).JSON(&list)
	if list.Total != 1 || !strings.HasSuffix(r.Header.Get("Location"), list.Results[0].ID.String()) {
		t.Fatalf("intents %+v", list)
	}
	// The consent page names the payer as they introduced themselves.
	if page := string(env.Do(t, "GET", payURLPath(t, r.Header.Get("Location")), "", nil).Want(200).Body); !strings.Contains(page, "Maria Silva (CPF 111.***.***-35)") {
		t.Fatalf("consent page:\n%s", page)
	}
	// The payer started this attempt, not the application.
	got := rc.Await(t, "payment_intent/created", 20*time.Second, func(d []testsupport.Delivery) bool { return len(d) > 0 })
	if got[0].Payload["triggeredBy"] != "USER" || got[0].Payload["paymentIntentId"] != list.Results[0].ID.String() {
		t.Fatalf("event %v", got[0].Payload)
	}
	// The request is no longer payable from this page while the attempt runs.
	if body := string(env.Do(t, "GET", u.Path, "", nil).Want(200).Body); strings.Contains(body, `name="cpf"`) {
		t.Fatal("the payment page still offers to pay")
	}
	env.Do(t, "GET", "/payments/pay/"+uuid.NewString(), "", nil).Want(404)
}

// The payment resources field by field, against golden shapes checked with section 2.9,
// 2.10 and the official client's payments types.
func TestPaymentShapes(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "payment-shapes").APIKey
	env.Recipient(t, key)
	env.Do(t, "POST", "/payments/recipients", key, map[string]any{"pixKey": "fulano@example.com"}).Want(200)
	env.Do(t, "POST", "/payments/customers", key, map[string]any{"type": "INDIVIDUAL", "name": "Ana", "cpf": happyCPF, "email": "ana@example.com"}).Want(200)
	cust := env.Do(t, "POST", "/payments/customers", key, map[string]any{"type": "BUSINESS", "name": "Loja SA", "cnpj": "11222333000181"}).Want(200).String("id")

	// A paid request with callbacks and a customer; a failed one; a PIX QR one paid by PIX;
	// a scheduled one; an automatic PIX one.
	paid := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 10, "customerId": cust, "clientPaymentId": "o-1", "isSandbox": true,
		"callbackUrls": map[string]any{"success": "https://shop.example/ok"}}).Want(200).String("id")
	failed := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 20, "isSandbox": true}).Want(200).String("id")
	qr := env.Do(t, "POST", "/payments/requests/pix-qr", key, map[string]any{"isSandbox": true,
		"pixQrCode": payments.BRCode{Key: "fulano@example.com", Amount: 5, MerchantName: "Fulano", MerchantCity: "BRASILIA"}.Encode()}).Want(200).String("id")
	dated := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 30, "isSandbox": true,
		"schedule": map[string]any{"type": "DAILY", "startDate": day(5), "occurrences": 2}}).Want(200).String("id")
	auto := env.Do(t, "POST", "/payments/requests/automatic-pix", key, map[string]any{"interval": "MONTHLY", "startDate": day(1), "fixedAmount": 15,
		"isSandbox": true, "expiresAt": day(200), "firstPayment": map[string]any{"amount": 15, "date": day(3)}}).Want(200).String("id")
	intents := map[string]string{}
	for req, in := range map[string]map[string]any{
		paid:   {"cpf": happyCPF},
		failed: {"cpf": payer.CPFInsufficientFunds},
		qr:     {"cpf": happyCPF},
		dated:  {"cpf": happyCPF},
		auto:   {"cpf": happyCPF, "name": "Ana"},
	} {
		body := map[string]any{"paymentRequestId": req, "connectorId": payConnector, "parameters": in}
		if req == qr {
			body["paymentMethod"] = "PIX"
		}
		var n model.PaymentIntent
		env.Do(t, "POST", "/payments/intents", key, body).Want(200).JSON(&n)
		consent(t, env, &n, "authorize")
		intents[req] = n.ID.String()
	}
	awaitIntent(t, env, key, intents[paid], payments.PaymentCompleted)
	awaitIntent(t, env, key, intents[failed], payments.PaymentRejected)
	awaitIntent(t, env, key, intents[qr], payments.PaymentCompleted)
	compareShapes(t, env, key, []shapeRead{
		{"payment_institution", []string{"/payments/recipients/institutions?pageSize=500"}},
		{"payment_customer", []string{"/payments/customers"}},
		{"payment_recipient", []string{"/payments/recipients"}},
		{"payment_request", []string{"/payments/requests"}},
		{"payment_intent", []string{"/payments/intents"}},
		{"scheduled_payment", []string{"/payments/requests/" + dated + "/schedules"}},
		{"automatic_pix_payment", []string{"/payments/requests/" + auto + "/automatic-pix/schedules"}},
	})
}
