package rest_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"ponte/model"
	"ponte/testsupport"
)

// wantMessage fails unless the error body's message holds every part.
func wantMessage(t *testing.T, m map[string]any, parts ...string) {
	t.Helper()
	msg, _ := m["message"].(string)
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("message %q does not say %q", msg, p)
		}
	}
}

// Every string a request carries, in the path, the query or anywhere in a JSON body, is
// refused with a 400 naming it when it holds a NUL byte, is not UTF-8 or is too long.
func TestEdgeRefusesBadStrings(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "edge").APIKey
	bad := func(method, path string, body any, parts ...string) {
		t.Helper()
		wantMessage(t, env.Do(t, method, path, key, body).WantError(http.StatusBadRequest, model.CodeInvalidParameter.String()), parts...)
	}
	bad("GET", "/connectors?name=%00", nil, "Query parameter name", "NUL")
	bad("GET", "/connectors?sandbox=true&name=Ponte%00Bank", nil, "Query parameter name", "NUL")
	bad("GET", "/payments/recipients/institutions?name=%ff%fe", nil, "Query parameter name", "UTF-8")
	bad("GET", "/connectors?name="+strings.Repeat("a", 8<<10+1), nil, "Query parameter name", "longer than 8192 bytes")
	bad("GET", "/connectors?na%00me=1", nil, "Query parameter name", "NUL")
	bad("GET", "/connectors?name=%zz", nil, "query string is malformed")
	bad("GET", "/categories/%00", nil, "Path segment", "NUL")
	bad("GET", "/categories/%c3%28", nil, "Path segment", "UTF-8")
	bad("GET", "/items/"+strings.Repeat("a", 257), nil, "Path segment", "longer than 256 bytes")
	bad("POST", "/payments/customers", map[string]any{"type": "INDIVIDUAL", "name": "Ana\u0000"}, "Field name", "NUL")
	bad("POST", "/connect_token", map[string]any{"options": map[string]any{"clientUserId": "u\u0000"}}, "Field options.clientUserId", "NUL")
	bad("POST", "/webhooks", map[string]any{"event": "all", "url": "https://hooks.example.com/a", "headers": map[string]any{"X-A\u0000": "b"}},
		"Field headers has a key", "NUL")
	bad("POST", "/items", map[string]any{"connectorId": 0, "products": []any{"ACCOUNTS", "\u0000"}}, "Field products[1]", "NUL")
	bad("POST", "/items", "{\"connectorId\":0,\"clientUserId\":\"\xff\"}", "not valid UTF-8")
	bad("POST", "/payments/requests", map[string]any{"amount": 10, "description": strings.Repeat("d", 16<<10+1)}, "Field description", "longer than 16384 bytes")
	deep := strings.Repeat(`{"a":`, 40) + "1" + strings.Repeat("}", 40)
	env.Do(t, "POST", "/payments/customers", key, deep).WantError(http.StatusBadRequest, model.CodeInvalidRequest.String())

	// A Connect Token whose options carry a NUL byte is never made, so no item created with
	// it can be stuck.
	env.Do(t, "POST", "/connect_token", key, `{"options":{"webhookUrl":"https://hooks.example.com/\u0000","oauthRedirectUri":"x"}}`).
		WantError(http.StatusBadRequest, model.CodeInvalidParameter.String())

	// Long values within the limits still pass: a 16 KiB string is refused by the rules of
	// its field, not by the edge.
	m := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 10, "description": strings.Repeat("d", 16<<10)}).
		WantError(http.StatusBadRequest, model.CodeInvalidParameter.String())
	wantMessage(t, m, "140 characters")
	env.Do(t, "GET", "/connectors?name=Ponte%20Bank&sandbox=true", key, nil).Want(http.StatusOK)
}

// sendRaw sends a body with a chosen Content-Type and, when chunked, no Content-Length.
func sendRaw(t *testing.T, env *testsupport.Env, method, path, key, contentType string, body io.Reader, chunked bool) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, env.URL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if chunked {
		req.ContentLength = -1
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if key != "" {
		req.Header.Set("X-API-KEY", key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func wantErrorResponse(t *testing.T, resp *http.Response, status int, code string) {
	t.Helper()
	var body model.ErrorBody
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != status || json.Unmarshal(b, &body) != nil || body.CodeDescription != code || body.Code != status || body.Message == "" {
		t.Fatalf("%s %s: status %d body %.300s, want %d %s", resp.Request.Method, resp.Request.URL.Path, resp.StatusCode, b, status, code)
	}
}

// Every route refuses a body over 1 MiB with 413, whether it reads JSON, a form or nothing,
// and whether the body announces its length or not.
func TestEdgeBodyLimit(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "edge-body").APIKey
	big := `{"description":"` + strings.Repeat("x", 1<<20) + `"}`
	id := "00000000-0000-4000-8000-000000000000"
	for _, r := range []struct{ method, path, ct string }{
		{"POST", "/payments/requests", "application/json"},
		{"PATCH", "/payments/customers/" + id, "application/json"},
		{"GET", "/connectors", "application/json"},
		{"DELETE", "/webhooks/" + id, "application/json"},
		{"POST", "/payments/consent/" + id, "application/x-www-form-urlencoded"},
		{"POST", "/sandbox/authorize/" + id, "application/x-www-form-urlencoded"},
		{"POST", "/webhooks/signing-secret/rotate", "text/plain"},
	} {
		for _, chunked := range []bool{false, true} {
			wantErrorResponse(t, sendRaw(t, env, r.method, r.path, key, r.ct, strings.NewReader(big), chunked), http.StatusRequestEntityTooLarge, model.CodeBodyTooLarge.String())
		}
	}
	// Exactly the limit is read.
	exact := `{"description":"` + strings.Repeat("x", 1<<20-len(`{"description":""}`)) + `"}`
	wantErrorResponse(t, sendRaw(t, env, "POST", "/payments/requests", key, "application/json", strings.NewReader(exact), false),
		http.StatusBadRequest, model.CodeInvalidParameter.String())
	// A body shorter than its stated length (the client stops sending) is a 400, for a
	// length read into a buffer of its size and for one read as it arrives.
	for _, stated := range []int{200, 100 << 10} {
		conn, err := net.Dial("tcp", strings.TrimPrefix(env.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "POST /payments/requests HTTP/1.1\r\nHost: x\r\nX-API-KEY: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{\"amount\": 10", key, stated)
		_ = conn.(*net.TCPConn).CloseWrite()
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("stated %d: %v", stated, err)
		}
		wantErrorResponse(t, resp, http.StatusBadRequest, model.CodeInvalidRequest.String())
		conn.Close()
	}
}

// A JSON endpoint reads JSON only: another Content-Type is a 415. The service's HTML forms
// stay form posts, and a request without a body needs no Content-Type.
func TestEdgeContentType(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "edge-ct").APIKey
	customer := `{"type":"INDIVIDUAL","name":"Ana","cpf":"11144477735"}`
	for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "", "application/json; charset=iso-8859-1", "text/json", "application/jsonx"} {
		wantErrorResponse(t, sendRaw(t, env, "POST", "/payments/customers", key, ct, strings.NewReader(customer), false),
			http.StatusUnsupportedMediaType, model.CodeUnsupportedMediaType.String())
	}
	for _, ct := range []string{"application/json", "application/json; charset=utf-8", "Application/JSON; charset=UTF-8", "application/vnd.ponte+json"} {
		if resp := sendRaw(t, env, "POST", "/payments/customers", key, ct, strings.NewReader(customer), false); resp.StatusCode != http.StatusOK {
			b, _ := io.ReadAll(resp.Body)
			t.Fatalf("Content-Type %q: status %d %s", ct, resp.StatusCode, b)
		}
	}
	// No body, no Content-Type needed.
	if resp := sendRaw(t, env, "POST", "/webhooks/signing-secret/rotate", key, "", nil, false); resp.StatusCode != http.StatusOK {
		t.Fatalf("rotate without a body: %d", resp.StatusCode)
	}
	// The consent page is a form: JSON there is a 415, a form post reaches the page.
	id := "00000000-0000-4000-8000-000000000000"
	wantErrorResponse(t, sendRaw(t, env, "POST", "/payments/consent/"+id, "", "application/json", strings.NewReader(`{"decision":"reject"}`), false),
		http.StatusUnsupportedMediaType, model.CodeUnsupportedMediaType.String())
	if resp := sendRaw(t, env, "POST", "/payments/consent/"+id, "", "application/x-www-form-urlencoded", strings.NewReader("decision=reject"), false); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("consent form post on an unknown intent: %d", resp.StatusCode)
	}
	wantErrorResponse(t, sendRaw(t, env, "POST", "/payments/consent/"+id, "", "application/x-www-form-urlencoded", strings.NewReader("decision=re%00ject"), false),
		http.StatusBadRequest, model.CodeInvalidParameter.String())
}

// Page numbers beyond what an offset can hold are a 400 on every page-number list; ids
// beyond the database's integers are not found.
func TestEdgeNumbers(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "edge-numbers")
	key := c.APIKey
	env.Exec(t, `UPDATE client_applications SET items_v2_enabled = true WHERE id = $1`, c.ID)
	for _, path := range []string{"/connectors?page=9223372036854775807", "/connectors?page=10000001", "/categories?page=9223372036854775807",
		"/payments/requests?page=9223372036854775807", "/webhooks?page=9223372036854775807&pageSize=500"} {
		wantMessage(t, env.Do(t, "GET", path, key, nil).WantError(http.StatusBadRequest, model.CodeInvalidParameter.String()), "page must be between 1 and 10000000")
	}
	env.Do(t, "GET", "/connectors?page=99999999999999999999", key, nil).WantError(http.StatusBadRequest, model.CodeInvalidParameter.String())
	var page struct {
		Page    int   `json:"page"`
		Results []any `json:"results"`
	}
	env.Do(t, "GET", "/connectors?page=10000000", key, nil).Want(http.StatusOK).JSON(&page)
	if page.Page != 10000000 || len(page.Results) != 0 {
		t.Fatalf("the last page allowed: page %d with %d results", page.Page, len(page.Results))
	}
	env.Do(t, "GET", "/connectors/99999999999", key, nil).WantError(http.StatusNotFound, model.CodeConnectorNotFound.String())
	env.Do(t, "GET", "/connectors/-2147483649", key, nil).WantError(http.StatusNotFound, model.CodeConnectorNotFound.String())
	env.Do(t, "POST", "/connectors/99999999999/validate", key, map[string]any{}).WantError(http.StatusNotFound, model.CodeConnectorNotFound.String())
	env.Do(t, "POST", "/items", key, `{"connectorId":99999999999,"parameters":{}}`).WantError(http.StatusNotFound, model.CodeConnectorNotFound.String())
	env.Do(t, "POST", "/items", key, `{"connectorId":1e12,"parameters":{}}`).WantError(http.StatusBadRequest, model.CodeInvalidParameter.String())
	env.Do(t, "POST", "/items", key, `{"connectorId":99999999999999999999,"parameters":{}}`).WantError(http.StatusBadRequest, model.CodeInvalidParameter.String())
	env.Do(t, "GET", "/v2/items?connectorId=99999999999", key, nil).Want(http.StatusOK)
	env.Recipient(t, key)
	req := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 1, "isSandbox": true}).Want(http.StatusOK).String("id")
	env.Do(t, "POST", "/payments/intents", key, `{"paymentRequestId":"`+req+`","connectorId":99999999999,"parameters":{"cpf":"11144477735"}}`).
		WantError(http.StatusNotFound, model.CodeConnectorNotFound.String())
	if r := env.Form(t, "/payments/pay/"+req, url.Values{"connectorId": {"99999999999"}, "cpf": {happyCPF}}); r.Status < 400 || r.Status >= 500 {
		t.Fatalf("payment page with connector 99999999999: %d", r.Status)
	}
}
