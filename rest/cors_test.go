package rest_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"ponte/model"
	"ponte/testsupport"
)

// corsOrigins is the operator's setting the CORS tests run under.
func corsOrigins(origins ...string) testsupport.Option {
	return func(s *testsupport.Setup) { s.REST.BrowserOrigins = origins }
}

// A preflight is answered only for an origin some call may come from: the operator's, or a
// live Connect Token's targetOrigin. Anything else is left to the router, which refuses
// OPTIONS without CORS headers, so the browser never sends the call.
func TestCORSPreflight(t *testing.T) {
	t.Parallel()
	const operator, target, expiring = "https://operator.example", "http://127.0.0.1:5173", "https://expiring.example"
	env := testsupport.New(t, corsOrigins(operator))
	c := env.NewClient(t, "cors")
	ask := func(path, origin string) *testsupport.Response {
		h := map[string]string{"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type,pluggy-user-agent,x-api-key"}
		if origin != "" {
			h["Origin"] = origin
		}
		return env.DoHeaders(t, "OPTIONS", path, "", nil, h)
	}
	refused := func(origin string) bool {
		r := ask("/connectors", origin)
		if r.Status >= 500 {
			t.Errorf("origin %q: %d %s", origin, r.Status, r.Body)
		}
		return r.Status != http.StatusNoContent && r.Header.Get("Access-Control-Allow-Origin") == "" &&
			r.Header.Get("Access-Control-Allow-Methods") == ""
	}
	paths := []string{"/connectors", "/connectors/0?includeHealth=true", "/items", "/items/9b1c3a58-8a5b-4e7f-9d0c-1f2e3d4c5b6a/mfa", "/accounts?itemId=x", "/connect_token"}
	allowed := func(origin string) {
		t.Helper()
		for _, path := range paths {
			r := ask(path, origin).Want(http.StatusNoContent)
			h := r.Header
			if h.Get("Access-Control-Allow-Origin") != origin || !strings.Contains(strings.Join(h.Values("Vary"), ","), "Origin") ||
				h.Get("Access-Control-Max-Age") == "" || !strings.Contains(h.Get("Access-Control-Allow-Methods"), "PATCH") {
				t.Errorf("%s from %s: %v", path, origin, h)
			}
			allowedHeaders := strings.ToLower(h.Get("Access-Control-Allow-Headers"))
			for _, want := range []string{"x-api-key", "content-type", "pluggy-user-agent"} {
				if !strings.Contains(allowedHeaders, want) {
					t.Errorf("%s: Access-Control-Allow-Headers %q lacks %s", path, allowedHeaders, want)
				}
			}
			if len(r.Body) != 0 {
				t.Errorf("%s: a 204 with a body %q", path, r.Body)
			}
		}
	}
	allowed(operator)
	// A well-formed origin nobody allowed: its page's call is never sent. Asked first, so
	// the answer "no" is remembered, and must be forgotten when a token names the origin.
	for _, origin := range []string{target, "https://app.example.com"} {
		if !refused(origin) {
			t.Errorf("%s, allowed by no one, was answered a preflight", origin)
		}
	}
	env.Do(t, "POST", "/connect_token", c.APIKey, map[string]any{"options": map[string]any{"targetOrigin": target + "/"}}).Want(200)
	allowed(target)
	if !refused("https://app.example.com") {
		t.Error("a token's origin let another origin's preflight through")
	}
	// A token naming no origin allows none.
	env.Do(t, "POST", "/connect_token", c.APIKey, nil).Want(200)
	if !refused("https://app.example.com") {
		t.Error("a token naming no origin allowed one")
	}
	// Once every token naming it expired, an origin's preflight is refused again: at once
	// for one not asked about since, within the few seconds an answer is remembered for
	// the other.
	env.Do(t, "POST", "/connect_token", c.APIKey, map[string]any{"options": map[string]any{"targetOrigin": expiring}}).Want(200)
	env.Exec(t, `UPDATE browser_origins SET expires_at = now() - interval '1 second' WHERE origin = ANY($1)`, []string{target, expiring})
	if !refused(expiring) {
		t.Error("the origin of an expired token was answered a preflight")
	}
	testsupport.Eventually(t, "the expired token's origin refused", 15*time.Second, func() bool { return refused(target) })
	// Not an origin a page can be allowed from: opaque ("null"), a path, another spelling,
	// two of them, none at all. Refused, never with CORS headers, never a 5xx.
	for _, origin := range []string{"null", "https://operator.example/page", "HTTPS://Operator.Example", "https://operator.example/", "file://", "javascript:alert(1)", ""} {
		if !refused(origin) {
			t.Errorf("origin %q was answered a preflight", origin)
		}
	}
	// An OPTIONS that is no preflight is the router's: not a method of the API.
	r := env.DoHeaders(t, "OPTIONS", "/connectors", "", nil, map[string]string{"Origin": "https://operator.example"})
	r.WantError(http.StatusMethodNotAllowed, model.CodeMethodNotAllowed.String())
	if r.Header.Get("Access-Control-Allow-Origin") != "https://operator.example" {
		t.Errorf("the operator's origin cannot read the refusal: %v", r.Header)
	}
}

// An actual call is readable by the token's own targetOrigin and the operator's origins;
// by no other origin, and never with an API key.
func TestCORSActualCalls(t *testing.T) {
	t.Parallel()
	const operator, target, other = "https://operator.example", "http://127.0.0.1:5173", "https://evil.example"
	env := testsupport.New(t, corsOrigins(operator))
	c := env.NewClient(t, "cors")
	tok := env.Do(t, "POST", "/connect_token", c.APIKey, map[string]any{"options": map[string]any{"targetOrigin": target + "/"}}).Want(200).String("accessToken")
	plain := env.Do(t, "POST", "/connect_token", c.APIKey, nil).Want(200).String("accessToken")
	call := func(method, path, key, origin string, body any) *testsupport.Response {
		return env.DoHeaders(t, method, path, key, body, map[string]string{"Origin": origin})
	}
	want := func(r *testsupport.Response, what, origin string) {
		t.Helper()
		if got := r.Header.Get("Access-Control-Allow-Origin"); got != origin {
			t.Errorf("%s: Access-Control-Allow-Origin %q, want %q", what, got, origin)
		}
		if !strings.Contains(strings.Join(r.Header.Values("Vary"), ","), "Origin") {
			t.Errorf("%s: no Vary: Origin", what)
		}
		if r.Status >= 500 {
			t.Errorf("%s: %d", what, r.Status)
		}
	}

	// The token's own origin, and the operator's, read the token's answers; another does not.
	want(call("GET", "/connectors?sandbox=true&includeHealth=false", tok, target, nil).Want(200), "token, its origin", target)
	want(call("GET", "/connectors", tok, operator, nil).Want(200), "token, operator's origin", operator)
	want(call("GET", "/connectors", tok, other, nil).Want(200), "token, another origin", "")
	want(call("GET", "/connect_token", tok, target, nil).Want(200), "session, its origin", target)
	// A token that names no origin: only the operator's.
	want(call("GET", "/connectors", plain, operator, nil).Want(200), "plain token, operator's origin", operator)
	want(call("GET", "/connectors", plain, target, nil).Want(200), "plain token, another origin", "")

	// The item the token creates, and the refusals a page must be able to read: another
	// item, an action beyond a token's reach.
	var it model.Item
	r := call("POST", "/items", tok, target, map[string]any{"connectorId": 0, "parameters": okParams}).Want(200)
	want(r, "create item", target)
	r.JSON(&it)
	env.WaitItem(t, c.APIKey, it.ID.String(), testsupport.Settled)
	want(call("GET", "/items/"+it.ID.String(), tok, target, nil).Want(200), "own item", target)
	want(call("GET", "/accounts?itemId="+it.ID.String(), tok, target, nil).Want(200), "own accounts", target)
	r = call("DELETE", "/items/"+it.ID.String(), tok, target, nil)
	r.WantError(403, model.CodeForbidden.String())
	want(r, "delete refused", target)
	r = call("GET", "/categories", tok, target, nil)
	r.WantError(403, model.CodeForbidden.String())
	want(r, "categories refused", target)

	// An API key never: not even from the operator's origins.
	for _, origin := range []string{operator, target, other} {
		want(call("GET", "/connectors", c.APIKey, origin, nil).Want(200), "API key from "+origin, "")
		want(call("GET", "/items/"+it.ID.String(), c.APIKey, origin, nil).Want(200), "API key item from "+origin, "")
	}
	// No credential or a bad one: the operator's origins read the refusal, others do not.
	r = call("GET", "/connectors", "", operator, nil)
	r.WantError(401, model.CodeAPIKeyMissing.String())
	want(r, "no credential, operator", operator)
	want(call("GET", "/connectors", "not-a-token", operator, nil), "bad credential, operator", operator)
	want(call("GET", "/connectors", "not-a-token", target, nil), "bad credential, target", "")
	// A second Origin header, or one spelt otherwise than a browser does: nothing.
	want(call("GET", "/connectors", tok, "HTTP://127.0.0.1:5173", nil).Want(200), "upper case", "")
	// No Origin (a server's call): no CORS headers at all.
	if r := env.Do(t, "GET", "/connectors", tok, nil).Want(200); r.Header.Get("Access-Control-Allow-Origin") != "" || r.Header.Get("Vary") == "Origin" {
		t.Errorf("no Origin: %v", r.Header)
	}
}

// The query parameters the browser client sends are accepted: includeHealth on both
// connector reads (either value: a connector always has its health), checked for form.
func TestConnectorsIncludeHealth(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "health")
	tok := env.Do(t, "POST", "/connect_token", c.APIKey, nil).Want(200).String("accessToken")
	for _, key := range []string{c.APIKey, tok} {
		for _, v := range []string{"true", "false"} {
			list := env.Do(t, "GET", "/connectors?sandbox=true&countries=BR&types=PERSONAL_BANK,BUSINESS_BANK&includeHealth="+v, key, nil).Want(200).Map()
			results := list["results"].([]any)
			if len(results) == 0 {
				t.Fatalf("includeHealth=%s: no connectors", v)
			}
			if _, ok := results[0].(map[string]any)["health"]; !ok {
				t.Errorf("includeHealth=%s: no health in %v", v, results[0])
			}
			one := env.Do(t, "GET", "/connectors/0?includeHealth="+v, key, nil).Want(200).Map()
			if _, ok := one["health"]; !ok {
				t.Errorf("connector 0, includeHealth=%s: no health", v)
			}
		}
	}
	env.Do(t, "GET", "/connectors?includeHealth=maybe", c.APIKey, nil).WantError(400, model.CodeInvalidParameter.String())
	env.Do(t, "GET", "/connectors/0?includeHealth=2", c.APIKey, nil).WantError(400, model.CodeInvalidParameter.String())
}

// Every query the browser client builds, in its own spelling (arrays joined by commas,
// undefined filters left out), is accepted with an API key, which every route answers.
func TestBrowserClientQueries(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "queries")
	tok := env.Do(t, "POST", "/connect_token", c.APIKey, nil).Want(200).String("accessToken")
	var it model.Item
	env.Do(t, "POST", "/items", tok, map[string]any{"connectorId": 0, "parameters": okParams}).Want(200).JSON(&it)
	id := it.ID.String()
	env.WaitItem(t, c.APIKey, id, testsupport.Settled)
	account := env.AccountIDs(t, c.APIKey, id)["CHECKING_ACCOUNT"]
	for _, path := range []string{
		"/connectors?name=Pluggy&countries=BR&types=PERSONAL_BANK,BUSINESS_BANK&sandbox=true&isOpenFinance=false&supportsPaymentInitiation=false&includeHealth=true",
		"/connectors?includeHealth=false",
		"/connectors/0?includeHealth=false",
		"/accounts?itemId=" + id,
		"/accounts?itemId=" + id + "&type=BANK",
		"/transactions?from=2020-01-01&to=2030-01-01&pageSize=10&page=1&accountId=" + account,
		"/investments?itemId=" + id,
		"/investments?itemId=" + id + "&type=FIXED_INCOME",
		"/identity?itemId=" + id,
	} {
		env.Do(t, "GET", path, c.APIKey, nil).Want(200)
	}
}
