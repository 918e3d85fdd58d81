//go:build browser

package rest_test

import (
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ponte/model"
	"ponte/testsupport"
	"ponte/testsupport/axe"
)

// TestReferenceA11y: the API reference, rendered from the OpenAPI document, has no serious
// or critical axe finding, with its operations listed and one opened.
func TestReferenceA11y(t *testing.T) {
	r := newConnectRig(t)
	r.do(t, r.browser, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(r.env.URL+"/reference"))
	r.until(t, r.browser, `document.querySelectorAll("details, section, h2").length > 10`)
	axe.Check(t, r.browser, "/reference")
	// Opened, an operation shows its parameters and answers.
	r.eval(t, r.browser, `document.querySelectorAll("details").forEach((d) => { d.open = true; }), true`)
	axe.Check(t, r.browser, "/reference (every operation opened)")
	r.screenshot(t, r.browser, "reference")
}

// TestGraphiQLA11y: GraphiQL, with the schema loaded, a link's query in the editor and its
// answer shown, has no serious or critical axe finding, at a desktop's width and a phone's.
func TestGraphiQLA11y(t *testing.T) {
	r := newConnectRig(t)
	q := url.Values{"apiKey": {r.client.APIKey}, "query": {"query Shared { connectors(pageSize: 2) { total } }"}}
	for _, w := range []int64{1280, 360} {
		r.do(t, r.browser, chromedp.EmulateViewport(w, 800), chromedp.Navigate(r.env.URL+"/graphiql?"+q.Encode()))
		r.until(t, r.browser, `document.querySelector(".graphiql-query-editor .CodeMirror") !== null`)
		r.do(t, r.browser, chromedp.Click(chromedp.CSS(".graphiql-execute-button")))
		r.until(t, r.browser, `document.querySelector(".graphiql-response").textContent.includes("total")`)
		axe.Check(t, r.browser, fmt.Sprintf("/graphiql at %d px", w))
		r.screenshot(t, r.browser, "graphiql")
	}
	// Without a key the Headers editor opens first; the Variables one is a tab away.
	r.do(t, r.browser, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(r.env.URL+"/graphiql"))
	r.until(t, r.browser, `document.querySelectorAll(".graphiql-editor-tool .CodeMirror").length === 2`)
	axe.Check(t, r.browser, "/graphiql without a key (Headers editor open)")
	r.do(t, r.browser, chromedp.Click(chromedp.CSS(`.graphiql-editor-tools button[data-name="variables"]`)))
	r.until(t, r.browser, `document.querySelector(".graphiql-editor-tool").getAttribute("aria-label") === "Variables"`)
	axe.Check(t, r.browser, "/graphiql (Variables editor open)")
	if names := r.eval(t, r.browser, `[...document.querySelectorAll(".CodeMirror textarea")].map((t) => t.getAttribute("aria-label")).join(",")`); names != "Query,Variables,Headers,Response" {
		t.Errorf("the editors' inputs are named %q", names)
	}
}

// TestPayerPagesA11y: the pages a payer opens from a link (the payment page, the consent
// page, and what they show once decided), in Portuguese and English, have no serious or
// critical axe finding and show statuses in words.
func TestPayerPagesA11y(t *testing.T) {
	r := newConnectRig(t)
	key := r.client.APIKey
	r.env.Recipient(t, key)
	for _, lang := range []string{"pt-BR", "en"} {
		req := r.env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 30, "description": "Pedido 42", "isSandbox": true}).Want(200)
		r.do(t, r.browser, chromedp.EmulateViewport(390, 844), chromedp.Navigate(req.String("paymentUrl")+"?lang="+lang))
		r.until(t, r.browser, `document.querySelector("#connectorId") !== null`)
		axe.Check(t, r.browser, "payment page ("+lang+")")
		r.do(t, r.browser, chromedp.SetValue(chromedp.ID("connectorId"), fmt.Sprint(payConnector)),
			chromedp.SendKeys(chromedp.ID("cpf"), happyCPF), chromedp.Click(chromedp.CSS("button.approve")))
		r.until(t, r.browser, `document.querySelector('button[value="authorize"]') !== null`)
		axe.Check(t, r.browser, "consent page ("+lang+")")
		want := map[string]string{"pt-BR": "Aguardando a sua autorização", "en": "Waiting for your authorization"}[lang]
		r.until(t, r.browser, fmt.Sprintf(`document.querySelector("#status").textContent.startsWith(%q)`, want))
		r.do(t, r.browser, chromedp.Click(chromedp.CSS(`button[value="reject"]`)))
		r.until(t, r.browser, `document.querySelector("#message") !== null && document.querySelector('button[value="authorize"]') === null`)
		axe.Check(t, r.browser, "consent page, rejected ("+lang+")")
	}
}

// TestTransferPagesA11y: a smart transfer pre-authorization's consent page and a bulk
// payment's authorization page, in Portuguese and English, have no serious or critical axe
// finding.
func TestTransferPagesA11y(t *testing.T) {
	r := newConnectRig(t)
	key := r.client.APIKey
	recipient := r.env.Recipient(t, key)
	preauth := r.env.Do(t, "POST", "/smart-transfers/preauthorizations", key, map[string]any{"connectorId": 6,
		"parameters": map[string]any{"cpf": happyCPF}, "recipientIds": []string{recipient}}).Want(200).String("id")
	account := r.env.Do(t, "POST", "/payments/smart-accounts", key, map[string]any{"name": "Conta Lote", "taxNumber": happyCPF,
		"email": "lote@example.com", "phoneNumber": "+5511999990000"}).Want(200).String("id")
	// The bulk payment needs its total in the smart account: a payer funds it first.
	fund := r.env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 50, "isSandbox": true, "smartAccountId": account}).Want(200).String("id")
	var n model.PaymentIntent
	r.env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": fund, "connectorId": payConnector,
		"parameters": map[string]any{"cpf": happyCPF}}).Want(200).JSON(&n)
	consent(t, r.env, &n, "authorize").Want(200)
	testsupport.Eventually(t, "the smart account is funded", 20*time.Second, func() bool {
		return r.env.Do(t, "GET", "/payments/smart-accounts/"+account+"/balance", key, nil).Want(200).Map()["balance"] == 50.0
	})
	req := r.env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 5, "isSandbox": true, "description": "Lote"}).Want(200).String("id")
	bulk := r.env.Do(t, "POST", "/payments/bulk", key, map[string]any{"smartAccountId": account, "paymentRequestIds": []string{req}}).Want(200).String("id")
	for _, lang := range []string{"pt-BR", "en"} {
		for what, path := range map[string]string{"pre-authorization consent": "/smart-transfers/consent/" + preauth, "bulk payment": "/payments/bulk-consent/" + bulk} {
			r.do(t, r.browser, chromedp.EmulateViewport(390, 844), chromedp.Navigate(r.env.URL+path+"?lang="+lang))
			r.until(t, r.browser, `document.querySelector('button[value="authorize"]') !== null && document.querySelector("#status") !== null`)
			axe.Check(t, r.browser, what+" page ("+lang+")")
		}
	}
}
