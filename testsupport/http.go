package testsupport

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// Client is one client application of a test service, with its keys and an API key.
type Client struct {
	ID, Secret string
	APIKey     string
}

// NewClient creates a client application and authenticates it through POST /auth.
func (e *Env) NewClient(t testing.TB, name string) *Client {
	t.Helper()
	app, secret, err := e.Auth.NewClient(context.Background(), name)
	if err != nil {
		t.Fatalf("create client: %v", err)
	}
	c := &Client{ID: app.ID.String(), Secret: secret}
	r := e.Do(t, "POST", "/auth", "", map[string]any{"clientId": c.ID, "clientSecret": c.Secret})
	r.Want(http.StatusOK)
	c.APIKey = r.String("apiKey")
	return c
}

// Response is a finished HTTP exchange.
type Response struct {
	t      testing.TB
	Status int
	Header http.Header
	Body   []byte
}

// Do sends a request with X-API-KEY key (when not empty). body may be nil, a string or []byte
// (sent verbatim), or any value (sent as JSON).
func (e *Env) Do(t testing.TB, method, path, key string, body any) *Response {
	t.Helper()
	return e.DoHeaders(t, method, path, key, body, nil)
}

// DoHeaders is Do with extra request headers.
func (e *Env) DoHeaders(t testing.TB, method, path, key string, body any, headers map[string]string) *Response {
	t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	case []byte:
		r = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			t.Fatalf("encode body: %v", err)
		}
		r = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, e.URL+path, r)
	if err != nil {
		t.Fatalf("new request: %v", err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("X-API-KEY", key)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read %s %s: %v", method, path, err)
	}
	return &Response{t: t, Status: resp.StatusCode, Header: resp.Header, Body: b}
}

// Want fails the test unless the status is status.
func (r *Response) Want(status int) *Response {
	r.t.Helper()
	if r.Status != status {
		r.t.Fatalf("status %d, want %d; body: %s", r.Status, status, r.Body)
	}
	return r
}

// WantError fails unless the response is the documented error body with this status and
// codeDescription.
func (r *Response) WantError(status int, codeDescription string) map[string]any {
	r.t.Helper()
	r.Want(status)
	m := r.Map()
	if got, _ := m["codeDescription"].(string); got != codeDescription {
		r.t.Fatalf("codeDescription %q, want %q; body: %s", got, codeDescription, r.Body)
	}
	if code, _ := m["code"].(float64); int(code) != status {
		r.t.Fatalf("body code %v, want %d", m["code"], status)
	}
	if msg, _ := m["message"].(string); msg == "" {
		r.t.Fatalf("error without a message: %s", r.Body)
	}
	return m
}

// Map decodes a JSON object body.
func (r *Response) Map() map[string]any {
	r.t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		r.t.Fatalf("body is not a JSON object: %v: %s", err, r.Body)
	}
	return m
}

// JSON decodes the body into v.
func (r *Response) JSON(v any) {
	r.t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		r.t.Fatalf("decode body: %v: %s", err, r.Body)
	}
}

// String reads a top-level string field.
func (r *Response) String(field string) string {
	r.t.Helper()
	s, ok := r.Map()[field].(string)
	if !ok {
		r.t.Fatalf("field %q is not a string in %s", field, r.Body)
	}
	return s
}

// GraphQLResult is a decoded GraphQL response.
type GraphQLResult struct {
	Data   map[string]any `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Path       []any          `json:"path"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
	Extensions map[string]any `json:"extensions"`
	Status     int            `json:"-"`
}

// GraphQL posts a query to /graphql.
func (e *Env) GraphQL(t testing.TB, key, query string, vars map[string]any) *GraphQLResult {
	t.Helper()
	r := e.Do(t, "POST", "/graphql", key, map[string]any{"query": query, "variables": vars})
	var out GraphQLResult
	r.JSON(&out)
	out.Status = r.Status
	return &out
}

// OK fails the test when the result has errors.
func (g *GraphQLResult) OK(t testing.TB) map[string]any {
	t.Helper()
	if len(g.Errors) > 0 {
		t.Fatalf("GraphQL errors: %+v", g.Errors)
	}
	return g.Data
}

// WantCode fails unless the first error carries extensions.codeDescription code.
func (g *GraphQLResult) WantCode(t testing.TB, code string) {
	t.Helper()
	if len(g.Errors) == 0 {
		t.Fatalf("no GraphQL error, want %s; data: %v", code, g.Data)
	}
	if got, _ := g.Errors[0].Extensions["codeDescription"].(string); got != code {
		t.Fatalf("GraphQL error codeDescription %q, want %q: %+v", got, code, g.Errors)
	}
}

var apiTimeRE = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)

// IsAPITime reports a date in the API's form: UTC with three decimals and Z.
func IsAPITime(v any) bool {
	s, ok := v.(string)
	return ok && apiTimeRE.MatchString(s)
}
