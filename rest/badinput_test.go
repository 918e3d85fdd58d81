package rest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"ponte/auth"
	"ponte/rest"
	"ponte/testsupport"
)

// scanRoute says how to reach one route's logic: the fixture behind each path parameter,
// the query parameters it reads, and a body (JSON, or an HTML form) it accepts.
type scanRoute struct {
	ids    []string          // fixture kind of each path parameter, in order
	query  []string          // query parameters the route reads
	base   url.Values        // query parameters the route cannot do without
	body   map[string]any    // a JSON body that reaches the route's rules
	form   map[string]string // the fields of an HTML form post
	file   []byte            // a statement file the route reads as its whole body
	public bool              // answers without a credential by design
	shared bool              // the resource belongs to no application
}

// scanRoutes lists every route of the service by "METHOD pattern"; "*" matches any method
// (routes mounted with Handle). A route missing here fails the scan.
func scanRoutes(f map[string]string) map[string]scanRoute {
	page := []string{"page", "pageSize"}
	q := func(names ...string) []string { return append(append([]string{}, names...), page...) }
	item, account := url.Values{"itemId": {f["item"]}}, url.Values{"accountId": {f["account"]}}
	itemBody := map[string]any{"connectorId": 0, "parameters": map[string]any{"user": "user-ok", "password": "password-ok"},
		"webhookUrl": "https://hooks.example.com/x", "clientUserId": "u1", "oauthRedirectUri": "https://app.example.com/cb",
		"products": []any{"ACCOUNTS", "TRANSACTIONS"}, "avoidDuplicates": false}
	request := map[string]any{"amount": 10.5, "description": "Pedido", "isSandbox": true, "clientPaymentId": "p1",
		"callbackUrls": map[string]any{"success": "https://app.example.com/ok", "error": "https://app.example.com/err"},
		"recipientId":  f["recipient"], "customerId": f["customer"], "webhookUrl": "https://hooks.example.com/p",
		"schedule": map[string]any{"type": "DAILY", "startDate": day(3), "occurrences": 2}}
	recipient := map[string]any{"name": "Loja", "taxNumber": "11222333000181", "paymentInstitutionId": f["institution"], "isDefault": false,
		"account": map[string]any{"branch": "0001", "number": "12345-6", "type": "CHECKING_ACCOUNT"}, "pixKey": "loja@example.com"}
	terms := map[string]any{"interval": "MONTHLY", "startDate": day(1), "fixedAmount": 50, "isSandbox": true, "description": "Academia",
		"expiresAt": day(90), "isRetryAccepted": true, "firstPayment": map[string]any{"amount": 50, "date": day(2), "description": "x"},
		"minimumVariableAmount": 1, "maximumVariableAmount": 100}
	hook := map[string]any{"event": "all", "url": "https://hooks.example.com/w", "headers": map[string]any{"X-Team": "a"}, "enabled": true}
	charge := map[string]any{"amount": 50, "date": day(5), "description": "Mensalidade"}
	routes := map[string]scanRoute{
		"GET /healthz": {public: true},
		"GET /readyz":  {public: true},
		"POST /auth":   {public: true, body: map[string]any{"clientId": f["clientId"], "clientSecret": "s3cret-s3cret-s3cret"}},
		"POST /connect_token": {body: map[string]any{"itemId": f["item"], "options": map[string]any{"clientUserId": "u1",
			"webhookUrl": "https://hooks.example.com/t", "oauthRedirectUri": "https://app.example.com/cb", "avoidDuplicates": true,
			"countries": []any{"BR"}, "connectorTypes": []any{"PERSONAL_BANK"}, "includeSandbox": true, "products": []any{"ACCOUNTS"},
			"redirectUri": "https://app.example.com/done", "targetOrigin": "https://app.example.com"}}},
		"GET /connect_token":         {},
		"GET /connect":               {query: []string{"connect_token", "lang"}, public: true},
		"GET /connect/assets/{file}": {ids: []string{"asset"}, public: true},
		"GET /connectors": {query: q("countries", "types", "name", "sandbox", "healthDetails", "isOpenFinance", "supportsPaymentInitiation",
			"supportsSmartTransfers", "supportsAutomaticPix", "includeHealth")},
		"GET /connectors/{id}":               {ids: []string{"connector"}, query: []string{"healthDetails", "includeHealth"}, shared: true},
		"POST /connectors/{id}/validate":     {ids: []string{"connector"}, body: map[string]any{"user": "user-ok", "password": "x"}, shared: true},
		"GET /connectors/{id}/settings":      {ids: []string{"csvConnector"}, shared: true},
		"PUT /connectors/{id}/settings":      {ids: []string{"csvConnector"}, body: map[string]any{"delimiter": ";", "columns": map[string]any{"date": "Data", "description": "Histórico", "amount": "Valor"}, "dateFormat": "DD/MM/YYYY", "decimal": "comma"}, shared: true},
		"DELETE /connectors/{id}/settings":   {ids: []string{"csvConnector"}, shared: true},
		"POST /items":                        {body: itemBody},
		"GET /v2/items":                      {query: []string{"clientUserId", "connectorId", "after"}},
		"GET /items/{id}":                    {ids: []string{"item"}},
		"PATCH /items/{id}":                  {ids: []string{"item"}, body: itemBody},
		"DELETE /items/{id}":                 {ids: []string{"item"}},
		"POST /items/{id}/mfa":               {ids: []string{"item"}, body: map[string]any{"token": "123456"}},
		"POST /items/{id}/statements":        {ids: []string{"statementItem"}, query: []string{"name"}, file: scanStatement},
		"GET /items/{id}/resources":          {ids: []string{"item"}, query: []string{"status"}},
		"GET /sandbox/authorize/{id}":        {ids: []string{"action"}, public: true},
		"POST /sandbox/authorize/{id}":       {ids: []string{"action"}, public: true, form: map[string]string{"decision": "maybe"}},
		"GET /accounts":                      {query: []string{"itemId", "type"}, base: item},
		"GET /accounts/{id}":                 {ids: []string{"account"}},
		"GET /v2/transactions":               {query: []string{"accountId", "ids", "dateFrom", "dateTo", "createdAtFrom", "after"}, base: account},
		"GET /transactions/{id}":             {ids: []string{"transaction"}},
		"PATCH /transactions/{id}":           {ids: []string{"transaction"}, body: map[string]any{"categoryId": f["category"]}},
		"GET /transactions":                  {query: q("accountId", "from", "to", "ids", "billId", "createdAtFrom"), base: account},
		"GET /category_feedback":             {},
		"GET /accounts/{id}/statements":      {ids: []string{"account"}, query: q("investmentId")},
		"GET /investments":                   {query: q("itemId", "type"), base: item},
		"GET /investments/{id}":              {ids: []string{"investment"}},
		"GET /investments/{id}/transactions": {ids: []string{"investment"}, query: q("investmentId")},
		"GET /identity":                      {query: []string{"itemId"}, base: item},
		"GET /identity/{id}":                 {ids: []string{"identity"}},
		"GET /loans":                         {query: q("itemId"), base: item},
		"GET /loans/{id}":                    {ids: []string{"loan"}},
		"GET /bills":                         {query: q("accountId"), base: url.Values{"accountId": {f["card"]}}},
		"GET /bills/{id}":                    {ids: []string{"bill"}},
		"GET /consents":                      {query: q("itemId"), base: item},
		"GET /consents/{id}":                 {ids: []string{"consent"}},

		"GET /webhooks":                        {query: page},
		"POST /webhooks":                       {body: hook},
		"GET /webhooks/signing-secret":         {},
		"POST /webhooks/signing-secret/rotate": {},
		"GET /webhooks/{id}":                   {ids: []string{"webhook"}},
		"PATCH /webhooks/{id}":                 {ids: []string{"webhook"}, body: hook},
		"DELETE /webhooks/{id}":                {ids: []string{"webhook"}},
		"GET /webhooks/{id}/deliveries":        {ids: []string{"webhook"}, query: page},
		"GET /events/{id}":                     {ids: []string{"event"}},
		"POST /events/{id}/redeliver":          {ids: []string{"event"}},
		"POST /sandbox/events": {body: map[string]any{"event": "transactions/updated", "itemId": f["item"], "accountId": f["account"],
			"transactionIds": []string{f["transaction"]}}},
		"GET /sandbox/events/stream": {query: []string{"cursor", "timeout"}, base: url.Values{"timeout": {"1"}}},

		"GET /payments/requests":                                                   {query: q("from", "to")},
		"POST /payments/requests":                                                  {body: request},
		"POST /payments/requests/pix-qr":                                           {body: map[string]any{"pixQrCode": f["brcode"], "description": "x", "isSandbox": true, "customerId": f["customer"], "clientPaymentId": "c", "webhookUrl": "https://hooks.example.com/q", "callbackUrls": map[string]any{"success": "https://app.example.com/ok"}}},
		"GET /payments/requests/{id}":                                              {ids: []string{"request"}},
		"PATCH /payments/requests/{id}":                                            {ids: []string{"request"}, body: request},
		"DELETE /payments/requests/{id}":                                           {ids: []string{"request"}},
		"POST /payments/requests/{id}/refund":                                      {ids: []string{"request"}, body: map[string]any{"amount": 1}},
		"GET /payments/requests/{id}/schedules":                                    {ids: []string{"schedReq"}},
		"POST /payments/requests/{id}/schedules/cancel":                            {ids: []string{"schedReq"}},
		"GET /payments/requests/{id}/schedules/{scheduleId}":                       {ids: []string{"schedReq", "schedule"}},
		"POST /payments/requests/{id}/schedules/{scheduleId}/cancel":               {ids: []string{"schedReq", "schedule"}},
		"POST /payments/requests/automatic-pix":                                    {body: terms},
		"POST /payments/requests/{id}/automatic-pix/schedule":                      {ids: []string{"autoReq"}, body: charge},
		"GET /payments/requests/{id}/automatic-pix/schedules":                      {ids: []string{"autoReq"}, query: page},
		"GET /payments/requests/{id}/automatic-pix/schedules/{scheduleId}":         {ids: []string{"autoReq", "charge"}},
		"POST /payments/requests/{id}/automatic-pix/schedules/{scheduleId}/cancel": {ids: []string{"autoReq", "charge"}},
		"POST /payments/requests/{id}/automatic-pix/schedules/{scheduleId}/retry":  {ids: []string{"autoReq", "charge"}, body: map[string]any{"date": day(3)}},
		"POST /payments/requests/{id}/automatic-pix/cancel":                        {ids: []string{"autoReq"}},
		"GET /payments/intents":                                                    {query: q("from", "to", "paymentRequestId")},
		"POST /payments/intents": {body: map[string]any{"paymentRequestId": f["intentReq"], "connectorId": payConnector, "paymentMethod": "PIX",
			"isDynamicPix": false, "parameters": map[string]any{"cpf": happyCPF, "name": "Maria", "cnpj": "11222333000181"}}},
		"GET /payments/intents/{id}":                 {ids: []string{"intent"}},
		"GET /payments/customers":                    {query: page},
		"POST /payments/customers":                   {body: map[string]any{"type": "INDIVIDUAL", "name": "Ana", "email": "ana@example.com", "cpf": happyCPF}},
		"GET /payments/customers/{id}":               {ids: []string{"customer"}},
		"PATCH /payments/customers/{id}":             {ids: []string{"customer"}, body: map[string]any{"name": "Ana", "email": "ana@example.com", "cpf": happyCPF}},
		"DELETE /payments/customers/{id}":            {ids: []string{"customer"}},
		"GET /payments/recipients/institutions":      {query: q("name")},
		"GET /payments/recipients/institutions/{id}": {ids: []string{"institution"}, shared: true},
		"GET /payments/recipients":                   {query: page},
		"POST /payments/recipients":                  {body: recipient},
		"GET /payments/recipients/{id}":              {ids: []string{"recipient"}},
		"PATCH /payments/recipients/{id}":            {ids: []string{"recipient"}, body: recipient},
		"DELETE /payments/recipients/{id}":           {ids: []string{"recipient"}},
		"GET /payments/pay/{id}":                     {ids: []string{"payReq"}, public: true},
		"POST /payments/pay/{id}":                    {ids: []string{"payReq"}, public: true, form: map[string]string{"connectorId": "5", "cpf": "123", "name": "Maria"}},
		"GET /payments/consent/{id}":                 {ids: []string{"intent"}, public: true},
		"POST /payments/consent/{id}":                {ids: []string{"intent"}, public: true, form: map[string]string{"decision": "maybe"}},
		"GET /payments/pix/{id}":                     {ids: []string{"pixIntent"}, public: true},
		"POST /payments/smart-accounts": {body: map[string]any{"name": "Conta", "taxNumber": happyCPF, "email": "c@example.com",
			"phoneNumber": "+5511999990000", "isSandbox": true}},
		"GET /payments/smart-accounts":              {query: page},
		"GET /payments/smart-accounts/{id}":         {ids: []string{"smartAccount"}},
		"GET /payments/smart-accounts/{id}/balance": {ids: []string{"smartAccount"}},
		"POST /payments/bulk": {body: map[string]any{"smartAccountId": f["smartAccount"], "paymentRequestIds": []string{f["intentReq"]},
			"callbackUrls": map[string]any{"success": "https://app.example.com/ok", "error": "https://app.example.com/err", "pending": "https://app.example.com/p"}}},
		"GET /payments/bulk":               {query: page},
		"GET /payments/bulk/{id}":          {ids: []string{"bulk"}},
		"DELETE /payments/bulk/{id}":       {ids: []string{"bulk"}},
		"GET /payments/bulk-consent/{id}":  {ids: []string{"bulk"}, public: true},
		"POST /payments/bulk-consent/{id}": {ids: []string{"bulk"}, public: true, form: map[string]string{"decision": "maybe"}},
		"POST /smart-transfers/preauthorizations": {body: map[string]any{"connectorId": 6, "parameters": map[string]any{"cpf": happyCPF, "cnpj": "11222333000181", "name": "Maria"},
			"recipientIds": []string{f["recipient"]}, "clientPreauthorizationId": "p1",
			"limits":       map[string]any{"transaction": 10, "daily": 20, "weekly": 30, "monthly": 40, "yearly": 50, "total": 60},
			"callbackUrls": map[string]any{"success": "https://app.example.com/ok", "error": "https://app.example.com/err"}}},
		"GET /smart-transfers/preauthorizations":              {query: page},
		"GET /smart-transfers/preauthorizations/{id}":         {ids: []string{"preauth"}},
		"POST /smart-transfers/preauthorizations/{id}/revoke": {ids: []string{"preauth"}},
		"POST /smart-transfers/payments": {body: map[string]any{"preauthorizationId": f["preauthOK"], "recipientId": f["recipient"], "amount": 1,
			"description": "x", "clientPaymentId": "c1"}},
		"GET /smart-transfers/payments/{id}": {ids: []string{"stPayment"}},
		"GET /smart-transfers/consent/{id}":  {ids: []string{"preauth"}, public: true},
		"POST /smart-transfers/consent/{id}": {ids: []string{"preauth"}, public: true, form: map[string]string{"decision": "maybe"}},
		"POST /boleto-connections/from-item": {body: map[string]any{"itemId": f["boletoItem"]}},
		"GET /boleto-connections":            {query: page},
		"GET /boleto-connections/{id}":       {ids: []string{"boletoConnection"}},
		"POST /boletos":                      {body: boletoBody(f["boletoConnection"], "SCAN-1", 25, day(5))},
		"GET /boletos":                       {query: q("boletoConnectionId", "status", "dueDateFrom", "dueDateTo")},
		"GET /boletos/{id}":                  {ids: []string{"boleto"}},
		"POST /boletos/{id}/cancel":          {ids: []string{"boleto"}},
		"GET /boletos/pix/{id}":              {ids: []string{"boleto"}, public: true},
		"POST /boletos/pix/{id}":             {ids: []string{"paidBoleto"}, public: true},
		"GET /categories":                    {query: q("parentId")},
		"GET /categories/{id}":               {ids: []string{"category"}, shared: true},
		"GET /merchants":                     scanMerchants,
		"GET /sandbox/faults":                {},
		"PUT /sandbox/faults":                {body: map[string]any{"faults": []any{map[string]any{"route": "GET /categories", "kind": "LATENCY", "probability": 0, "latencyMs": 1}}}},
		"DELETE /sandbox/faults":             {},
		"* /graphql":                         {public: true},
		"GET /openapi.json":                  {public: true},
		"GET /metrics":                       {public: true},
		"GET /reference":                     {public: true},
		"* /graphiql":                        {public: true},
		"* /graphiql/*":                      {ids: []string{"asset"}, public: true},

		// Sandbox control: items and data.
		"POST /sandbox/items/{id}/reset-login":    {ids: []string{"item"}},
		"POST /sandbox/items/{id}/status":         {ids: []string{"item"}, body: map[string]any{"status": "OUTDATED", "executionStatus": "SITE_NOT_AVAILABLE", "message": "x", "statusDetail": map[string]any{"transactions": map[string]any{"isUpdated": false}}}},
		"POST /sandbox/items/{id}/next-execution": {ids: []string{"item"}, body: map[string]any{"executionStatus": "PARTIAL_SUCCESS", "unavailableProducts": []any{"TRANSACTIONS"}}},
		"POST /sandbox/items/{id}/sync":           {ids: []string{"item"}},
		"POST /sandbox/items/{id}/transactions": {ids: []string{"item"}, body: map[string]any{"transactions": []any{map[string]any{"accountId": f["account"],
			"date": "2026-01-15", "description": "x", "amount": 1, "type": "CREDIT", "status": "PENDING", "category": "05000000"}}}},
		"PATCH /sandbox/items/{id}/transactions/{transactionId}":  {ids: []string{"item", "transaction"}, body: map[string]any{"description": "x", "amount": 2, "status": "POSTED"}},
		"DELETE /sandbox/items/{id}/transactions/{transactionId}": {ids: []string{"item", "transaction"}},
		"DELETE /sandbox/client":                                  {query: []string{"confirm"}}, // never the real confirm: the scan keeps its data
	}
	return routes
}

// dataURL finds encoded values (a QR code's image, a JWT), left out of the leak check: their
// random letters spell "pgx" or "panic" now and then.
var dataURL = regexp.MustCompile(`data:image/png;base64,[A-Za-z0-9+/=]*|eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+`)

// leakRE finds database, driver, file-system and runtime text that must never reach a client.
var leakRE = regexp.MustCompile(`SQLSTATE|syntax error|pq:|pgx|ERROR:|/tmp/|\.s\.PGSQL|runtime error|goroutine|panic|invalid byte sequence|bun:`)

// Bad whole bodies, with the Content-Type they are sent with.
var badBodies = []struct{ contentType, body string }{
	{"application/json", `{"\u0000":1}`}, {"application/json", "{\"a\":\"\xff\"}"}, {"application/json", `[]`}, {"application/json", `"x"`},
	{"application/json", `1`}, {"application/json", `null`}, {"application/json", `{`}, {"application/json", "\x00"},
	{"application/json", `{"a":` + strings.Repeat("[", 100000) + `}`}, {"application/json", `{"a":"` + strings.Repeat("y", 1<<20) + `"}`},
	{"text/plain", `{}`}, {"application/x-www-form-urlencoded", `a=b`}, {"", `{}`}, {"application/json; charset=utf-16", `{}`},
	{"multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=\"decision\"\r\n\r\n\x00\r\n--x--\r\n"},
	{"application/json", `{"a":1,"A":2}`}, {"application/json", `{"a":{"b":1,"b":2}}`},
}

type scanResult struct {
	what   string
	status int
	body   string
}

// scanner sends requests and keeps every answer that breaks the rules.
type scanner struct {
	t      *testing.T
	base   string
	client *http.Client
	mu     sync.Mutex
	bad    []scanResult
	sent   int
}

func (s *scanner) send(method, path, key, contentType string, body []byte) (int, []byte) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, s.base+path, rd)
	if err != nil {
		return 0, nil // a URL no client can send (an escape like %zz in the path)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if key != "" {
		req.Header.Set("X-API-KEY", key)
	}
	what := fmt.Sprintf("%s %.160q key=%v ct=%q body=%.120q", method, path, key != "", contentType, body)
	resp, err := s.client.Do(req)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sent++
	if err != nil {
		s.bad = append(s.bad, scanResult{what: what, body: "transport: " + err.Error()})
		return 0, nil
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	ct := resp.Header.Get("Content-Type")
	// Assets and the metrics (Prometheus' text format, which names go_goroutines) are
	// the service's own text, whatever the request.
	// A PIX QR code is a base64 PNG, where "pgx" turns up by chance (CI once found it):
	// the images are taken out before looking for leaks.
	leak := !strings.Contains(ct, "javascript") && !strings.Contains(ct, "css") && !strings.HasPrefix(ct, "text/plain; version=") &&
		leakRE.Match(dataURL.ReplaceAll(b, nil))
	if resp.StatusCode >= 500 || leak {
		s.bad = append(s.bad, scanResult{what: what, status: resp.StatusCode, body: string(b)})
	}
	return resp.StatusCode, b
}

// TestBadInputScan sends every route NUL bytes, invalid UTF-8, huge strings, overflowing
// numbers, mistyped JSON fields, oversized bodies, wrong Content-Types and another
// application's ids, with and without a credential: no answer may be a 5xx or show SQL,
// driver, file-system or runtime text, and no application may reach another's resources.
func TestBadInputScan(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t, func(s *testsupport.Setup) { s.Resolver.Limiter = auth.NewLimiter(map[string]int{}) })
	a, b := env.NewClient(t, "scan-a"), env.NewClient(t, "scan-b")
	f := scanFixtures(t, env, a)
	specs := scanRoutes(f)
	for _, more := range scanMoreRoutes { // tables of later routes, in files of their own
		maps.Copy(specs, more(f))
	}

	router, ok := env.Server.Config.Handler.(chi.Routes)
	if !ok {
		t.Fatalf("rest.New returns %T, not a chi router: the scan cannot list the routes", env.Server.Config.Handler)
	}
	type route struct{ method, pattern string }
	var routes []route
	seen := map[string]bool{}
	_ = chi.Walk(router, func(method, pattern string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		routes = append(routes, route{method, pattern})
		return nil
	})
	sort.Slice(routes, func(i, j int) bool { return routes[i].pattern+routes[i].method < routes[j].pattern+routes[j].method })

	s := &scanner{t: t, base: env.URL, client: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	for _, r := range routes {
		spec, found := specs[r.method+" "+r.pattern]
		key := r.method + " " + r.pattern
		if !found {
			spec, found = specs["* "+r.pattern]
			key = "* " + r.pattern
		}
		if !found {
			t.Errorf("route %s %s has no entry in scanRoutes: say how to reach it", r.method, r.pattern)
			continue
		}
		seen[key] = true
		if r.pattern == "/graphql" || strings.HasPrefix(r.pattern, "/graphiql") {
			if r.method == http.MethodGet || r.method == http.MethodPost {
				s.send(r.method, strings.ReplaceAll(r.pattern, "*", "%00"), a.APIKey, "", nil)
			}
			continue
		}
		scanOne(s, r.method, r.pattern, spec, f, a.APIKey, b.APIKey)
	}
	for k := range specs {
		if !seen[k] {
			t.Errorf("scanRoutes has %s, which the router does not serve", k)
		}
	}
	scanGraphQL(s, a.APIKey, f)

	t.Logf("%d requests sent", s.sent)
	for i, r := range s.bad {
		if i == 60 {
			t.Errorf("... and %d more", len(s.bad)-i)
			break
		}
		t.Errorf("%s: status %d: %.300s", r.what, r.status, r.body)
	}
}

// fill writes a pattern's path parameters in order.
func fill(pattern string, vals ...string) string {
	i := 0
	return regexp.MustCompile(`\{[^}]+\}|\*`).ReplaceAllStringFunc(pattern, func(string) string {
		v := "x"
		if i < len(vals) {
			v = vals[i]
		}
		i++
		return v
	})
}

func scanOne(s *scanner, method, pattern string, spec scanRoute, f map[string]string, keyA, keyB string) {
	real := make([]string, len(spec.ids))
	junk := make([]string, len(spec.ids))
	for i, kind := range spec.ids {
		real[i], junk[i] = f[kind], uuid.NewString()
	}
	withQuery := func(p string, v url.Values) string {
		if len(v) == 0 {
			return p
		}
		return p + "?" + v.Encode()
	}
	// Path parameters: each bad value in each position, the others real.
	for i := range spec.ids {
		for _, bad := range rest.BadURLValues {
			vals := append([]string{}, real...)
			vals[i] = bad
			for _, key := range []string{keyA, ""} {
				s.send(method, withQuery(fill(pattern, vals...), spec.base), key, "", nil)
			}
		}
		vals := append([]string{}, real...)
		vals[i] += "%00"
		s.send(method, fill(pattern, vals...), keyA, "", nil)
	}
	// Query parameters: each bad value in each parameter (and in a name), on a harmless id.
	target := fill(pattern, junk...)
	if method == http.MethodGet {
		target = fill(pattern, real...)
	}
	for _, name := range append(append([]string{}, spec.query...), "bogus") {
		for _, bad := range rest.BadURLValues {
			raw := spec.base.Encode()
			if raw != "" {
				raw += "&"
			}
			for _, key := range []string{keyA, ""} {
				s.send(method, target+"?"+raw+url.QueryEscape(name)+"="+bad, key, "", nil)
			}
		}
	}
	for _, name := range []string{"%00", "a%00", "%ff"} {
		s.send(method, target+"?"+name+"=1", keyA, "", nil)
	}
	if method == http.MethodGet || method == http.MethodDelete {
		s.send(method, withQuery(target, spec.base), keyA, "application/json", []byte(`{"a":"`+strings.Repeat("z", 1<<20)+`"}`))
	}
	// Whole bodies of every bad kind, on a harmless id.
	if method == http.MethodPost || method == http.MethodPatch || method == http.MethodPut {
		for _, bb := range badBodies {
			for _, key := range []string{keyA, ""} {
				s.send(method, fill(pattern, junk...), key, bb.contentType, []byte(bb.body))
			}
		}
	}
	// A file route: the good file broken every way a file can be, on the real resource.
	if spec.file != nil {
		path := fill(pattern, real...)
		for _, bad := range scanFiles(spec.file) {
			s.send(method, path, keyA, "application/octet-stream", bad)
		}
	}
	// Each field of the body with each bad value, on the real resource.
	if spec.body != nil {
		path := fill(pattern, real...)
		for _, field := range fieldPaths(spec.body, "") {
			for _, bad := range rest.BadJSONValues {
				s.send(method, path, keyA, "application/json", withField(spec.body, field, bad))
			}
		}
		s.send(method, path, keyA, "text/plain", mustJSON(spec.body))
		// The body with its first key again in capitals is refused, whatever the route:
		// encoding/json would take the second, a reader keeping the first another request.
		dup := withRepeatedKey(spec.body)
		if st, got := s.send(method, path, keyA, "application/json", dup); st != http.StatusBadRequest || !bytes.Contains(got, []byte(`"MALFORMED_JSON"`)) {
			s.mu.Lock()
			s.bad = append(s.bad, scanResult{what: "a repeated key: " + method + " " + path + " " + string(dup), status: st, body: string(got)})
			s.mu.Unlock()
		}
	}
	if spec.form != nil {
		path := fill(pattern, real...)
		for field := range spec.form {
			for _, bad := range rest.BadURLValues {
				var parts []string
				for k, v := range spec.form {
					if k == field {
						v = bad
					} else {
						v = url.QueryEscape(v)
					}
					parts = append(parts, k+"="+v)
				}
				s.send(method, path, "", "application/x-www-form-urlencoded", []byte(strings.Join(parts, "&")))
			}
		}
		s.send(method, path, "", "application/x-www-form-urlencoded", []byte("decision="+strings.Repeat("a", 1<<20+10)))
		s.send(method, path, "", "application/json", []byte(`{"decision":"\u0000"}`))
	}
	// Another application's ids answer 403 or 404, never the resource.
	if len(spec.ids) > 0 && !spec.public && !spec.shared {
		var body []byte
		ct := ""
		if spec.body != nil {
			body, ct = mustJSON(spec.body), "application/json"
		}
		st, got := s.send(method, fill(pattern, real...), keyB, ct, body)
		if st != http.StatusNotFound && st != http.StatusForbidden {
			s.mu.Lock()
			s.bad = append(s.bad, scanResult{what: "another application's ids: " + method + " " + fill(pattern, real...), status: st, body: string(got)})
			s.mu.Unlock()
		}
	}
}

// fieldPaths lists a body's fields, nested objects as a.b.
func fieldPaths(m map[string]any, prefix string) []string {
	var out []string
	for k, v := range m {
		out = append(out, prefix+k)
		if sub, ok := v.(map[string]any); ok {
			out = append(out, fieldPaths(sub, prefix+k+".")...)
		}
	}
	sort.Strings(out)
	return out
}

// withField encodes body with the field at path replaced by raw JSON.
func withField(body map[string]any, path, raw string) []byte {
	const mark = "\x01scan-mark\x01"
	var set func(m map[string]any, parts []string) map[string]any
	set = func(m map[string]any, parts []string) map[string]any {
		c := make(map[string]any, len(m))
		for k, v := range m {
			c[k] = v
		}
		if len(parts) == 1 {
			c[parts[0]] = mark
		} else {
			c[parts[0]] = set(m[parts[0]].(map[string]any), parts[1:])
		}
		return c
	}
	enc := mustJSON(set(body, strings.Split(path, ".")))
	quoted, _ := json.Marshal(mark)
	return bytes.Replace(enc, quoted, []byte(raw), 1)
}

// withRepeatedKey encodes body with its first key (in encoding order) repeated at the end in
// capitals.
func withRepeatedKey(body map[string]any) []byte {
	keys := make([]string, 0, len(body))
	for k := range body {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	enc := mustJSON(body)
	return append(enc[:len(enc)-1], `,"`+strings.ToUpper(keys[0])+`":null}`...)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// scanGraphQL sends the GraphQL endpoint arguments of the same kinds, inline and as
// variables; an error whose code is 5xx counts as a 500.
func scanGraphQL(s *scanner, key string, f map[string]string) {
	type call struct {
		query string
		vars  map[string]any
	}
	calls := []call{
		{`{ connector(id: 99999999999) { id } }`, nil},
		{`{ connector(id: 2147483648) { id } }`, nil},
		{`{ connectors(filter: {name: "a\u0000b"}) { total } }`, nil},
		{`{ connectors(page: 9223372036854775807) { total page } }`, nil},
		{`{ categories(parentId: "\u0000") { total } }`, nil},
		{`{ item(id: "00000000-0000-0000-0000-00000000000\u0000") { id } }`, nil},
		{`mutation { createPaymentCustomer(input: {type: "INDIVIDUAL", name: "a\u0000"}) { id } }`, nil},
		{`{ investmentsPage(itemId: "00000000-0000-0000-0000-000000000000", page: 9223372036854775807) { total } }`, nil},
		{`{ transactionsPage(accountId: "00000000-0000-0000-0000-000000000000", pageSize: 501) { total } }`, nil},
		{`{ billsPage(accountId: "00000000-0000-0000-0000-00000000000\u0000") { total } }`, nil},
		{`query($n: String) { connectors(filter: {name: $n}) { total } }`, map[string]any{"n": "a\u0000b"}},
		{`query($p: Int) { connectors(page: $p) { total } }`, map[string]any{"p": json.RawMessage(`99999999999999999999`)}},
		{`query($id: Int!) { connector(id: $id) { id } }`, map[string]any{"id": json.RawMessage(`1e309`)}},
		{`mutation($a: Float) { createPaymentRequest(input: {amount: $a, isSandbox: true}) { id } }`, map[string]any{"a": json.RawMessage(`0.000000001`)}},
		// The payer's pages, which take no credential (part P).
		{`{ paymentPage(id: "x\u0000") { canPay } }`, nil},
		{`{ pixCharge(id: "00000000-0000-0000-0000-00000000000\u0000") { txid } }`, nil},
		{`mutation($id: UUID!) { decidePaymentIntent(id: $id, authorize: "yes") { id } }`, map[string]any{"id": f["intent"]}},
		{`mutation($id: UUID!, $c: Int!) { startPaymentIntentAsPayer(id: $id, connectorId: $c, cpf: "11144477735") { id } }`,
			map[string]any{"id": f["payReq"], "c": json.RawMessage(`99999999999`)}},
		{`mutation($id: UUID!, $cpf: String!, $n: String) { startPaymentIntentAsPayer(id: $id, connectorId: 5, cpf: $cpf, name: $n) { id } }`,
			map[string]any{"id": f["payReq"], "cpf": "111.444.777-3\u00005", "n": "Maria"}},
		{`mutation($id: UUID!, $cpf: String!, $n: String) { startPaymentIntentAsPayer(id: $id, connectorId: 5, cpf: $cpf, name: $n) { id } }`,
			map[string]any{"id": f["payReq"], "cpf": "11144477735", "n": "Maria\u0000" + strings.Repeat("\xff", 3)}},
		{`mutation($id: UUID!) { decidePreauthorization(id: $id, authorize: null) { id } }`, map[string]any{"id": f["preauth"]}},
		{`mutation { decideBulkPayment(id: "", authorize: true) { id } }`, nil},
		// Items, webhooks and credentials.
		{`mutation($c: String!, $s: String!) { createApiKey(clientId: $c, clientSecret: $s) { apiKey } }`, map[string]any{"c": "a\u0000b", "s": "\u0000"}},
		{`{ sandboxAuthorization(id: "\u0000") { id } }`, nil},
		// Fault injection.
		{`mutation { setSandboxFaults(faults: [{route: "GET /accounts\u0000", kind: LATENCY, probability: 0, latencyMs: 1}]) { route } }`, nil},
		{`mutation($p: Float!) { setSandboxFaults(faults: [{route: "*", kind: SERVER_ERROR, probability: $p}]) { route } }`, map[string]any{"p": json.RawMessage(`1e309`)}},
		{`mutation($l: Int) { setSandboxFaults(faults: [{route: "*", kind: LATENCY, probability: 0, latencyMs: $l}]) { route } }`, map[string]any{"l": json.RawMessage(`99999999999`)}},
		{`mutation($d: String!) { decideSandboxAuthorization(id: "00000000-0000-0000-0000-000000000000", decision: $d) { id } }`, map[string]any{"d": "approve\u0000"}},
	}
	for _, c := range calls {
		_, body := s.send(http.MethodPost, "/graphql", key, "application/json", mustJSON(map[string]any{"query": c.query, "variables": c.vars}))
		var out testsupport.GraphQLResult
		_ = json.Unmarshal(body, &out)
		if len(out.Errors) == 0 {
			s.bad = append(s.bad, scanResult{what: "GraphQL " + c.query + " took a bad argument", body: string(body)})
		}
		for _, e := range out.Errors {
			if code, _ := e.Extensions["code"].(float64); code >= 500 {
				s.bad = append(s.bad, scanResult{what: "GraphQL " + c.query, status: int(code), body: string(body)})
			}
		}
	}
}
