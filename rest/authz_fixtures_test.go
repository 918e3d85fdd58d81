package rest_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"ponte/model"
	"ponte/payments"
	"ponte/sandbox"
	"ponte/testsupport"
)

// A's world for the authorization matrix and the bad-input scan.

// azFixture is A's world: its resources' ids by kind, and every id and value of A that no
// other application may see.
type azFixture struct {
	ids     map[string]string
	secrets map[string]string // value -> what it is
}

const azMark = "a7731" // in every value A chooses, so a leak is recognisable

func azFixtures(t *testing.T, env *testsupport.Env, a *testsupport.Client) *azFixture {
	key := a.APIKey
	f := map[string]string{"clientId": a.ID, "clientSecret": a.Secret, "connector": "0", "asset": "x", "csvConnector": "901"}
	first := func(path string) string {
		var page struct {
			Results []struct {
				ID string `json:"id"`
			} `json:"results"`
			ID string `json:"id"`
		}
		env.Do(t, "GET", path, key, nil).Want(200).JSON(&page)
		if len(page.Results) > 0 {
			return page.Results[0].ID
		}
		if page.ID == "" {
			t.Fatalf("no fixture at %s", path)
		}
		return page.ID
	}
	var it model.Item
	env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "clientUserId": "user-" + azMark,
		"parameters": map[string]any{"user": "user-ok", "password": "password-ok"}}).Want(200).JSON(&it)
	env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
	f["item"] = it.ID.String()
	var files model.Item
	env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 900, "clientUserId": "files-" + azMark, "parameters": map[string]any{}}).Want(200).JSON(&files)
	env.WaitItem(t, key, files.ID.String(), testsupport.Settled)
	f["statementItem"] = files.ID.String()
	accounts := env.AccountIDs(t, key, f["item"])
	f["account"], f["card"] = accounts["CHECKING_ACCOUNT"], accounts["CREDIT_CARD"]
	f["transaction"] = first("/transactions?accountId=" + f["account"])
	f["investment"] = first("/investments?itemId=" + f["item"])
	f["investmentTx"] = first("/investments/" + f["investment"] + "/transactions")
	f["identity"] = first("/identity?itemId=" + f["item"])
	f["loan"] = first("/loans?itemId=" + f["item"])
	f["bill"] = first("/bills?accountId=" + f["card"])
	f["category"] = first("/categories")
	f["institution"] = first("/payments/recipients/institutions?name=Nubank")
	f["feedback"] = azPatchCategory(t, env, key, f["transaction"])
	f["categoryRule"] = env.Do(t, "POST", "/categories/rules", key, map[string]any{"description": "regra-" + azMark,
		"categoryId": f["category"], "matchType": "contains"}).Want(200).String("id")
	of := createItem(t, env, key, 5, map[string]any{"cpf": "52998224725"})
	approve(t, env, key, of.ID.String())
	f["ofItem"] = of.ID.String()
	f["consent"] = first("/consents?itemId=" + f["ofItem"])
	scr := createItem(t, env, key, sandbox.SCRConnectorID, map[string]any{"document": "52998224725"})
	approve(t, env, key, scr.ID.String())
	f["scrItem"] = scr.ID.String()
	f["creditInfo"] = env.Do(t, "GET", "/credit-information?itemId="+f["scrItem"], key, nil).Want(200).String("id")
	f["webhook"] = env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "all", "url": "https://hooks-" + azMark + ".example.com/a",
		"headers": map[string]any{"Authorization": "Bearer secret-" + azMark}}).Want(200).String("id")
	f["event"] = env.Events(t, key, f["item"])[0]["id"].(string)
	f["sandboxUser"] = env.Do(t, "POST", "/sandbox/users", key, sandboxUserBody("ana-"+azMark)).Want(200).String("username")
	f["signingSecret"] = env.Do(t, "GET", "/webhooks/signing-secret", key, nil).Want(200).String("secret")

	pending := createItem(t, env, key, 0, map[string]any{"user": "user-ok-auth-pending", "password": "password-ok"})
	waiting, _ := env.WaitItem(t, key, pending.ID.String(), testsupport.Settled)
	if waiting.UserAction == nil {
		t.Fatalf("no user action on %+v", waiting)
	}
	link, _ := waiting.UserAction.Attributes["url"].(string)
	f["otherItem"], f["action"] = pending.ID.String(), link[strings.LastIndex(link, "/")+1:]

	f["recipient"] = env.Recipient(t, key)
	f["customer"] = env.Do(t, "POST", "/payments/customers", key, map[string]any{"type": "BUSINESS", "name": "Cliente " + azMark,
		"cnpj": "11222333000181", "email": azMark + "@example.com"}).Want(200).String("id")
	newRequest := func(body map[string]any) string {
		body["description"] = "Pedido " + azMark
		return env.Do(t, "POST", "/payments/requests", key, body).Want(200).String("id")
	}
	intentFor := func(req string, extra map[string]any) string {
		body := map[string]any{"paymentRequestId": req, "connectorId": payConnector, "parameters": map[string]any{"cpf": happyCPF, "name": "Maria " + azMark}}
		for k, v := range extra {
			body[k] = v
		}
		return env.Do(t, "POST", "/payments/intents", key, body).Want(200).String("id")
	}
	f["request"] = newRequest(map[string]any{"amount": 10.5, "isSandbox": true, "customerId": f["customer"]})
	f["payReq"] = newRequest(map[string]any{"amount": 11.5, "isSandbox": true})
	f["intentReq"] = newRequest(map[string]any{"amount": 12.5, "isSandbox": true})
	f["intent"] = intentFor(newRequest(map[string]any{"amount": 13.5, "isSandbox": true}), nil)
	f["pixIntent"] = intentFor(newRequest(map[string]any{"amount": 99.99, "customerId": f["customer"], "isSandbox": true}),
		map[string]any{"paymentMethod": "PIX", "isDynamicPix": true})
	f["schedReq"] = newRequest(map[string]any{"amount": 20, "isSandbox": true, "schedule": map[string]any{"type": "DAILY", "startDate": day(5), "occurrences": 3}})
	var n model.PaymentIntent
	env.Do(t, "GET", "/payments/intents/"+intentFor(f["schedReq"], nil), key, nil).Want(200).JSON(&n)
	consent(t, env, &n, "authorize").Want(http.StatusOK)
	f["decidedIntent"] = n.ID.String() // the payer's public mutations are refused alike on it
	f["schedule"] = first("/payments/requests/" + f["schedReq"] + "/schedules")
	f["autoReq"] = env.Do(t, "POST", "/payments/requests/automatic-pix", key, map[string]any{"interval": "MONTHLY", "startDate": day(1),
		"fixedAmount": 50, "isSandbox": true, "isRetryAccepted": true, "description": "Academia " + azMark}).Want(200).String("id")
	authorizeAutoPix(t, env, key, f["autoReq"], happyCPF)
	f["charge"] = env.Do(t, "POST", "/payments/requests/"+f["autoReq"]+"/automatic-pix/schedule", key,
		map[string]any{"amount": 50, "date": day(5)}).Want(200).String("id")
	f["smartAccount"] = env.Do(t, "POST", "/payments/smart-accounts", key, map[string]any{"name": "Conta " + azMark, "taxNumber": happyCPF,
		"email": azMark + "@example.com", "phoneNumber": "+5511999990000"}).Want(200).String("id")
	preauth := func() *model.SmartTransferPreauthorization {
		var p model.SmartTransferPreauthorization
		env.Do(t, "POST", "/smart-transfers/preauthorizations", key, map[string]any{"connectorId": 6, "parameters": map[string]any{"cpf": happyCPF},
			"recipientIds": []string{f["recipient"]}, "clientPreauthorizationId": "pre-" + azMark}).Want(200).JSON(&p)
		return &p
	}
	f["preauth"] = preauth().ID.String()
	ok := preauth()
	decidePreauth(t, env, ok, "authorize").Want(http.StatusOK)
	f["preauthOK"] = ok.ID.String()
	ended := preauth()
	decidePreauth(t, env, ended, "reject").Want(http.StatusOK)
	f["preauthEnded"] = ended.ID.String()
	f["stPayment"] = env.Do(t, "POST", "/smart-transfers/payments", key, map[string]any{"preauthorizationId": f["preauthOK"],
		"recipientId": f["recipient"], "amount": 3, "clientPaymentId": "stp-" + azMark}).Want(200).String("id")
	var fund model.PaymentIntent
	env.Do(t, "GET", "/payments/intents/"+intentFor(newRequest(map[string]any{"amount": 50, "isSandbox": true, "smartAccountId": f["smartAccount"]}), nil),
		key, nil).Want(200).JSON(&fund)
	consent(t, env, &fund, "authorize").Want(http.StatusOK)
	testsupport.Eventually(t, "A's smart account is funded", 20*time.Second, func() bool {
		return env.Do(t, "GET", "/payments/smart-accounts/"+f["smartAccount"]+"/balance", key, nil).Want(200).Map()["balance"] == 50.0
	})
	f["bulkReq"] = newRequest(map[string]any{"amount": 5, "isSandbox": true, "description": "Lote " + azMark})
	f["bulk"] = env.Do(t, "POST", "/payments/bulk", key, map[string]any{"smartAccountId": f["smartAccount"],
		"paymentRequestIds": []string{f["bulkReq"]}}).Want(200).String("id")
	f["bulkEnded"] = env.Do(t, "POST", "/payments/bulk", key, map[string]any{"smartAccountId": f["smartAccount"],
		"paymentRequestIds": []string{newRequest(map[string]any{"amount": 6, "isSandbox": true})}}).Want(200).String("id")
	env.Form(t, "/payments/bulk-consent/"+f["bulkEnded"], url.Values{"decision": {"reject"}}).Want(http.StatusOK)
	f["boletoItem"] = boletoItem(t, env, key)
	f["boletoConnection"] = env.Do(t, "POST", "/boleto-connections/from-item", key, map[string]any{"itemId": f["boletoItem"]}).Want(200).String("id")
	f["boleto"] = env.Do(t, "POST", "/boletos", key, boletoBody(f["boletoConnection"], "AZ-1", 30, day(5))).Want(200).String("id")
	f["paidBoleto"] = env.Do(t, "POST", "/boletos", key, boletoBody(f["boletoConnection"], "AZ-2", 31, day(5))).Want(200).String("id")
	env.Do(t, "POST", "/boletos/pix/"+f["paidBoleto"], "", nil).Want(200)
	f["testClock"] = env.Do(t, "POST", "/sandbox/test-clocks", key, map[string]any{"name": "A's clock", "frozenTime": "2031-01-01T00:00:00Z"}).Want(200).String("id")
	f["brcode"] = payments.BRCode{Key: "fulano@example.com", Amount: 42.9, MerchantName: "Fulano", MerchantCity: "BRASILIA", TxID: "P1"}.Encode()

	fx := &azFixture{ids: f, secrets: map[string]string{azMark: "a value A chose", "Loja Exemplo Ltda": "A's recipient name", f["signingSecret"]: "A's signing secret"}}
	for kind, id := range f {
		if !azShared[kind] && regexp.MustCompile(`^[0-9a-f-]{36}$`).MatchString(id) {
			fx.secrets[id] = "A's " + kind + " id"
		}
	}
	return fx
}

// azPath is a route's path with A's fixtures for its parameters and required query.
