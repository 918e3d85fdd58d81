package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"ponte/model"
	"ponte/payments"
	"ponte/testsupport"
)

// badAmounts are refused wherever the payments API takes an amount: not positive, more
// than two decimals (0.000000001 was once stored as R$ 0.00 and paid), above the bound, or
// not a number at all. Each is raw JSON.
var badAmounts = []string{`0`, `-1`, `-0.01`, `0.000000001`, `0.001`, `10.005`, `1000000000.01`, `1e300`, `1e309`, `"NaN"`, `"Infinity"`, `"10.50"`, `null`}

// TestMoneyRules sends every bad amount to every endpoint that takes one, through REST and
// GraphQL, and checks that a valid 10.50 goes through as exactly R$ 10,50.
func TestMoneyRules(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "money").APIKey
	env.Recipient(t, key)

	// An authorized automatic PIX request, to schedule charges under.
	auto := env.Do(t, "POST", "/payments/requests/automatic-pix", key, map[string]any{"interval": "MONTHLY", "startDate": day(1),
		"minimumVariableAmount": 0.01, "maximumVariableAmount": 1000000000, "isSandbox": true}).Want(200).String("id")
	authorizeAutoPix(t, env, key, auto, happyCPF)
	editable := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 1, "isSandbox": true}).Want(200).String("id")

	terms := func(field, amount string) string {
		base := `"interval":"MONTHLY","startDate":"` + day(1) + `","isSandbox":true`
		if field == "firstPayment.amount" {
			return `{` + base + `,"fixedAmount":10,"firstPayment":{"amount":` + amount + `}}`
		}
		return `{` + base + `,"` + field + `":` + amount + `}`
	}
	endpoints := []struct {
		name, method, path string
		body               func(amount string) string
	}{
		{"request", "POST", "/payments/requests", func(a string) string { return `{"amount":` + a + `,"isSandbox":true}` }},
		{"request update", "PATCH", "/payments/requests/" + editable, func(a string) string { return `{"amount":` + a + `}` }},
		{"fixedAmount", "POST", "/payments/requests/automatic-pix", func(a string) string { return terms("fixedAmount", a) }},
		{"minimumVariableAmount", "POST", "/payments/requests/automatic-pix", func(a string) string { return terms("minimumVariableAmount", a) }},
		{"maximumVariableAmount", "POST", "/payments/requests/automatic-pix", func(a string) string { return terms("maximumVariableAmount", a) }},
		{"firstPayment", "POST", "/payments/requests/automatic-pix", func(a string) string { return terms("firstPayment.amount", a) }},
		{"charge", "POST", "/payments/requests/" + auto + "/automatic-pix/schedule", func(a string) string { return `{"amount":` + a + `,"date":"` + day(3) + `"}` }},
	}
	for _, e := range endpoints {
		for _, a := range badAmounts {
			if a == `null` && (e.method == "PATCH" || strings.HasSuffix(e.name, "Amount")) {
				continue // an absent amount changes nothing, and an absent term is no limit
			}
			r := env.Do(t, e.method, e.path, key, e.body(a))
			if r.Status != http.StatusBadRequest || r.Map()["codeDescription"] != model.CodeInvalidParameter.String() {
				t.Errorf("%s with amount %s: %d %s", e.name, a, r.Status, r.Body)
			}
		}
	}
	// The same rules through GraphQL, which shares the resolvers.
	for _, a := range []string{"0", "-1", "0.000000001", "10.005", "1e300"} {
		env.GraphQL(t, key, `mutation { createPaymentRequest(input: {amount: `+a+`, isSandbox: true}) { id } }`, nil).WantCode(t, model.CodeInvalidParameter.String())
	}
	// A pasted BR Code: its amount is written as EMV digits with at most two decimals, and
	// bounded like any other.
	for amount, code := range map[string]string{"0.001": model.CodeInvalidPixQrCode.String(), "1e-9": model.CodeInvalidPixQrCode.String(),
		"NaN": model.CodeInvalidPixQrCode.String(), "1000000000.01": model.CodeInvalidParameter.String()} {
		env.Do(t, "POST", "/payments/requests/pix-qr", key, map[string]any{"pixQrCode": brCodeWithAmount(amount)}).WantError(http.StatusBadRequest, code)
	}

	// 10.50 is exactly R$ 10,50: in the request, its PIX code and the payer's page.
	var p model.PaymentRequest
	env.Do(t, "POST", "/payments/requests", key, `{"amount":10.50,"isSandbox":true}`).Want(200).JSON(&p)
	if p.Amount == nil || *p.Amount != 10.5 {
		t.Fatalf("amount %v", p.Amount)
	}
	var n model.PaymentIntent
	env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": p.ID, "connectorId": payConnector, "paymentMethod": "PIX",
		"parameters": map[string]any{"cpf": happyCPF}}).Want(200).JSON(&n)
	if n.PixData == nil || !strings.Contains(n.PixData.Value, "540510.50") {
		t.Fatalf("PIX code of 10.50: %+v", n.PixData)
	}
	if page := string(env.Do(t, "GET", payURLPath(t, p.PaymentURL), "", nil).Want(200).Body); !strings.Contains(page, "R$ 10,50") {
		t.Fatalf("payment page does not show R$ 10,50")
	}
	env.Do(t, "POST", "/payments/requests/pix-qr", key, map[string]any{"pixQrCode": brCodeWithAmount("1000000000.00")}).Want(200)
	env.Do(t, "POST", "/payments/requests", key, fmt.Sprintf(`{"amount":%d,"isSandbox":true}`, payments.MaxAmount)).Want(200)
}

// brCodeWithAmount writes a static BR Code whose field 54 is amount as given, signed.
func brCodeWithAmount(amount string) string {
	tlv := func(id, v string) string { return fmt.Sprintf("%s%02d%s", id, len(v), v) }
	s := tlv("00", "01") + tlv("26", tlv("00", "br.gov.bcb.pix")+tlv("01", "fulano@example.com")) + tlv("52", "0000") + tlv("53", "986") +
		tlv("54", amount) + tlv("58", "BR") + tlv("59", "Fulano") + tlv("60", "BRASILIA") + tlv("62", tlv("05", "***")) + "6304"
	crc := uint16(0xFFFF)
	for i := 0; i < len(s); i++ {
		crc ^= uint16(s[i]) << 8
		for j := 0; j < 8; j++ {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return s + fmt.Sprintf("%04X", crc)
}
