package graph_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/google/uuid"

	"ponte/testsupport"
)

// The GraphQL endpoint itself: catalogue reads, the caller, Connect Tokens, and what is
// refused before any resolver runs (size, depth, complexity, methods, credentials).
func TestEndpointAndLimits(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	client := env.NewClient(t, "endpoint")
	g := caller(env, client.APIKey)

	t.Run("connectors and categories", func(t *testing.T) {
		d := g.ok(t, `{ connectors(pageSize: 3, page: 2) { total totalPages page results { id name } }
			all: connectors(filter: {sandbox: true}) { total results { id isSandbox } }
			named: connectors(filter: {name: "aurora"}) { results { id } }
			pay: connectors(filter: {sandbox: true, supportsPaymentInitiation: true}) { results { id supportsPaymentInitiation } } }`, nil)
		total := num(t, d, "connectors.total")
		if num(t, d, "connectors.page") != 2 || len(list(t, d, "connectors.results")) != 3 || num(t, d, "connectors.totalPages") != float64(int(total+2)/3) ||
			num(t, d, "all.total") <= total || at(t, d, "named.results.0.id") != 2.0 {
			t.Fatalf("connectors %v", d)
		}
		for i := range list(t, d, "pay.results") {
			if at(t, d, "pay.results."+strconv.Itoa(i)+".supportsPaymentInitiation") != true {
				t.Fatalf("payment connectors %v", d)
			}
		}
		one := g.ok(t, `{ connector(id: 1, healthDetails: true) { id hasMFA credentials { name mfa } health { status details { connectionsLast6Hours } } } }`, nil)
		if at(t, one, "connector.hasMFA") != true || at(t, one, "connector.credentials.2.name") != "token" || at(t, one, "connector.health.details") == nil {
			t.Fatalf("connector 1 %v", one)
		}
		g.fails(t, `{ connector(id: 4242) { id } }`, nil, "CONNECTOR_NOT_FOUND", 404)
		g.fails(t, `{ connectors(filter: {countries: ["AR"]}) { total } }`, nil, "INVALID_PARAMETER", 400)
		v := g.ok(t, `mutation { validateConnectorParameters(connectorId: 0, parameters: {user: "user-ok", password: "123"}) { parameters errors { code parameter } } }`, nil)
		if at(t, v, "validateConnectorParameters.errors.0.parameter") != "password" || at(t, v, "validateConnectorParameters.parameters.password") != "********" ||
			len(list(t, v, "validateConnectorParameters.errors")) != 1 {
			t.Fatalf("validation %v", v)
		}
		c := g.ok(t, `{ categories(parentId: "09000000", pageSize: 2) { total totalPages results { id parentId } } category(id: "09030000") { descriptionTranslated parentId } }`, nil)
		if at(t, c, "categories.results.0.parentId") != "09000000" || at(t, c, "category.descriptionTranslated") != "Groceries" ||
			num(t, c, "categories.totalPages") != float64(int(num(t, c, "categories.total")+1)/2) {
			t.Fatalf("categories %v", c)
		}
		g.fails(t, `{ category(id: "nope") { id } }`, nil, "CATEGORY_NOT_FOUND", 404)
	})

	t.Run("the caller and its Connect Tokens", func(t *testing.T) {
		d := g.ok(t, `{ clientApplication { id name enabled } }`, nil)
		if at(t, d, "clientApplication.id") != client.ID || at(t, d, "clientApplication.name") != "endpoint" {
			t.Fatalf("client %v", d)
		}
		const issue = `mutation($id: UUID, $o: ConnectTokenOptions) { createConnectToken(itemId: $id, options: $o) { accessToken } }`
		g.fails(t, issue, map[string]any{"id": uuid.NewString()}, "ITEM_NOT_FOUND", 404)
		g.fails(t, issue, map[string]any{"o": map[string]any{"webhookUrl": "http://hooks.example.com"}}, "INVALID_PARAMETER", 400)
		g.fails(t, issue, map[string]any{"o": map[string]any{"oauthRedirectUri": "ftp://x"}}, "INVALID_PARAMETER", 400)
		g.fails(t, issue, map[string]any{"o": map[string]any{"targetOrigin": "https://app.example.com/path"}}, "INVALID_PARAMETER", 400)
		tok := caller(env, str(t, g.ok(t, issue, map[string]any{"o": map[string]any{"clientUserId": "tok-user", "targetOrigin": "HTTPS://App.Example.com:8443"}}),
			"createConnectToken.accessToken"))
		session := env.Do(t, "GET", "/connect_token", tok.key, nil).Want(200).Map()
		if at(t, session, "options.targetOrigin") != "https://app.example.com:8443" {
			t.Fatalf("the token's origin is kept as %v", at(t, session, "options.targetOrigin"))
		}
		for _, q := range []string{`{ clientApplication { id } }`, `{ categories { total } }`, `{ events { id } }`, `{ itemConnection { totalCount } }`,
			`mutation { createConnectToken { accessToken } }`} {
			tok.fails(t, q, nil, "FORBIDDEN", 403)
		}
		const create = `mutation($in: CreateItemInput!) { createItem(input: $in) { id clientUserId } }`
		params := map[string]any{"user": "user-ok", "password": "password-ok"}
		tok.fails(t, create, map[string]any{"in": map[string]any{"connectorId": 0, "parameters": params, "clientUserId": "someone"}}, "CONNECT_TOKEN_OPTION_CONFLICT", 400)
		it := tok.ok(t, create, map[string]any{"in": map[string]any{"connectorId": 0, "parameters": params}})
		id := str(t, it, "createItem.id")
		if at(t, it, "createItem.clientUserId") != "tok-user" {
			t.Fatalf("the token's clientUserId was not applied: %v", it)
		}
		tok.fails(t, create, map[string]any{"in": map[string]any{"connectorId": 0, "parameters": params}}, "FORBIDDEN", 403)
		if d := tok.ok(t, `query($id: UUID!) { item(id: $id) { id } }`, map[string]any{"id": id}); at(t, d, "item.id") != id {
			t.Fatalf("the token's own item %v", d)
		}
		waitItem(t, g, id)
		mine := str(t, newItem(t, g, 0, params), "id")
		tok.fails(t, `query($id: UUID!) { item(id: $id) { id } }`, map[string]any{"id": mine}, "FORBIDDEN", 403)
		tok.fails(t, `mutation($id: UUID!) { deleteItem(id: $id) { id } }`, map[string]any{"id": id}, "FORBIDDEN", 403)
		upd := caller(env, str(t, g.ok(t, issue, map[string]any{"id": mine}), "createConnectToken.accessToken"))
		if d := upd.ok(t, `mutation($id: UUID!) { updateItem(id: $id) { id status } }`, map[string]any{"id": mine}); at(t, d, "updateItem.status") != "UPDATING" {
			t.Fatalf("update with the item's token %v", d)
		}
		upd.fails(t, `mutation($id: UUID!) { updateItem(id: $id) { id } }`, map[string]any{"id": id}, "FORBIDDEN", 403)
		waitItem(t, g, mine)
	})

	t.Run("refused before execution", func(t *testing.T) {
		// Deeper than the limit, through a real path of the schema.
		deep := `{ itemConnection { edges { node { accounts { edges { node { transactions { edges { node { paymentData { payer { documentNumber { value } } } } } } } } } } } } }`
		g.fails(t, deep, nil, "QUERY_TOO_DEEP", 400)
		// Complexity: 500 accounts' worth of 500 transactions.
		g.fails(t, `{ itemConnection(first: 500) { nodes { accounts { nodes { transactions(first: 500) { nodes { id amount date } } } } } } }`, nil, "QUERY_TOO_COMPLEX", 400)
		g.fails(t, "{ "+strings.Repeat("a: __typename ", 3000)+"}", nil, "QUERY_TOO_COMPLEX", 400)
		g.fails(t, `{ connectors { total `, nil, "INVALID_REQUEST", 400)
		r := env.GraphQL(t, g.key, `{ connectors { nope } }`, nil)
		wantErr(t, r, "INVALID_REQUEST", 400)
		if r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("a query that does not validate answered %d", r.Status)
		}
		g.fails(t, `query($q: String) { connectors(filter: {name: $q}) { total } }`, map[string]any{"q": "a\x00b"}, "INVALID_PARAMETER", 400)
		// Without a credential only a small introspection runs.
		anon := caller(env, "")
		if d := anon.ok(t, `{ __schema { queryType { name } } }`, nil); at(t, d, "__schema.queryType.name") != "Query" {
			t.Fatalf("anonymous introspection %v", d)
		}
		anon.fails(t, `{ connectors { total } }`, nil, "API_KEY_MISSING", 401)
	})

	t.Run("methods, media types and GET", func(t *testing.T) {
		r := env.DoHeaders(t, "GET", "/graphql?query="+url.QueryEscape(`{ category(id: "09030000") { id } }`), g.key, nil, nil)
		if r.Status != 200 || !strings.Contains(string(r.Body), `"category":{"id":"09030000"}`) {
			t.Fatalf("GET query %d %s", r.Status, r.Body)
		}
		r = env.DoHeaders(t, "GET", "/graphql?query="+url.QueryEscape(`mutation { rotateWebhookSigningSecret { secret } }`), g.key, nil, nil)
		if r.Status != http.StatusMethodNotAllowed || !strings.Contains(string(r.Body), "METHOD_NOT_ALLOWED") {
			t.Fatalf("GET mutation %d %s", r.Status, r.Body)
		}
		r = env.DoHeaders(t, "GET", "/graphql?query=%7B&variables=nope", g.key, nil, nil)
		if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), "variables could not be decoded") {
			t.Fatalf("GET with bad variables %d %s", r.Status, r.Body)
		}
		r = env.DoHeaders(t, "GET", "/graphql?query="+strings.Repeat("x", 70<<10), g.key, nil, nil)
		if r.Status != http.StatusRequestEntityTooLarge && r.Status != http.StatusRequestURITooLong && r.Status != http.StatusBadRequest {
			t.Fatalf("a long GET answered %d", r.Status)
		}
		r = env.DoHeaders(t, "PUT", "/graphql", g.key, `{}`, nil)
		if r.Status != http.StatusMethodNotAllowed || !strings.Contains(string(r.Body), `"codeDescription":"METHOD_NOT_ALLOWED"`) {
			t.Fatalf("PUT %d %s", r.Status, r.Body)
		}
		r = env.DoHeaders(t, "POST", "/graphql", g.key, `query=x`, map[string]string{"Content-Type": "text/plain"})
		if r.Status != http.StatusUnsupportedMediaType {
			t.Fatalf("text body %d %s", r.Status, r.Body)
		}
		r = env.DoHeaders(t, "POST", "/graphql", g.key, `{"query": "{ a: __typename }", "query": "{ b: __typename }"}`, nil)
		if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), `"codeDescription":"MALFORMED_JSON"`) || !strings.Contains(string(r.Body), "repeats the key") {
			t.Fatalf("two queries %d %s", r.Status, r.Body)
		}
		r = env.DoHeaders(t, "POST", "/graphql", g.key, `{"query": "`+strings.Repeat("x", 1<<20)+`"}`, nil)
		if r.Status != http.StatusRequestEntityTooLarge {
			t.Fatalf("a body over 1 MiB %d", r.Status)
		}
	})

	t.Run("Idempotency-Key does not replay GraphQL", func(t *testing.T) {
		const q = `mutation { createPaymentCustomer(input: {type: "INDIVIDUAL", name: "Ana", cpf: "11144477735"}) { id } }`
		h := map[string]string{"Idempotency-Key": "same-key"}
		var got []string
		for range 2 {
			r := env.DoHeaders(t, "POST", "/graphql", g.key, map[string]any{"query": q}, h).Want(200)
			var out testsupport.GraphQLResult
			r.JSON(&out)
			got = append(got, str(t, out.Data, "createPaymentCustomer.id"))
		}
		if got[0] == got[1] {
			t.Fatalf("the second mutation replayed the first: %v", got)
		}
	})
}
