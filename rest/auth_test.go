package rest_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/testsupport"
)

func TestAuth(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "auth tests")

	t.Run("api key is a JWT expiring in two hours", func(t *testing.T) {
		r := env.Do(t, "POST", "/auth", "", map[string]any{"clientId": c.ID, "clientSecret": c.Secret}).Want(200)
		parts := strings.Split(r.String("apiKey"), ".")
		if len(parts) != 3 {
			t.Fatalf("apiKey is not a JWT: %s", r.Body)
		}
		payload, err := base64.RawURLEncoding.DecodeString(parts[1])
		if err != nil {
			t.Fatal(err)
		}
		var claims struct {
			Exp int64 `json:"exp"`
			Sub string
		}
		if err := json.Unmarshal(payload, &claims); err != nil {
			t.Fatal(err)
		}
		if d := time.Until(time.Unix(claims.Exp, 0)); d < 119*time.Minute || d > 121*time.Minute {
			t.Fatalf("exp is %v ahead, want 2h", d)
		}
		if claims.Sub != c.ID {
			t.Fatalf("sub %q, want the client id %q", claims.Sub, c.ID)
		}
	})

	cases := []struct {
		name   string
		body   any
		status int
		code   string
	}{
		{"wrong secret", map[string]any{"clientId": c.ID, "clientSecret": "nope"}, 401, "CLIENT_KEYS_UNAUTHORIZED"},
		{"unknown client", map[string]any{"clientId": uuid.NewString(), "clientSecret": c.Secret}, 401, "CLIENT_KEYS_UNAUTHORIZED"},
		{"client id not a uuid", map[string]any{"clientId": "abc", "clientSecret": c.Secret}, 401, "CLIENT_KEYS_UNAUTHORIZED"},
		{"missing fields", map[string]any{}, 400, "INVALID_REQUEST"},
		{"malformed json", `{"clientId":`, 400, "MALFORMED_JSON"},
		{"wrong field type", `{"clientId": 12, "clientSecret": "x"}`, 400, "INVALID_PARAMETER"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env.Do(t, "POST", "/auth", "", tc.body).WantError(tc.status, tc.code)
		})
	}

	// A secret that matched is remembered (no second hash); a changed secret must end that.
	t.Run("a changed secret refuses the old one", func(t *testing.T) {
		body := map[string]any{"clientId": c.ID, "clientSecret": c.Secret}
		env.Do(t, "POST", "/auth", "", body).Want(200)
		env.Do(t, "POST", "/auth", "", body).Want(200)
		newSecret := "a-new-secret-for-the-auth-tests"
		if _, err := env.Auth.EnsureClient(context.Background(), c.ID, newSecret); err != nil {
			t.Fatal(err)
		}
		env.Do(t, "POST", "/auth", "", body).WantError(401, "CLIENT_KEYS_UNAUTHORIZED")
		env.Do(t, "POST", "/auth", "", map[string]any{"clientId": c.ID, "clientSecret": newSecret}).Want(200)
		env.Do(t, "POST", "/auth", "", body).WantError(401, "CLIENT_KEYS_UNAUTHORIZED")
	})
}

func TestCredentialChecks(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "credential checks")

	past := env.Auth.WithClock(func() time.Time { return time.Now().Add(-3 * time.Hour) })
	old, err := past.Authenticate(context.Background(), c.ID, c.Secret)
	if err != nil {
		t.Fatal(err)
	}
	forged := c.APIKey[:len(c.APIKey)-4] + "AAAA"
	if forged == c.APIKey {
		forged = c.APIKey[:len(c.APIKey)-4] + "BBBB"
	}
	cases := []struct {
		name, key string
		status    int
		code      string
	}{
		{"missing credential", "", 401, "API_KEY_MISSING"},
		{"garbage", "not-a-token", 401, "API_KEY_INVALID"},
		{"forged signature", forged, 401, "API_KEY_INVALID"},
		{"expired key", old.APIKey, 401, "API_KEY_EXPIRED"},
	}
	for _, tc := range cases {
		for _, path := range []string{"/connectors", "/categories", "/connectors/0"} {
			t.Run(tc.name+" "+path, func(t *testing.T) {
				env.Do(t, "GET", path, tc.key, nil).WantError(tc.status, tc.code)
			})
		}
	}
	t.Run("valid key", func(t *testing.T) {
		env.Do(t, "GET", "/connectors", c.APIKey, nil).Want(200)
	})
	t.Run("health probes need no credential", func(t *testing.T) {
		env.Do(t, "GET", "/healthz", "", nil).Want(200)
		if r := env.Do(t, "GET", "/readyz", "", nil).Want(200); r.String("status") != "ready" {
			t.Fatalf("readyz: %s", r.Body)
		}
	})
}

func TestDisabledClient(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "to be disabled")
	env.Exec(t, `UPDATE client_applications SET enabled = false WHERE id = $1`, c.ID)
	env.Auth.ForgetClient(uuid.MustParse(c.ID))

	env.Do(t, "POST", "/auth", "", map[string]any{"clientId": c.ID, "clientSecret": c.Secret}).WantError(401, "CLIENT_DISABLED")
	// A key issued before the client was disabled stops working too.
	env.Do(t, "GET", "/connectors", c.APIKey, nil).WantError(401, "CLIENT_DISABLED")
}

func TestConnectToken(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "connect tokens")

	t.Run("issued with options, 200, valid 30 minutes", func(t *testing.T) {
		r := env.Do(t, "POST", "/connect_token", c.APIKey, map[string]any{
			"clientUserId": "root-is-ignored",
			"unknownField": true,
			"options":      map[string]any{"clientUserId": "user-1", "avoidDuplicates": true, "webhookUrl": "https://example.com/hook"},
		}).Want(200)
		tok := r.String("accessToken")
		payload, _ := base64.RawURLEncoding.DecodeString(strings.Split(tok, ".")[1])
		var claims struct{ Exp int64 }
		_ = json.Unmarshal(payload, &claims)
		if d := time.Until(time.Unix(claims.Exp, 0)); d < 29*time.Minute || d > 31*time.Minute {
			t.Fatalf("connect token lives %v, want 30m", d)
		}
		var opts string
		if err := env.DB.Pool.QueryRow(context.Background(), `SELECT options::text FROM connect_tokens WHERE client_id = $1`, c.ID).Scan(&opts); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(opts, "root-is-ignored") || !strings.Contains(opts, "user-1") {
			t.Fatalf("stored options %s: root clientUserId must be dropped, options kept", opts)
		}
	})
	t.Run("empty body", func(t *testing.T) {
		env.Do(t, "POST", "/connect_token", c.APIKey, nil).Want(200)
	})
	t.Run("unknown item", func(t *testing.T) {
		env.Do(t, "POST", "/connect_token", c.APIKey, map[string]any{"itemId": uuid.NewString()}).WantError(404, "ITEM_NOT_FOUND")
	})
	t.Run("malformed item id", func(t *testing.T) {
		env.Do(t, "POST", "/connect_token", c.APIKey, map[string]any{"itemId": "123"}).WantError(400, "INVALID_PARAMETER")
	})
	t.Run("bad webhook url", func(t *testing.T) {
		env.Do(t, "POST", "/connect_token", c.APIKey, map[string]any{"options": map[string]any{"webhookUrl": "not a url"}}).WantError(400, "INVALID_PARAMETER")
	})
	t.Run("without credential", func(t *testing.T) {
		env.Do(t, "POST", "/connect_token", "", nil).WantError(401, "API_KEY_MISSING")
	})
	t.Run("another client's item is not found", func(t *testing.T) {
		other := env.NewClient(t, "other")
		itemID := uuid.NewString()
		env.Exec(t, `INSERT INTO items (id, client_id, connector_id) VALUES ($1, $2, 0)`, itemID, other.ID)
		env.Do(t, "POST", "/connect_token", other.APIKey, map[string]any{"itemId": itemID}).Want(200)
		env.Do(t, "POST", "/connect_token", c.APIKey, map[string]any{"itemId": itemID}).WantError(404, "ITEM_NOT_FOUND")
	})
}

func TestConnectTokenReach(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "reach")
	tok := env.Do(t, "POST", "/connect_token", c.APIKey, nil).Want(200).String("accessToken")

	allowed := []struct{ method, path string }{
		{"GET", "/connectors"},
		{"GET", "/connectors/0"},
	}
	for _, a := range allowed {
		t.Run("allowed "+a.path, func(t *testing.T) { env.Do(t, a.method, a.path, tok, nil).Want(200) })
	}
	t.Run("allowed validate", func(t *testing.T) {
		env.Do(t, "POST", "/connectors/0/validate", tok, map[string]any{"user": "user-ok", "password": "password-ok"}).Want(200)
	})
	refused := []struct {
		method, path string
		body         any
	}{
		{"GET", "/categories", nil},
		{"GET", "/categories/01000000", nil},
		{"POST", "/connect_token", map[string]any{}},
	}
	for _, rf := range refused {
		t.Run("refused "+rf.method+" "+rf.path, func(t *testing.T) {
			env.Do(t, rf.method, rf.path, tok, rf.body).WantError(http.StatusForbidden, "FORBIDDEN")
		})
	}
	t.Run("graphql refuses too", func(t *testing.T) {
		g := env.GraphQL(t, tok, `{ categories { total } }`, nil)
		g.WantCode(t, "FORBIDDEN")
		if g.Errors[0].Extensions["code"] != float64(403) {
			t.Fatalf("extensions.code %v, want 403", g.Errors[0].Extensions["code"])
		}
	})
}

func TestAuthRateLimit(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t, func(s *testsupport.Setup) { s.Resolver.Limiter = auth.NewLimiter(map[string]int{"auth": 3}) })
	body := map[string]any{"clientId": uuid.NewString(), "clientSecret": "x"}
	r := refusedAfter(t, 3, func() *testsupport.Response { return env.Do(t, "POST", "/auth", "", body) }, func(r *testsupport.Response) {
		r.Want(401)
		if r.Header.Get("RateLimit-Limit") != "3" {
			t.Fatalf("rate limit headers missing: %v", r.Header)
		}
	})
	m := r.Map()
	if m["code"] != float64(429) || m["message"] == "" || len(m) != 2 {
		t.Fatalf("429 body must carry only code and message: %s", r.Body)
	}
	if r.Header.Get("Retry-After") != "60" {
		t.Fatalf("Retry-After %q", r.Header.Get("Retry-After"))
	}
	// Other endpoints count separately.
	env.Do(t, "GET", "/connectors", "", nil).WantError(401, "API_KEY_MISSING")
}

// refusedAfter makes calls until limit of them fell in one window of the limiter, each
// checked by allowed, and returns the next one's answer, checked to be a 429. The limiter
// counts fixed one-minute windows, so calls straddling a minute's end are counted in two:
// RateLimit-Reset going up says a new window began, and the count starts again there.
func refusedAfter(t *testing.T, limit int, call func() *testsupport.Response, allowed func(*testsupport.Response)) *testsupport.Response {
	t.Helper()
	inWindow, last := 0, 61
	for i := 0; i < 2*limit+2; i++ {
		r := call()
		reset, err := strconv.Atoi(r.Header.Get("RateLimit-Reset"))
		if err != nil || reset < 1 || reset > 60 {
			t.Fatalf("RateLimit-Reset %q: %v", r.Header.Get("RateLimit-Reset"), r.Header)
		}
		if reset > last {
			inWindow = 0
		}
		last = reset
		if inWindow++; inWindow <= limit {
			allowed(r)
			continue
		}
		return r.Want(429)
	}
	t.Fatalf("no window held %d calls", limit+1)
	return nil
}

func TestItemUpdateRateLimit(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t, func(s *testsupport.Setup) { s.Resolver.Limiter = auth.NewLimiter(map[string]int{"item-update": 2}) })
	key := env.NewClient(t, "patch limit").APIKey
	id := uuid.NewString()
	r := refusedAfter(t, 2, func() *testsupport.Response { return env.Do(t, "PATCH", "/items/"+id, key, map[string]any{}) },
		func(r *testsupport.Response) { r.WantError(404, "ITEM_NOT_FOUND") })
	if r.Header.Get("RateLimit-Limit") != "2" || r.Header.Get("Retry-After") != "60" {
		t.Fatalf("headers %v", r.Header)
	}
	env.Do(t, "GET", "/items/"+id, key, nil).WantError(404, "ITEM_NOT_FOUND")
}

// The credentials' GraphQL fields are POST /auth's and GET /connect_token's: createApiKey
// takes the client keys as its credential (one exchange per operation, so aliases cannot
// multiply the secret's hash), connectSession describes a Connect Token.
func TestAuthGraphQL(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "auth graphql")
	const exchange = `mutation($id: String!, $secret: String!) { createApiKey(clientId: $id, clientSecret: $secret) { apiKey } }`
	d := env.GraphQL(t, c.APIKey, exchange, map[string]any{"id": c.ID, "secret": c.Secret}).OK(t)
	key, _ := d["createApiKey"].(map[string]any)["apiKey"].(string)
	env.Do(t, "GET", "/webhooks", key, nil).Want(200)
	env.GraphQL(t, c.APIKey, exchange, map[string]any{"id": c.ID, "secret": "nope"}).WantCode(t, "CLIENT_KEYS_UNAUTHORIZED")
	env.GraphQL(t, c.APIKey, `mutation { a: createApiKey(clientId: "x", clientSecret: "y") { apiKey } b: createApiKey(clientId: "x", clientSecret: "y") { apiKey } }`, nil).
		WantCode(t, "QUERY_TOO_COMPLEX")
	env.GraphQL(t, "", exchange, map[string]any{"id": c.ID, "secret": c.Secret}).WantCode(t, "API_KEY_MISSING")

	tok := env.Do(t, "POST", "/connect_token", c.APIKey, map[string]any{"options": map[string]any{"clientUserId": "u-1", "countries": []string{"BR"}}}).
		Want(200).String("accessToken")
	s := env.GraphQL(t, tok, `{ connectSession { itemId options { clientUserId countries webhookUrl } } }`, nil).OK(t)["connectSession"].(map[string]any)
	o := s["options"].(map[string]any)
	if s["itemId"] != nil || o["clientUserId"] != "u-1" || o["countries"].([]any)[0] != "BR" || o["webhookUrl"] != nil {
		t.Fatalf("connectSession %v", s)
	}
	env.GraphQL(t, c.APIKey, `{ connectSession { itemId } }`, nil).WantCode(t, "FORBIDDEN")
}
