package rest_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"ponte/graph"
	"ponte/model"
	"ponte/rest"
	"ponte/testsupport"
)

// A request's line and headers are held to rest.MaxHeaderBytes (80 KiB), not Go's 1 MiB:
// beyond it net/http answers 431 and closes the connection before any handler runs. A
// large header within the limit still reaches the service, and so does a GraphQL GET with
// the 64 KiB query string /graphql allows.
func TestHeaderLimit(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "headers").APIKey
	// send writes the request on its own connection, whole, before reading the answer.
	send := func(target string, padding int) (*http.Response, string) {
		t.Helper()
		conn, err := net.Dial("tcp", strings.TrimPrefix(env.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
		fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: x\r\nX-API-KEY: %s\r\nX-Padding: %s\r\n\r\n", target, key, strings.Repeat("p", padding))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("GET %.60s with %d bytes of header: %v", target, padding, err)
		}
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	if resp, body := send("/connectors?pageSize=1", rest.MaxHeaderBytes-1024); resp.StatusCode != http.StatusOK {
		t.Fatalf("a header just under the limit: status %d %.200s", resp.StatusCode, body)
	}
	// The longest GraphQL GET, with a few KiB of headers beside it.
	query := "query=" + url.QueryEscape("{ __typename "+strings.Repeat(" ", graph.MaxQueryStringBytes-30)+"}")
	if resp, body := send("/graphql?"+query, 4<<10); resp.StatusCode != http.StatusOK {
		t.Fatalf("a GraphQL GET of %d bytes: status %d %.200s", len(query), resp.StatusCode, body)
	}
	// net/http reads 4 KiB past MaxHeaderBytes before it stops; twice that is always refused,
	// in a header or in the request line.
	for _, c := range []struct {
		target  string
		padding int
	}{
		{"/connectors", rest.MaxHeaderBytes + 8<<10},
		{"/connectors", 256 << 10},
		{"/graphql?query=" + strings.Repeat("+", rest.MaxHeaderBytes+8<<10) + "%7B__typename%7D", 0},
	} {
		resp, body := send(c.target, c.padding)
		if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge || !resp.Close ||
			!strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") || !strings.Contains(body, "Request Header Fields Too Large") {
			t.Fatalf("GET %.60s with %d bytes of header: status %d, close %v, Content-Type %q, body %.200q; want net/http's 431",
				c.target, c.padding, resp.StatusCode, resp.Close, resp.Header.Get("Content-Type"), body)
		}
	}
}

// A body whose object repeats a key, exactly or in another case, is refused before any
// handler runs: encoding/json would take the last ({"amount":10,"Amount":20} is R$ 20), a
// gateway or a log reading the first another request.
func TestEdgeRefusesRepeatedKeys(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "edge-keys").APIKey
	env.Recipient(t, key)
	refused := func(body string, parts ...string) {
		t.Helper()
		m := env.Do(t, "POST", "/payments/requests", key, body).WantError(http.StatusBadRequest, model.CodeMalformedJSON.String())
		wantMessage(t, m, parts...)
	}
	refused(`{"amount":10,"Amount":20,"isSandbox":true}`, `"amount"`, `"Amount"`, "differ only in case")
	refused(`{"amount":10,"amount":20,"isSandbox":true}`, `repeats the key "amount"`)
	refused(`{"amount":10,"isSandbox":true,"callbackUrls":{"success":"https://a.example/ok","SUCCESS":"https://b.example/ok"}}`, `"success"`, `"SUCCESS"`)
	refused(`{"\u0061mount":10,"amount":20,"isSandbox":true}`, `repeats the key "amount"`)
	// A body long enough to take the edge's full walk, not only its quick look.
	refused(`{"description":"`+strings.Repeat("d", 300)+`","amount":10,"isSandbox":true,"AMOUNT":20}`, `"amount"`, `"AMOUNT"`)
	var page struct {
		Total int `json:"total"`
	}
	env.Do(t, "GET", "/payments/requests", key, nil).Want(http.StatusOK).JSON(&page)
	if page.Total != 0 {
		t.Fatalf("%d payment requests exist after refused bodies", page.Total)
	}
	// The same key in different objects, and keys that only share a prefix, are fine.
	env.Do(t, "POST", "/payments/requests", key, `{"amount":10,"isSandbox":true,"description":"x","callbackUrls":{"success":"https://a.example/ok","error":"https://a.example/err"}}`).
		Want(http.StatusOK)
}

// /graphql refuses a body that repeats a key anywhere, variables included: with two
// "query" keys it would run the second, a mutation, where a reader of the first sees a query.
func TestGraphQLRefusesRepeatedKeys(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "graphql-keys").APIKey
	create := `mutation { createPaymentCustomer(input: {type: \"INDIVIDUAL\", name: \"Ana\", cpf: \"` + happyCPF + `\"}) { id } }`
	for _, body := range []string{
		`{"query":"{ connectors { total } }","query":"` + create + `"}`,
		`{"query":"{ connectors { total } }","Query":"` + create + `"}`,
		`{"query":"query($n: String) { connectors(filter: {name: $n}) { total } }","variables":{"n":"Ponte","N":"x"}}`,
		`{"query":"{ connectors { total } }","extensions":{"a":{"b":1,"b":2}}}`,
	} {
		r := env.Do(t, "POST", "/graphql", key, body)
		var out testsupport.GraphQLResult
		r.JSON(&out)
		if r.Status != http.StatusBadRequest || out.Data != nil {
			t.Fatalf("%s: status %d, data %v; want 400 and no data", body, r.Status, out.Data)
		}
		out.WantCode(t, model.CodeMalformedJSON.String())
		if !strings.Contains(out.Errors[0].Message, "key") {
			t.Errorf("%s: message %q does not name the key", body, out.Errors[0].Message)
		}
	}
	var customers struct {
		Total int `json:"total"`
	}
	env.Do(t, "GET", "/payments/customers", key, nil).Want(http.StatusOK).JSON(&customers)
	if customers.Total != 0 {
		t.Fatalf("the mutation after a repeated query key ran: %d customers", customers.Total)
	}
	// GET reads its variables from the query string, by the same rule.
	q := url.Values{"query": {"query($n: String) { connectors(filter: {name: $n}) { total } }"}, "variables": {`{"n":"a","n":"b"}`}}
	r := env.Do(t, "GET", "/graphql?"+q.Encode(), key, nil)
	var out testsupport.GraphQLResult
	r.JSON(&out)
	if r.Status != http.StatusBadRequest {
		t.Fatalf("GET with repeated variables: status %d %s", r.Status, r.Body)
	}
	out.WantCode(t, model.CodeMalformedJSON.String())
	env.GraphQL(t, key, `query($n: String) { connectors(filter: {name: $n}) { total } }`, map[string]any{"n": "Ponte"}).OK(t)
}
