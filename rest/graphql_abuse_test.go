package rest_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"ponte/model"
	"ponte/testsupport"
)

// Attack queries of issue 12, refused before gqlparser validates them.
func repeatedFields(n int) string { return "{" + strings.Repeat("__typename ", n) + "}" }

func aliasFlood(n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		fmt.Fprintf(&b, "a%d: __typename ", i)
	}
	return b.String() + "}"
}

// fragmentFanOut is F_i = { ...F_(i-1) ...F_(i-1) }: 2^n selections in n fragments.
func fragmentFanOut(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "{ ...F%d }\nfragment F0 on Query { __typename }\n", n)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "fragment F%d on Query { ...F%d ...F%d }\n", i, i-1, i-1)
	}
	return b.String()
}

// graphiqlIntrospection is the query GraphiQL sends on start, every option on.
const graphiqlIntrospection = `query IntrospectionQuery { __schema { description queryType { name } mutationType { name } subscriptionType { name }
	types { ...FullType } directives { name description isRepeatable locations args(includeDeprecated: true) { ...InputValue } } } }
fragment FullType on __Type { kind name description specifiedByURL isOneOf
	fields(includeDeprecated: true) { name description args(includeDeprecated: true) { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
	inputFields(includeDeprecated: true) { ...InputValue } interfaces { ...TypeRef }
	enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason } possibleTypes { ...TypeRef } }
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue isDeprecated deprecationReason }
fragment TypeRef on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name
	ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } } } }`

// wantRefused checks a GraphQL error response: the HTTP status, the first error's
// codeDescription and extensions.code, and no data.
func wantRefused(t *testing.T, r *testsupport.Response, status int, code string) *testsupport.GraphQLResult {
	t.Helper()
	var g testsupport.GraphQLResult
	r.JSON(&g)
	if r.Status != status || len(g.Errors) == 0 || g.Data != nil {
		t.Fatalf("status %d, want %d, with errors and no data: %.500s", r.Status, status, r.Body)
	}
	ext := g.Errors[0].Extensions
	if ext["codeDescription"] != code {
		t.Fatalf("codeDescription %v, want %s: %.500s", ext["codeDescription"], code, r.Body)
	}
	if code != "INVALID_REQUEST" && ext["code"] != float64(status) {
		t.Fatalf("extensions.code %v, want %d", ext["code"], status)
	}
	return &g
}

func postQuery(t *testing.T, env *testsupport.Env, key, query string, vars map[string]any) *testsupport.Response {
	t.Helper()
	return env.Do(t, "POST", "/graphql", key, map[string]any{"query": query, "variables": vars})
}

func TestGraphQLAbuse(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "graphql-abuse").APIKey

	refusals := []struct {
		name, query string
		status      int
		code        string
	}{
		{"20,000 repeated fields (220 KB), over the token limit", repeatedFields(20_000), 400, "QUERY_TOO_COMPLEX"},
		{"1,000 repeated fields, few tokens, many pairs to compare", repeatedFields(1_000), 400, "QUERY_TOO_COMPLEX"},
		{"an alias flood", aliasFlood(3_000), 400, "QUERY_TOO_COMPLEX"},
		{"24 nested fragments fan out to 2^24 fields", fragmentFanOut(24), 400, "QUERY_TOO_COMPLEX"},
		{"the same fan-out, unused, still costs validation", "{ __typename } " + strings.TrimPrefix(fragmentFanOut(24), "{ ...F24 }"), 400, "QUERY_TOO_COMPLEX"},
		{"a fragment cycle", "{ ...A } fragment A on Query { __typename ...B } fragment B on Query { ...A }", 422, "INVALID_REQUEST"},
		{"a fragment spreading itself", "{ ...A } fragment A on Query { ...A }", 422, "INVALID_REQUEST"},
		{"introspection nested without end", `{ __type(name: "Query") ` + strings.Repeat("{ ofType ", 60) + "{ name }" + strings.Repeat(" }", 60) + " }", 400, "QUERY_TOO_DEEP"},
		{"deep through fragments", `{ itemConnection { edges { node { accounts { edges { node { transactions { edges { node { ...P } } } } } } } } } }
			fragment P on Transaction { paymentData { payer { documentNumber { type } } } }`, 400, "QUERY_TOO_DEEP"},
		{"a query that does not parse", "{ connectors { total ", 422, "INVALID_REQUEST"},
	}
	for _, c := range refusals {
		t.Run(c.name, func(t *testing.T) {
			for _, k := range []string{"", key} {
				g := wantRefused(t, postQuery(t, env, k, c.query, nil), c.status, c.code)
				if c.code == "QUERY_TOO_COMPLEX" || c.code == "QUERY_TOO_DEEP" {
					if !strings.Contains(g.Errors[0].Message, "limit") {
						t.Fatalf("the message does not name the limit: %s", g.Errors[0].Message)
					}
				}
			}
		})
	}

	t.Run("a cycle is named", func(t *testing.T) {
		g := wantRefused(t, postQuery(t, env, "", "{ ...A } fragment A on Query { ...A }", nil), 422, "INVALID_REQUEST")
		if !strings.Contains(g.Errors[0].Message, "cycle") {
			t.Fatalf("message %q", g.Errors[0].Message)
		}
	})

	t.Run("without a credential only introspection runs", func(t *testing.T) {
		d := postQuery(t, env, "", graphiqlIntrospection, nil).Want(200)
		var g testsupport.GraphQLResult
		d.JSON(&g)
		if len(g.Errors) > 0 || !strings.Contains(string(d.Body), `"name":"Connector"`) {
			t.Fatalf("introspection without a key: %.500s", d.Body)
		}
		postQuery(t, env, "", `{ __typename __type(name: "Item") { name } }`, nil).Want(200)
		for _, q := range []string{`{ connectors { total } }`, `{ __typename connectors { total } }`,
			`{ ...F } fragment F on Query { __typename categories { total } }`, `mutation { createConnectToken { accessToken } }`,
			`query A { __typename } query B { connectors { total } }`} {
			g := wantRefused(t, postQuery(t, env, "", q, nil), 401, "API_KEY_MISSING")
			if g.Errors[0].Message != "Missing credential: send an API Key (from POST /auth) or a Connect Token in the X-API-KEY header." {
				t.Fatalf("message %q", g.Errors[0].Message)
			}
		}
		wantRefused(t, postQuery(t, env, "not-a-key", `{ connectors { total } }`, nil), 401, "API_KEY_INVALID")
		// Introspection is bounded too: three dumps of every type are refused without a key.
		fragments := graphiqlIntrospection[strings.Index(graphiqlIntrospection, "fragment FullType"):]
		three := "{ a: __schema { types { ...FullType } } b: __schema { types { ...FullType } } c: __schema { types { ...FullType } } } " + fragments
		wantRefused(t, postQuery(t, env, "", three, nil), 400, "QUERY_TOO_COMPLEX")
		env.GraphQL(t, key, three, nil).OK(t)
		// The operation a request names decides: B selects data.
		r := env.Do(t, "POST", "/graphql", "", map[string]any{"query": `query A { __typename } query B { connectors { total } }`, "operationName": "B"})
		wantRefused(t, r, 401, "API_KEY_MISSING")
		r = env.Do(t, "POST", "/graphql", "", map[string]any{"query": `query A { __typename } query B { connectors { total } }`, "operationName": "A"})
		r.Want(200)
	})

	t.Run("with a credential the GraphiQL query and data queries run", func(t *testing.T) {
		env.GraphQL(t, key, graphiqlIntrospection, nil).OK(t)
		env.GraphQL(t, key, `{ connectors(filter: {sandbox: true}) { total } ...F } fragment F on Query { categories { total } }`, nil).OK(t)
	})

	t.Run("NUL and invalid UTF-8 never reach the database", func(t *testing.T) {
		cases := []struct {
			name string
			body map[string]any
		}{
			{"in a variable", map[string]any{"query": `query($f: ConnectorFilter) { connectors(filter: $f) { total } }`, "variables": map[string]any{"f": map[string]any{"name": "Ponte\x00Bank"}}}},
			{"in a list variable", map[string]any{"query": `query($f: ConnectorFilter) { connectors(filter: $f) { total } }`, "variables": map[string]any{"f": map[string]any{"countries": []any{"BR", "B\x00R"}}}}},
			{"in a string literal", map[string]any{"query": `{ connectors(filter: {name: "Ponte\u0000Bank"}) { total } }`}},
			{"in a block string", map[string]any{"query": "{ category(id: \"\"\"09\x00\"\"\") { id } }"}},
			{"in the operation name", map[string]any{"query": `query Q { __typename }`, "operationName": "Q\x00"}},
		}
		for _, c := range cases {
			for _, k := range []string{key, ""} {
				r := env.Do(t, "POST", "/graphql", k, c.body)
				wantRefused(t, r, 400, "INVALID_PARAMETER")
				if bytes.Contains(r.Body, []byte("SQLSTATE")) || bytes.Contains(r.Body, []byte("syntax")) {
					t.Fatalf("%s: database text reached the client: %s", c.name, r.Body)
				}
			}
		}
		// A query string is not decoded as JSON, so it can carry bytes that are not UTF-8.
		r := env.Do(t, "GET", "/graphql?query="+url.QueryEscape(`{ category(id: "09`+"\xff"+`") { id } }`), key, nil)
		wantRefused(t, r, 400, "INVALID_PARAMETER")
	})

	t.Run("bodies", func(t *testing.T) {
		r := env.DoHeaders(t, "POST", "/graphql", key, `{"query":"{ __typename }"}`, map[string]string{"Content-Type": "text/plain"})
		r.WantError(http.StatusUnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE")
		r = env.DoHeaders(t, "POST", "/graphql", key, `query=%7B__typename%7D`, map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
		r.WantError(http.StatusUnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE")
		r = env.DoHeaders(t, "POST", "/graphql", key, `{"query":"{ __typename }"}`, map[string]string{"Content-Type": "application/json; charset=utf-8"})
		r.Want(200)
		// Just under the limit is read; whitespace pads the JSON.
		under := `{"query":"{ __typename }"}` + strings.Repeat(" ", 1<<20-len(`{"query":"{ __typename }"}`))
		env.Do(t, "POST", "/graphql", "", under).Want(200)
		env.Do(t, "POST", "/graphql", "", under+" ").WantError(http.StatusRequestEntityTooLarge, "BODY_TOO_LARGE")
	})

	t.Run("a 10 MiB body is refused without a key", func(t *testing.T) {
		for _, chunked := range []bool{false, true} {
			status, body := rawPost(t, env.URL, "/graphql", 10<<20, chunked)
			var e struct {
				Code            int    `json:"code"`
				CodeDescription string `json:"codeDescription"`
				Message         string `json:"message"`
			}
			if err := json.Unmarshal(body, &e); err != nil || status != 413 || e.Code != 413 || e.CodeDescription != "BODY_TOO_LARGE" || e.Message == "" {
				t.Fatalf("chunked %v: %d %s", chunked, status, body)
			}
		}
	})

	t.Run("GET", func(t *testing.T) {
		r := env.Do(t, "GET", "/graphql?query="+url.QueryEscape(`{ category(id: "09000000") { id } }`), key, nil).Want(200)
		if !strings.Contains(string(r.Body), `"id":"09000000"`) {
			t.Fatalf("%s", r.Body)
		}
		r = env.Do(t, "GET", "/graphql?query="+url.QueryEscape(`mutation { createConnectToken { accessToken } }`), key, nil)
		wantRefused(t, r, http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED")
		// Over the query string's 64 KiB: 413. Far over, the request line breaks the HTTP
		// server's header limit first, and net/http answers 431 (TestHeaderLimit).
		r = env.Do(t, "GET", "/graphql?query="+url.QueryEscape(repeatedFields(6_000)), "", nil)
		r.WantError(http.StatusRequestEntityTooLarge, "BODY_TOO_LARGE")
		wantRefused(t, env.Do(t, "GET", "/graphql?query="+url.QueryEscape(`{ connectors { total } }`), "", nil), 401, "API_KEY_MISSING")
	})

	t.Run("other methods", func(t *testing.T) {
		r := env.Do(t, "PUT", "/graphql", key, map[string]any{"query": "{ __typename }"})
		r.WantError(http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED")
		if r.Header.Get("Allow") == "" {
			t.Fatal("405 without Allow")
		}
	})
}

// rawPost sends a body of n bytes ('{"query":"' then spaces) on its own connection, reading
// the answer while it writes, as a client whose upload the server cuts short must.
func rawPost(t testing.TB, base, path string, n int, chunked bool) (int, []byte) {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// A bound on the exchange, so a server that never answers fails the test, not the run.
	_ = conn.SetDeadline(time.Now().Add(time.Minute))
	head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n", path, u.Host)
	if chunked {
		head += "Transfer-Encoding: chunked\r\n\r\n"
	} else {
		head += fmt.Sprintf("Content-Length: %d\r\n\r\n", n)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		w := bufio.NewWriterSize(conn, 64<<10)
		_, _ = w.WriteString(head)
		chunk := append([]byte(`{"query":"`), bytes.Repeat([]byte(" "), 64<<10-10)...)
		for sent := 0; sent < n; sent += len(chunk) {
			if chunked {
				_, _ = fmt.Fprintf(w, "%x\r\n", len(chunk))
			}
			if _, err := w.Write(chunk); err != nil {
				return // the server stopped reading: expected
			}
			if chunked {
				_, _ = w.WriteString("\r\n")
			}
			chunk = bytes.Repeat([]byte(" "), 64<<10)
		}
		if chunked {
			_, _ = w.WriteString("0\r\n\r\n")
		}
		_ = w.Flush()
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("read the answer: %v", err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read the answer's body: %v", err)
	}
	_ = conn.Close()
	wg.Wait()
	return resp.StatusCode, body
}

// syncBuffer collects a test service's log lines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestGraphQLInternalErrors(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	env := testsupport.New(t, func(s *testsupport.Setup) {
		s.Resolver.Log = slog.New(model.LogRequestIDs(slog.NewTextHandler(&logs, nil))) // as the service builds it
	})
	key := env.NewClient(t, "graphql-internal").APIKey
	env.GraphQL(t, key, `{ category(id: "09000000") { id } }`, nil).OK(t)
	// The resolver now meets a database error, as it would any fault of the store.
	env.Exec(t, `ALTER TABLE categories RENAME TO categories_gone`)
	r := env.Do(t, "POST", "/graphql", key, map[string]any{"query": `{ category(id: "09000000") { id } }`})
	var g testsupport.GraphQLResult
	r.JSON(&g)
	id := r.Header.Get("X-Request-Id")
	if r.Status != 200 || len(g.Errors) != 1 || id == "" {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	e := g.Errors[0]
	if e.Extensions["codeDescription"] != "INTERNAL_ERROR" || e.Extensions["code"] != float64(500) || e.Extensions["requestId"] != id ||
		!strings.Contains(e.Message, id) || fmt.Sprint(e.Path) != "[category]" {
		t.Fatalf("error %+v (request id %s)", e, id)
	}
	for _, leak := range []string{"SQLSTATE", "categories", "relation", "ERROR:"} {
		if bytes.Contains(r.Body, []byte(leak)) {
			t.Fatalf("the answer shows %q: %s", leak, r.Body)
		}
	}
	var logged bool
	for _, line := range strings.Split(logs.String(), "\n") {
		if strings.Contains(line, "requestId="+id) && strings.Contains(line, "SQLSTATE 42P01") {
			logged = true
		}
	}
	if !logged {
		t.Fatalf("the cause is not logged with request id %s:\n%s", id, logs.String())
	}
}
