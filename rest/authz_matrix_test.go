package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"ponte/auth"
	"ponte/model"
	"ponte/testsupport"
)

// The authorization matrix: every REST route (listed by chi.Walk) and every GraphQL query
// and mutation field (listed by introspection) is called with each credential below, on
// application A's resources, and must answer as section 5 says:
//
//   - no credential, an expired API key, a key signed with another master key: 401
//     API_KEY_MISSING, API_KEY_EXPIRED, API_KEY_INVALID;
//   - A's Connect Token (issued for A's Open Finance item): 403 FORBIDDEN outside its reach, and past
//     the gate inside it (auth.connectTokenReach: the connector catalogue and validation,
//     creating or updating its one item, reading that item and its reduced account list);
//   - application B's API key: 404 wherever A's id is the resource addressed, and never
//     any of A's ids or values in the body (unless B sent them), also where an id of A
//     is only a filter or a reference in a body;
//   - never a 5xx.
//
// Public routes answer every credential alike, as they answer none, and show what the
// holder of their link is meant to see. They are:
//   - /healthz, /readyz: probes for load balancers, which hold no key;
//   - POST /auth: it is how a key is obtained;
//   - /graphiql: a static page, the key goes in its Headers tab;
//   - /openapi.json and /reference: the description of the routes, and its page;
//   - /metrics: for a scraper on this machine (as the tests are) or with its own token;
//   - the pages a person opens from a link the application handed out, reached by an
//     unguessable id that is the capability: /sandbox/authorize/{id} (the simulated bank's
//     approval), /payments/pay/{id} and /payments/consent/{id} (the payer's pages),
//     /smart-transfers/consent/{id} (a pre-authorization's payer), /payments/bulk-consent/{id}
//     (a bulk payment's smart account owner) and
//     /payments/pix/{id} (a dynamic PIX code's location, fetched by the payer's bank);
//   - /connect and its assets: a static page whose script calls the API with its Connect Token.
//
// /graphql is called field by field by the GraphQL half (authz_matrix_graphql_test.go).
//
// Resources that belong to no application (connectors, categories, payment institutions)
// are read by any application's key.

// azRoute says how to call one route on A's resources.
type azRoute struct {
	ids    []string   // fixture kind of each path parameter, in order
	query  string     // required query string; {kind} is replaced by the fixture
	body   string     // JSON body kind (see azBodies)
	form   url.Values // HTML form of a public page (a refused decision: pages change nothing)
	public bool       // answers without a credential (see above)
	token  bool       // within the reach of A's Connect Token
	gql    bool       // the GraphQL endpoint, called field by field by azGraphQL
}

// azShared are fixture kinds that belong to no application.
var azShared = map[string]bool{"connector": true, "csvConnector": true, "category": true, "institution": true, "asset": true}

// azRoutes lists every route by "METHOD pattern" ("*" for routes mounted for every method).
// A route missing here fails the test, naming it.
func azRoutes() map[string]azRoute {
	return map[string]azRoute{
		"GET /healthz":        {public: true},
		"GET /readyz":         {public: true},
		"POST /auth":          {public: true, body: "auth"},
		"POST /connect_token": {body: "token"},
		"GET /connect_token":  {token: true},
		"GET /connect":        {public: true},

		"GET /connect/assets/{file}": {ids: []string{"asset"}, public: true},

		"GET /connectors":                  {token: true},
		"GET /connectors/{id}":             {ids: []string{"connector"}, token: true},
		"POST /connectors/{id}/validate":   {ids: []string{"connector"}, body: "credentials", token: true},
		"GET /connectors/{id}/settings":    {ids: []string{"csvConnector"}},
		"PUT /connectors/{id}/settings":    {ids: []string{"csvConnector"}, body: "mapping"},
		"DELETE /connectors/{id}/settings": {ids: []string{"csvConnector"}},

		"POST /items":                 {body: "item"},
		"GET /v2/items":               {},
		"GET /items/{id}":             {ids: []string{"ofItem"}, token: true},
		"PATCH /items/{id}":           {ids: []string{"ofItem"}, body: "empty", token: true},
		"DELETE /items/{id}":          {ids: []string{"ofItem"}},
		"POST /items/{id}/mfa":        {ids: []string{"ofItem"}, body: "mfa", token: true},
		"POST /items/{id}/statements": {ids: []string{"ofItem"}, body: "empty", token: true},
		"GET /items/{id}/resources":   {ids: []string{"ofItem"}, token: true},
		"GET /sandbox/authorize/{id}": {ids: []string{"action"}, public: true},
		"POST /sandbox/authorize/{id}": {ids: []string{"action"}, public: true,
			form: url.Values{"decision": {"maybe"}}},

		"GET /accounts":                      {query: "itemId={ofItem}", token: true},
		"GET /accounts/{id}":                 {ids: []string{"account"}},
		"GET /v2/transactions":               {query: "accountId={account}"},
		"GET /transactions/{id}":             {ids: []string{"transaction"}},
		"PATCH /transactions/{id}":           {ids: []string{"transaction"}, body: "category"},
		"GET /transactions":                  {query: "accountId={account}"},
		"GET /category_feedback":             {},
		"GET /accounts/{id}/statements":      {ids: []string{"account"}},
		"GET /investments":                   {query: "itemId={item}"},
		"GET /investments/{id}":              {ids: []string{"investment"}},
		"GET /investments/{id}/transactions": {ids: []string{"investment"}},
		"GET /identity":                      {query: "itemId={item}"},
		"GET /identity/{id}":                 {ids: []string{"identity"}},
		"GET /credit-information":            {query: "itemId={scrItem}"},
		"GET /credit-information/{id}":       {ids: []string{"creditInfo"}},
		"GET /loans":                         {query: "itemId={item}"},
		"GET /loans/{id}":                    {ids: []string{"loan"}},
		"GET /bills":                         {query: "accountId={card}"},
		"GET /bills/{id}":                    {ids: []string{"bill"}},
		"GET /consents":                      {query: "itemId={ofItem}"},
		"GET /consents/{id}":                 {ids: []string{"consent"}},

		"GET /webhooks":                        {},
		"POST /webhooks":                       {body: "webhook"},
		"GET /webhooks/signing-secret":         {},
		"POST /webhooks/signing-secret/rotate": {},
		"GET /webhooks/{id}":                   {ids: []string{"webhook"}},
		"PATCH /webhooks/{id}":                 {ids: []string{"webhook"}, body: "webhook"},
		"DELETE /webhooks/{id}":                {ids: []string{"webhook"}},
		"GET /webhooks/{id}/deliveries":        {ids: []string{"webhook"}},
		"GET /events/{id}":                     {ids: []string{"event"}},
		"POST /events/{id}/redeliver":          {ids: []string{"event"}},
		// Sandbox control, events: B's key fires nothing of A's and streams its own.
		"POST /sandbox/events":       {body: "sandboxEvent"},
		"GET /sandbox/events/stream": {query: "timeout=1"},

		"GET /payments/requests":                                                   {},
		"POST /payments/requests":                                                  {body: "request"},
		"POST /payments/requests/pix-qr":                                           {body: "pixqr"},
		"GET /payments/requests/{id}":                                              {ids: []string{"request"}},
		"PATCH /payments/requests/{id}":                                            {ids: []string{"request"}, body: "request"},
		"DELETE /payments/requests/{id}":                                           {ids: []string{"request"}},
		"POST /payments/requests/{id}/refund":                                      {ids: []string{"request"}, body: "refund"},
		"GET /payments/requests/{id}/schedules":                                    {ids: []string{"schedReq"}},
		"POST /payments/requests/{id}/schedules/cancel":                            {ids: []string{"schedReq"}},
		"GET /payments/requests/{id}/schedules/{scheduleId}":                       {ids: []string{"schedReq", "schedule"}},
		"POST /payments/requests/{id}/schedules/{scheduleId}/cancel":               {ids: []string{"schedReq", "schedule"}},
		"POST /payments/requests/automatic-pix":                                    {body: "terms"},
		"POST /payments/requests/{id}/automatic-pix/schedule":                      {ids: []string{"autoReq"}, body: "charge"},
		"GET /payments/requests/{id}/automatic-pix/schedules":                      {ids: []string{"autoReq"}},
		"GET /payments/requests/{id}/automatic-pix/schedules/{scheduleId}":         {ids: []string{"autoReq", "charge"}},
		"POST /payments/requests/{id}/automatic-pix/schedules/{scheduleId}/cancel": {ids: []string{"autoReq", "charge"}},
		"POST /payments/requests/{id}/automatic-pix/schedules/{scheduleId}/retry":  {ids: []string{"autoReq", "charge"}, body: "retry"},
		"POST /payments/requests/{id}/automatic-pix/cancel":                        {ids: []string{"autoReq"}},
		"GET /payments/intents":                                                    {},
		"POST /payments/intents":                                                   {body: "intent"},
		"GET /payments/intents/{id}":                                               {ids: []string{"intent"}},
		"GET /payments/customers":                                                  {},
		"POST /payments/customers":                                                 {body: "customer"},
		"GET /payments/customers/{id}":                                             {ids: []string{"customer"}},
		"PATCH /payments/customers/{id}":                                           {ids: []string{"customer"}, body: "customer"},
		"DELETE /payments/customers/{id}":                                          {ids: []string{"customer"}},
		"GET /payments/recipients/institutions":                                    {},
		"GET /payments/recipients/institutions/{id}":                               {ids: []string{"institution"}},
		"GET /payments/recipients":                                                 {},
		"POST /payments/recipients":                                                {body: "recipient"},
		"GET /payments/recipients/{id}":                                            {ids: []string{"recipient"}},
		"PATCH /payments/recipients/{id}":                                          {ids: []string{"recipient"}, body: "recipient"},
		"DELETE /payments/recipients/{id}":                                         {ids: []string{"recipient"}},
		"GET /payments/pay/{id}":                                                   {ids: []string{"payReq"}, public: true},
		"POST /payments/pay/{id}": {ids: []string{"payReq"}, public: true,
			form: url.Values{"connectorId": {"5"}, "cpf": {"123"}, "name": {"Maria"}}},
		"GET /payments/consent/{id}": {ids: []string{"intent"}, public: true},
		"POST /payments/consent/{id}": {ids: []string{"intent"}, public: true,
			form: url.Values{"decision": {"maybe"}}},
		"GET /payments/pix/{id}": {ids: []string{"pixIntent"}, public: true},

		"POST /payments/smart-accounts":             {body: "smartAccount"},
		"GET /payments/smart-accounts":              {},
		"GET /payments/smart-accounts/{id}":         {ids: []string{"smartAccount"}},
		"GET /payments/smart-accounts/{id}/balance": {ids: []string{"smartAccount"}},
		"POST /payments/bulk":                       {body: "bulk"},
		"GET /payments/bulk":                        {},
		"GET /payments/bulk/{id}":                   {ids: []string{"bulk"}},
		"DELETE /payments/bulk/{id}":                {ids: []string{"bulk"}},
		"GET /payments/bulk-consent/{id}":           {ids: []string{"bulk"}, public: true},
		"POST /payments/bulk-consent/{id}": {ids: []string{"bulk"}, public: true,
			form: url.Values{"decision": {"maybe"}}},
		"POST /smart-transfers/preauthorizations":             {body: "preauth"},
		"GET /smart-transfers/preauthorizations":              {},
		"GET /smart-transfers/preauthorizations/{id}":         {ids: []string{"preauth"}},
		"POST /smart-transfers/preauthorizations/{id}/revoke": {ids: []string{"preauth"}},
		"POST /smart-transfers/payments":                      {body: "stPayment"},
		"GET /smart-transfers/payments/{id}":                  {ids: []string{"stPayment"}},
		"GET /smart-transfers/consent/{id}":                   {ids: []string{"preauth"}, public: true},
		"POST /smart-transfers/consent/{id}": {ids: []string{"preauth"}, public: true,
			form: url.Values{"decision": {"maybe"}}},

		"POST /boleto-connections/from-item": {body: "boletoItem"},
		"GET /boleto-connections":            {},
		"GET /boleto-connections/{id}":       {ids: []string{"boletoConnection"}},
		"POST /boletos":                      {body: "boleto"},
		"GET /boletos":                       {},
		"GET /boletos/{id}":                  {ids: []string{"boleto"}},
		"POST /boletos/{id}/cancel":          {ids: []string{"boleto"}},
		"GET /boletos/pix/{id}":              {ids: []string{"boleto"}, public: true},
		"POST /boletos/pix/{id}":             {ids: []string{"paidBoleto"}, public: true},

		"POST /sandbox/items/{id}/reset-login":                             {ids: []string{"item"}},
		"POST /sandbox/items/{id}/status":                                  {ids: []string{"item"}, body: "sandboxStatus"},
		"POST /sandbox/items/{id}/next-execution":                          {ids: []string{"item"}, body: "sandboxNext"},
		"POST /sandbox/items/{id}/sync":                                    {ids: []string{"item"}},
		"POST /sandbox/items/{id}/transactions":                            {ids: []string{"item"}, body: "sandboxTx"},
		"PATCH /sandbox/items/{id}/transactions/{transactionId}":           {ids: []string{"item", "transaction"}, body: "sandboxTxPatch"},
		"DELETE /sandbox/items/{id}/transactions/{transactionId}":          {ids: []string{"item", "transaction"}},
		"GET /sandbox/items/{id}/bills":                                    {ids: []string{"item"}},
		"POST /sandbox/items/{id}/bills":                                   {ids: []string{"item"}, body: "sandboxBills"},
		"PATCH /sandbox/items/{id}/bills/{billId}":                         {ids: []string{"item", "bill"}, body: "sandboxBillPatch"},
		"DELETE /sandbox/items/{id}/bills/{billId}":                        {ids: []string{"item", "bill"}},
		"GET /sandbox/items/{id}/transactions":                             {ids: []string{"item"}},
		"GET /sandbox/items/{id}/investments":                              {ids: []string{"item"}},
		"POST /sandbox/items/{id}/investments":                             {ids: []string{"item"}, body: "sandboxInv"},
		"PATCH /sandbox/items/{id}/investments/{investmentId}":             {ids: []string{"item", "investment"}, body: "sandboxInvPatch"},
		"DELETE /sandbox/items/{id}/investments/{investmentId}":            {ids: []string{"item", "investment"}},
		"POST /sandbox/items/{id}/investments/{investmentId}/transactions": {ids: []string{"item", "investment"}, body: "sandboxInvTx"},
		"PATCH /sandbox/items/{id}/investments/{investmentId}/transactions/{transactionId}": {ids: []string{"item", "investment", "investmentTx"},
			body: "sandboxInvTxPatch"},
		"DELETE /sandbox/items/{id}/investments/{investmentId}/transactions/{transactionId}": {ids: []string{"item", "investment", "investmentTx"}},
		// Without confirm: the matrix's credentials are refused before it is read, and B's
		// key is refused for the missing confirm; a clean slate of B's own is the
		// sandbox control tests' concern.
		"DELETE /sandbox/client": {},
		// A move the table refuses: the matrix changes nothing.
		"POST /sandbox/payments/payment-requests/{id}/status":        {ids: []string{"request"}, body: "sandboxPayMove"},
		"POST /sandbox/payments/payment-intents/{id}/status":         {ids: []string{"intent"}, body: "sandboxPayMove"},
		"POST /sandbox/payments/scheduled-payments/{id}/status":      {ids: []string{"schedule"}, body: "sandboxPayMove"},
		"POST /sandbox/payments/automatic-pix-payments/{id}/status":  {ids: []string{"charge"}, body: "sandboxPayMove"},
		"POST /sandbox/payments/boletos/{id}/status":                 {ids: []string{"boleto"}, body: "sandboxPayMove"},
		"POST /sandbox/payments/smart-transfer-payments/{id}/status": {ids: []string{"stPayment"}, body: "sandboxPayMove"},
		"POST /sandbox/payments/bulk-payments/{id}/status":           {ids: []string{"bulk"}, body: "sandboxPayMove"},

		"GET /categories":      {},
		"GET /categories/{id}": {ids: []string{"category"}},
		"GET /merchants":       {query: "cnpjs=07665418000167"},

		"GET /categories/rules":         {},
		"POST /categories/rules":        {body: "categoryRule"},
		"DELETE /categories/rules/{id}": {ids: []string{"categoryRule"}},

		"GET /sandbox/faults":    {},
		"PUT /sandbox/faults":    {body: "faults"},
		"DELETE /sandbox/faults": {},
		// Sandbox control, test clocks: B's key reaches none of A's clocks.
		"POST /sandbox/test-clocks":              {body: "testClock"},
		"GET /sandbox/test-clocks":               {},
		"GET /sandbox/test-clocks/{id}":          {ids: []string{"testClock"}},
		"POST /sandbox/test-clocks/{id}/advance": {ids: []string{"testClock"}, body: "clockAdvance"},
		"DELETE /sandbox/test-clocks/{id}":       {ids: []string{"testClock"}},

		"POST /sandbox/users":              {body: "sandboxUser"},
		"GET /sandbox/users":               {},
		"GET /sandbox/users/{username}":    {ids: []string{"sandboxUser"}},
		"PUT /sandbox/users/{username}":    {ids: []string{"sandboxUser"}, body: "sandboxUserB"},
		"DELETE /sandbox/users/{username}": {ids: []string{"sandboxUser"}},

		"* /graphql":        {gql: true},
		"GET /openapi.json": {public: true},
		"GET /metrics":      {public: true},
		"GET /reference":    {public: true},
		"* /graphiql":       {public: true},
		"* /graphiql/*":     {ids: []string{"asset"}, public: true},
	}
}

// azFaultRule is a fault rule that never fires (probability 0): the matrix must not fault
// its own later calls.
var azFaultRule = map[string]any{"route": "GET /categories", "kind": "LATENCY", "probability": 0, "latencyMs": 1}

// azBodies are the JSON bodies, valid for their routes, with A's ids where a field names
// one: B's key must not reach A's resources through a body either.
func azBodies(f map[string]string) map[string]any {
	return map[string]any{
		"auth":         map[string]any{"clientId": f["clientId"], "clientSecret": f["clientSecret"]},
		"token":        map[string]any{"itemId": f["ofItem"], "options": map[string]any{"clientUserId": "b-user"}},
		"credentials":  map[string]any{"user": "user-ok", "password": "password-ok"},
		"item":         map[string]any{"connectorId": 0, "parameters": map[string]any{"user": "user-ok", "password": "password-ok"}},
		"empty":        map[string]any{},
		"mfa":          map[string]any{"token": "123456"},
		"faults":       map[string]any{"faults": []any{azFaultRule}},
		"sandboxEvent": map[string]any{"event": "item/updated", "itemId": f["item"]},
		"testClock":    map[string]any{"name": "B's clock", "frozenTime": "2031-01-01T00:00:00Z"},
		"clockAdvance": map[string]any{"frozenTime": "2031-01-02T00:00:00Z"},
		"mapping": map[string]any{"delimiter": ";", "columns": map[string]any{"date": "Data", "description": "Histórico", "amount": "Valor"},
			"dateFormat": "DD/MM/YYYY", "decimal": "comma"},
		"category": map[string]any{"categoryId": f["category"]},
		// B's own rule: the matrix checks B's answer shows nothing of A's rules.
		"categoryRule": map[string]any{"description": "regra de B", "categoryId": f["category"], "matchType": "contains"},
		"webhook":      map[string]any{"event": "all", "url": "https://b-hooks.example.com/w"},
		"request": map[string]any{"amount": 10.5, "description": "Pedido de B", "isSandbox": true,
			"recipientId": f["recipient"], "customerId": f["customer"]},
		"pixqr": map[string]any{"pixQrCode": f["brcode"], "isSandbox": true, "customerId": f["customer"]},
		"terms": map[string]any{"interval": "MONTHLY", "startDate": day(1), "fixedAmount": 50, "isSandbox": true,
			"recipientId": f["recipient"], "customerId": f["customer"]},
		"charge":     map[string]any{"amount": 50, "date": day(5)},
		"retry":      map[string]any{"date": day(3)},
		"intent":     map[string]any{"paymentRequestId": f["intentReq"], "connectorId": payConnector, "parameters": map[string]any{"cpf": happyCPF, "name": "Maria Silva"}},
		"customer":   map[string]any{"type": "INDIVIDUAL", "name": "Cliente de B", "cpf": happyCPF},
		"boletoItem": map[string]any{"itemId": f["boletoItem"]},
		"refund":     map[string]any{"amount": 1},
		"preauth": map[string]any{"connectorId": 6, "parameters": map[string]any{"cpf": happyCPF}, "recipientIds": []string{f["recipient"]},
			"limits": map[string]any{"daily": 100}},
		"stPayment":    map[string]any{"preauthorizationId": f["preauthOK"], "recipientId": f["recipient"], "amount": 1},
		"bulk":         map[string]any{"smartAccountId": f["smartAccount"], "paymentRequestIds": []string{f["bulkReq"]}},
		"smartAccount": map[string]any{"name": "Conta de B", "taxNumber": happyCPF, "email": "b@example.com", "phoneNumber": "+5511999990000"},
		"boleto":       boletoBody(f["boletoConnection"], "AZ-B", 20, day(5)),
		"recipient":    map[string]any{"name": "Loja de B", "taxNumber": "11222333000181", "paymentInstitutionId": f["institution"], "account": map[string]any{"branch": "0001", "number": "12345-6", "type": "CHECKING_ACCOUNT"}},

		"sandboxStatus": map[string]any{"status": "OUTDATED", "executionStatus": "SITE_NOT_AVAILABLE"},
		"sandboxNext":   map[string]any{"executionStatus": "UNEXPECTED_ERROR"},
		"sandboxTx": map[string]any{"transactions": []any{map[string]any{"accountId": f["account"], "date": day(1), "description": "B",
			"amount": 1, "type": "CREDIT"}}},
		"sandboxTxPatch":    map[string]any{"description": "B"},
		"sandboxPayMove":    map[string]any{"status": "REFUNDED", "errorDetail": map[string]any{"code": "B", "description": "B"}},
		"sandboxUser":       sandboxUserBody("b-user"),
		"sandboxUserB":      sandboxUserBody(f["sandboxUser"]),
		"sandboxBills":      map[string]any{"bills": []any{map[string]any{"accountId": f["card"], "dueDate": day(10), "totalAmount": 1}}},
		"sandboxBillPatch":  map[string]any{"totalAmount": 2},
		"sandboxInv":        map[string]any{"investments": []any{map[string]any{"name": "B", "type": "EQUITY", "balance": 1}}},
		"sandboxInvPatch":   map[string]any{"balance": 2},
		"sandboxInvTx":      map[string]any{"transactions": []any{map[string]any{"type": "BUY", "date": day(1), "amount": 1}}},
		"sandboxInvTxPatch": map[string]any{"amount": 2},
	}
}

func azPath(pattern string, spec azRoute, fx *azFixture) string {
	i := 0
	path := azParam.ReplaceAllStringFunc(pattern, func(string) string {
		kind := spec.ids[i]
		i++
		return fx.ids[kind]
	})
	if spec.query != "" {
		path += "?" + regexp.MustCompile(`\{(\w+)\}`).ReplaceAllStringFunc(spec.query, func(m string) string { return fx.ids[m[1:len(m)-1]] })
	}
	return path
}

// azPatchCategory gives A a category correction, so GET /category_feedback has A's data.
func azPatchCategory(t *testing.T, env *testsupport.Env, key, txID string) string {
	cats := env.Do(t, "GET", "/categories", key, nil).Want(200).Map()["results"].([]any)
	cat := cats[len(cats)-1].(map[string]any)["id"].(string)
	env.Do(t, "PATCH", "/transactions/"+txID, key, map[string]any{"categoryId": cat}).Want(200)
	var fb struct{ Results []map[string]any }
	env.Do(t, "GET", "/category_feedback", key, nil).Want(200).JSON(&fb)
	if len(fb.Results) == 0 {
		t.Fatalf("no category feedback after PATCH /transactions/%s", txID)
	}
	return fb.Results[0]["id"].(string)
}

// azCred is one column of the matrix.
type azCred struct {
	name, key string
	code      string // the 401's codeDescription; "" for the token and B's key
	token, b  bool
}

func azCreds(t *testing.T, env *testsupport.Env, a, b *testsupport.Client, fx *azFixture) []azCred {
	ctx := context.Background()
	expired, err := env.Auth.WithClock(func() time.Time { return time.Now().Add(-3 * time.Hour) }).Authenticate(ctx, a.ID, a.Secret)
	if err != nil {
		t.Fatal(err)
	}
	forged, err := auth.NewService(env.DB, []byte("another-master-key-0123456789abcdef")).Authenticate(ctx, a.ID, a.Secret)
	if err != nil {
		t.Fatal(err)
	}
	token := env.Do(t, "POST", "/connect_token", a.APIKey, map[string]any{"itemId": fx.ids["ofItem"]}).Want(200).String("accessToken")
	return []azCred{
		{name: "no credential", code: model.CodeAPIKeyMissing.String()},
		{name: "expired key", key: expired.APIKey, code: model.CodeAPIKeyExpired.String()},
		{name: "forged key", key: forged.APIKey, code: model.CodeAPIKeyInvalid.String()},
		{name: "A's Connect Token", key: token, token: true},
		{name: "B's key", key: b.APIKey, b: true},
	}
}

// azSend makes one request without following redirects (the payer's pages redirect).
func azSend(t *testing.T, env *testsupport.Env, method, path, key string, body []byte, contentType string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, env.URL+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", contentType)
	}
	if key != "" {
		req.Header.Set("X-API-KEY", key)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// azLeaks names A's ids and values in body that the request did not carry itself.
func azLeaks(fx *azFixture, sent string, body []byte) []string {
	var out []string
	for v, what := range fx.secrets {
		if v != "" && !strings.Contains(sent, v) && bytes.Contains(body, []byte(v)) {
			out = append(out, what+" "+v)
		}
	}
	sort.Strings(out)
	return out
}

func azErrorCode(body []byte) (status float64, code string) {
	var e struct {
		Code            float64 `json:"code"`
		CodeDescription string  `json:"codeDescription"`
	}
	_ = json.Unmarshal(body, &e)
	return e.Code, e.CodeDescription
}

func TestAuthzMatrix(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t, func(s *testsupport.Setup) { s.Resolver.Limiter = auth.NewLimiter(map[string]int{}) })
	a, b := env.NewClient(t, "matrix-a"), env.NewClient(t, "matrix-b")
	for _, c := range []*testsupport.Client{a, b} {
		env.Exec(t, `UPDATE client_applications SET items_v2_enabled = true WHERE id = $1`, c.ID)
	}
	fx := azFixtures(t, env, a)
	creds := azCreds(t, env, a, b, fx)
	t.Run("REST", func(t *testing.T) { azREST(t, env, fx, creds, a.APIKey) })
	t.Run("GraphQL", func(t *testing.T) { azGraphQL(t, env, fx, creds, a.APIKey) })
	t.Run("Connect Token reaches only its item", func(t *testing.T) { azTokenItem(t, env, fx, creds, a.APIKey) })
}

var azParam = regexp.MustCompile(`\{[^}]+\}|\*`)

func azREST(t *testing.T, env *testsupport.Env, fx *azFixture, creds []azCred, keyA string) {
	router, ok := env.Server.Config.Handler.(chi.Routes)
	if !ok {
		t.Fatalf("rest.New returns %T, not a chi router: the matrix cannot list the routes", env.Server.Config.Handler)
	}
	specs, bodies := azRoutes(), azBodies(fx.ids)
	seen := map[string]bool{}
	var routes []string
	_ = chi.Walk(router, func(method, pattern string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		routes = append(routes, method+" "+pattern)
		return nil
	})
	sort.Strings(routes)
	var controls []string
	for _, route := range routes {
		method, pattern, _ := strings.Cut(route, " ")
		name := route
		spec, found := specs[name]
		if !found {
			name = "* " + pattern
			spec, found = specs[name]
			if found && method != http.MethodGet && method != http.MethodPost {
				seen[name] = true
				continue // the same handler for every method: GET and POST are enough
			}
		}
		if !found {
			t.Errorf("route %s has no entry in azRoutes: add it, saying who may call it", route)
			continue
		}
		seen[name] = true
		if spec.gql {
			continue
		}
		path := azPath(pattern, spec, fx)
		var body []byte
		contentType := "application/json"
		switch {
		case spec.form != nil:
			body, contentType = []byte(spec.form.Encode()), "application/x-www-form-urlencoded"
		case spec.body != "":
			body, _ = json.Marshal(bodies[spec.body])
		case method == http.MethodPost || method == http.MethodPatch:
			body = []byte(`{}`)
		}
		ownsA := false // A's id is the resource the path or query addresses
		for _, kind := range append(append([]string{}, spec.ids...), regexp.MustCompile(`\{(\w+)\}`).FindAllString(spec.query, -1)...) {
			if !azShared[strings.Trim(kind, "{}")] {
				ownsA = true
			}
		}
		if ownsA && method == http.MethodGet && !spec.public {
			controls = append(controls, path)
		}
		publicStatus := 0
		for _, c := range creds {
			status, got := azSend(t, env, method, path, c.key, body, contentType)
			cell := route + " with " + c.name
			st, code := azErrorCode(got)
			switch {
			case status >= 500:
				t.Errorf("%s: %d %.300s", cell, status, got)
			case spec.public:
				if publicStatus == 0 {
					publicStatus = status
				}
				if status != publicStatus || status == 401 || status == 403 {
					t.Errorf("%s: %d, want what a public route answers without a credential (%d): %.300s", cell, status, publicStatus, got)
				}
			case c.code != "":
				if status != 401 || code != c.code || st != 401 {
					t.Errorf("%s: %d %s, want 401 %s: %.300s", cell, status, code, c.code, got)
				}
			case c.token && spec.token:
				if status == 401 || status == 403 {
					t.Errorf("%s: %d, but this route is within a Connect Token's reach: %.300s", cell, status, got)
				}
			case c.token:
				if status != 403 || code != model.CodeForbidden.String() {
					t.Errorf("%s: %d %s, want 403 %s: %.300s", cell, status, code, model.CodeForbidden.String(), got)
				}
			case c.b && ownsA:
				if status != 404 || code == model.CodeNotFound.String() {
					t.Errorf("%s: %d %s, want 404 naming the resource: %.300s", cell, status, code, got)
				}
			}
			if !c.token && !spec.public {
				if leaks := azLeaks(fx, path+string(body), got); len(leaks) > 0 {
					t.Errorf("%s shows %s: %.300s", cell, strings.Join(leaks, ", "), got)
				}
			}
		}
	}
	for k := range specs {
		if !seen[k] {
			t.Errorf("azRoutes has %s, which the router does not serve", k)
		}
	}
	// A reaches every resource B was refused: the 404s above were about ownership, and
	// none of the refused requests changed or deleted anything.
	for _, path := range controls {
		if status, got := azSend(t, env, "GET", path, keyA, nil, ""); status != 200 {
			t.Errorf("A's own GET %s: %d %.300s", path, status, got)
		}
	}
}

// azHiddenAccountFields are null in a Connect Token's view of accounts (section 5).
var azHiddenAccountFields = []string{"balance", "owner", "taxNumber", "bankData", "creditData"}

// azTokenItem checks A's Connect Token against A's other items, and the reduced view.
func azTokenItem(t *testing.T, env *testsupport.Env, fx *azFixture, creds []azCred, keyA string) {
	tok := creds[3].key
	for _, other := range []string{fx.ids["item"], fx.ids["otherItem"]} {
		for _, path := range []string{"/items/" + other, "/accounts?itemId=" + other, "/items/" + other + "/resources"} {
			status, got := azSend(t, env, "GET", path, tok, nil, "")
			if _, code := azErrorCode(got); status != 403 || code != model.CodeForbidden.String() {
				t.Errorf("GET %s with a token for another item: %d %.300s, want 403 %s", path, status, got, model.CodeForbidden.String())
			}
		}
		for _, m := range []struct{ method, path, body string }{{"PATCH", "/items/" + other, `{}`}, {"POST", "/items/" + other + "/mfa", `{"token":"123456"}`}} {
			status, got := azSend(t, env, m.method, m.path, tok, []byte(m.body), "application/json")
			if _, code := azErrorCode(got); status != 403 || code != model.CodeForbidden.String() {
				t.Errorf("%s %s with a token for another item: %d %.300s, want 403 %s", m.method, m.path, status, got, model.CodeForbidden.String())
			}
		}
	}
	var page struct {
		Results []map[string]any `json:"results"`
	}
	status, got := azSend(t, env, "GET", "/accounts?itemId="+fx.ids["ofItem"], tok, nil, "")
	if err := json.Unmarshal(got, &page); status != 200 || err != nil || len(page.Results) == 0 {
		t.Fatalf("the token's account list: %d %.300s", status, got)
	}
	for _, acc := range page.Results {
		for _, hidden := range azHiddenAccountFields {
			if acc[hidden] != nil {
				t.Errorf("a Connect Token sees account %v's %s: %v", acc["id"], hidden, acc[hidden])
			}
		}
	}
	if status, got := azSend(t, env, "GET", "/accounts?itemId="+fx.ids["ofItem"], keyA, nil, ""); status != 200 || !bytes.Contains(got, []byte(`"balance":`)) {
		t.Errorf("A's own account list: %d %.300s", status, got)
	}
}
