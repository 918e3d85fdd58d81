package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"ponte/model"
	"ponte/testsupport"
)

// withKey sends a request carrying Idempotency-Key key.
func withKey(t *testing.T, env *testsupport.Env, method, path, apiKey, key string, body any) *testsupport.Response {
	t.Helper()
	return env.DoHeaders(t, method, path, apiKey, body, map[string]string{"Idempotency-Key": key})
}

// rawKeys posts body with the Idempotency-Key header values exactly as given (several, or
// empty), which DoHeaders cannot express.
func rawKeys(t *testing.T, env *testsupport.Env, path, apiKey string, values []string, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest("POST", env.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-API-KEY", apiKey)
	req.Header["Idempotency-Key"] = values
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return resp.StatusCode, m
}

// total reads the total of a page envelope.
func total(t *testing.T, env *testsupport.Env, apiKey, path string) int {
	t.Helper()
	n, ok := env.Do(t, "GET", path, apiKey, nil).Want(200).Map()["total"].(float64)
	if !ok {
		t.Fatalf("GET %s has no total", path)
	}
	return int(n)
}

func wantReplay(t *testing.T, first, again *testsupport.Response) {
	t.Helper()
	if again.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("second answer not marked as replayed: %v %s", again.Header, again.Body)
	}
	if again.Status != first.Status || !bytes.Equal(again.Body, first.Body) || again.Header.Get("Content-Type") != first.Header.Get("Content-Type") {
		t.Fatalf("replay differs:\nfirst  %d %s %s\nreplay %d %s %s", first.Status, first.Header.Get("Content-Type"), first.Body,
			again.Status, again.Header.Get("Content-Type"), again.Body)
	}
}

// Every creating POST replays its first answer under the same key and creates nothing more.
func TestIdempotencyReplayOnCreatingRoutes(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "idem-routes").APIKey
	env.Recipient(t, key)
	reqID := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 10, "isSandbox": true}).Want(200).String("id")

	itemCount := func() int {
		conn := env.GraphQL(t, key, `{ itemConnection { totalCount } }`, nil).OK(t)["itemConnection"].(map[string]any)
		return int(conn["totalCount"].(float64))
	}
	cases := []struct {
		name, path string
		body       map[string]any
		count      func() int
	}{
		{"customer", "/payments/customers", map[string]any{"type": "INDIVIDUAL", "name": "Ana Souza", "cpf": happyCPF},
			func() int { return total(t, env, key, "/payments/customers") }},
		{"recipient", "/payments/recipients", map[string]any{"pixKey": "loja@example.com"},
			func() int { return total(t, env, key, "/payments/recipients") }},
		{"payment request", "/payments/requests", map[string]any{"amount": 12.5, "isSandbox": true},
			func() int { return total(t, env, key, "/payments/requests") }},
		{"payment intent", "/payments/intents", map[string]any{"paymentRequestId": reqID, "connectorId": payConnector,
			"parameters": map[string]any{"cpf": happyCPF, "name": "Maria Silva"}},
			func() int { return total(t, env, key, "/payments/intents?paymentRequestId="+reqID) }},
		{"webhook", "/webhooks", map[string]any{"event": "item/created", "url": "https://hooks.example.com/idem"},
			func() int { return total(t, env, key, "/webhooks") }},
		{"item", "/items", map[string]any{"connectorId": 0, "parameters": map[string]any{"user": "user-ok", "password": "password-ok"}},
			itemCount},
		{"connect token", "/connect_token", map[string]any{"options": map[string]any{"clientUserId": "u-idem"}}, nil},
	}
	for _, c := range cases {
		before := 0
		if c.count != nil {
			before = c.count()
		}
		first := withKey(t, env, "POST", c.path, key, "route-"+c.name, c.body).Want(200)
		if first.Header.Get("Idempotent-Replayed") != "" {
			t.Fatalf("%s: first answer marked as replayed", c.name)
		}
		again := withKey(t, env, "POST", c.path, key, "route-"+c.name, c.body)
		wantReplay(t, first, again)
		if c.count != nil {
			if after := c.count(); after != before+1 {
				t.Fatalf("%s: %d resources after two posts under one key, want %d", c.name, after, before+1)
			}
		}
	}
}

// The same key with another request is refused; another application's identical key is its own.
func TestIdempotencyKeyScope(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "idem-a").APIKey
	other := env.NewClient(t, "idem-b").APIKey
	body := map[string]any{"type": "INDIVIDUAL", "name": "Ana Souza", "cpf": happyCPF}

	first := withKey(t, env, "POST", "/payments/customers", key, "order-1", body).Want(200)
	withKey(t, env, "POST", "/payments/customers", key, "order-1", map[string]any{"type": "INDIVIDUAL", "name": "Ana Lima", "cpf": happyCPF}).
		WantError(422, model.CodeIdempotencyKeyReused.String())
	withKey(t, env, "POST", "/payments/customers?x=1", key, "order-1", body).WantError(422, model.CodeIdempotencyKeyReused.String())
	withKey(t, env, "POST", "/payments/recipients", key, "order-1", body).WantError(422, model.CodeIdempotencyKeyReused.String())
	// The refusals changed nothing: the original is still what the key replays.
	wantReplay(t, first, withKey(t, env, "POST", "/payments/customers", key, "order-1", body))

	second := withKey(t, env, "POST", "/payments/customers", other, "order-1", body).Want(200)
	if second.Header.Get("Idempotent-Replayed") != "" || second.String("id") == first.String("id") {
		t.Fatalf("another application's key replayed the first one's answer: %s", second.Body)
	}
	if a, b := total(t, env, key, "/payments/customers"), total(t, env, other, "/payments/customers"); a != 1 || b != 1 {
		t.Fatalf("customers: %d and %d, want 1 each", a, b)
	}
	// Without a key every post creates.
	env.Do(t, "POST", "/payments/customers", key, body).Want(200)
	if n := total(t, env, key, "/payments/customers"); n != 2 {
		t.Fatalf("customers without a key: %d, want 2", n)
	}
}

// Two holders of Connect Tokens of one application are two callers: the same key does not
// hand one the other's item.
func TestIdempotencyConnectTokensAreSeparate(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "idem-widget").APIKey
	ids := map[string]bool{}
	// Two users, since one application's items may not share credentials: under one scope
	// the second body would be refused as another request under the same key.
	for i, user := range []string{"user-ok", "user-ok-two-checking-accounts"} {
		body := map[string]any{"connectorId": 0, "parameters": map[string]any{"user": user, "password": "password-ok"}}
		tok := env.Do(t, "POST", "/connect_token", key, map[string]any{"options": map[string]any{"clientUserId": fmt.Sprint("u-", i)}}).Want(200).String("accessToken")
		first := withKey(t, env, "POST", "/items", tok, "connect-1", body).Want(200)
		wantReplay(t, first, withKey(t, env, "POST", "/items", tok, "connect-1", body))
		ids[first.String("id")] = true
	}
	if len(ids) != 2 {
		t.Fatalf("two Connect Tokens with one key got %d items, want 2", len(ids))
	}
}

// Client errors are kept and replayed like successes; the key stays bound to that request.
func TestIdempotencyReplaysClientErrors(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "idem-4xx").APIKey
	bad := map[string]any{"type": "INDIVIDUAL", "name": "Ana", "cpf": "11144477736"}
	first := withKey(t, env, "POST", "/payments/customers", key, "bad-cpf", bad).Want(400)
	wantReplay(t, first, withKey(t, env, "POST", "/payments/customers", key, "bad-cpf", bad))
	withKey(t, env, "POST", "/payments/customers", key, "bad-cpf", map[string]any{"type": "INDIVIDUAL", "name": "Ana", "cpf": happyCPF}).
		WantError(422, model.CodeIdempotencyKeyReused.String())
	if n := total(t, env, key, "/payments/customers"); n != 0 {
		t.Fatalf("customers: %d, want 0", n)
	}
}

// Keys must be 1 to 255 printable ASCII characters, sent once; a missing credential is
// answered first.
func TestIdempotencyKeyFormat(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "idem-format").APIKey
	body := `{"type":"INDIVIDUAL","name":"Ana Souza","cpf":"` + happyCPF + `"}`
	for _, values := range [][]string{{""}, {strings.Repeat("k", 256)}, {"chave-é"}, {"a\tb"}, {"one", "two"}} {
		status, m := rawKeys(t, env, "/payments/customers", key, values, body)
		if status != 400 || m["codeDescription"] != model.CodeInvalidParameter.String() {
			t.Fatalf("key %q: %d %v, want 400 %s", values, status, m, model.CodeInvalidParameter.String())
		}
	}
	if status, m := rawKeys(t, env, "/payments/customers", "", []string{""}, body); status != 401 || m["codeDescription"] != model.CodeAPIKeyMissing.String() {
		t.Fatalf("no credential and a bad key: %d %v, want 401", status, m)
	}
	if n := total(t, env, key, "/payments/customers"); n != 0 {
		t.Fatalf("refused keys created %d customers", n)
	}
	longest := strings.Repeat("~", 255)
	if status, m := rawKeys(t, env, "/payments/customers", key, []string{longest}, body); status != 200 {
		t.Fatalf("255-character key: %d %v", status, m)
	}
	if status, _ := rawKeys(t, env, "/payments/customers", key, []string{longest}, body); status != 200 || total(t, env, key, "/payments/customers") != 1 {
		t.Fatalf("255-character key not replayed: %d", status)
	}
}

// Twenty identical requests at once under one key: one side effect, and every answer is
// that one's or a 409.
func TestIdempotencyRace(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "idem-race").APIKey
	env.Recipient(t, key)
	for _, c := range []struct {
		path string
		body map[string]any
	}{
		{"/payments/requests", map[string]any{"amount": 25.5, "description": "Pedido 7", "isSandbox": true}},
		{"/payments/customers", map[string]any{"type": "BUSINESS", "name": "Cliente SA", "cnpj": "11222333000181"}},
	} {
		const racers = 20
		results := make([]*testsupport.Response, racers)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				results[i] = withKey(t, env, "POST", c.path, key, "race-"+c.path, c.body)
			}()
		}
		close(start)
		wg.Wait()
		ids := map[string]bool{}
		for _, r := range results {
			switch r.Status {
			case 200:
				ids[r.String("id")] = true
			case 409:
				r.WantError(409, model.CodeIdempotencyKeyInUse.String())
			default:
				t.Fatalf("%s: status %d: %s", c.path, r.Status, r.Body)
			}
		}
		if len(ids) != 1 {
			t.Fatalf("%s: %d distinct ids among the answers, want 1", c.path, len(ids))
		}
		if n := total(t, env, key, c.path); n != 1 {
			t.Fatalf("%s: %d resources after the race, want 1", c.path, n)
		}
	}
}

// A server failure is not kept: the key is free for the retry.
func TestIdempotencyReleasesOnServerError(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "idem-5xx").APIKey
	// The store fails this one insert, as a lost connection would.
	env.Exec(t, `CREATE FUNCTION idem_fail() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN RAISE EXCEPTION 'injected failure'; END $$`)
	env.Exec(t, `CREATE TRIGGER idem_fail BEFORE INSERT ON payment_customers FOR EACH ROW EXECUTE FUNCTION idem_fail()`)
	body := map[string]any{"type": "BUSINESS", "name": "Falha Ltda", "cnpj": "11222333000181"}
	withKey(t, env, "POST", "/payments/customers", key, "retry-me", body).WantError(500, model.CodeInternal.String())
	env.Exec(t, `DROP TRIGGER idem_fail ON payment_customers`)
	r := withKey(t, env, "POST", "/payments/customers", key, "retry-me", body).Want(200)
	if r.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("the retry after a 500 was a replay: %s", r.Body)
	}
	wantReplay(t, r, withKey(t, env, "POST", "/payments/customers", key, "retry-me", body))
}

// A claim whose request never finished blocks duplicates with 409 until it is stale, then
// the key is taken over; an expired answer is not replayed and the purge removes it.
func TestIdempotencyStaleClaimsAndExpiry(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "idem-stale").APIKey
	body := map[string]any{"type": "INDIVIDUAL", "name": "Ana Souza", "cpf": happyCPF}
	first := withKey(t, env, "POST", "/payments/customers", key, "crash", body).Want(200)
	// As if the process had died after claiming: the claim is there, the answer is not.
	env.Exec(t, `UPDATE idempotency_keys SET status = NULL, content_type = NULL, body = NULL WHERE key = 'crash'`)
	r := withKey(t, env, "POST", "/payments/customers", key, "crash", body)
	r.WantError(409, model.CodeIdempotencyKeyInUse.String())
	if r.Header.Get("Retry-After") == "" {
		t.Fatalf("409 without Retry-After")
	}
	env.Exec(t, `UPDATE idempotency_keys SET claimed_at = now() - interval '3 minutes' WHERE key = 'crash'`)
	taken := withKey(t, env, "POST", "/payments/customers", key, "crash", body).Want(200)
	if taken.Header.Get("Idempotent-Replayed") != "" || taken.String("id") == first.String("id") {
		t.Fatalf("a stale claim was not taken over: %s", taken.Body)
	}
	wantReplay(t, taken, withKey(t, env, "POST", "/payments/customers", key, "crash", body))

	env.Exec(t, `UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = 'crash'`)
	fresh := withKey(t, env, "POST", "/payments/customers", key, "crash", body).Want(200)
	if fresh.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("an expired answer was replayed")
	}
	if n := total(t, env, key, "/payments/customers"); n != 3 {
		t.Fatalf("customers: %d, want 3", n)
	}

	withKey(t, env, "POST", "/payments/customers", key, "old", body).Want(200)
	env.Exec(t, `UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = 'old'`)
	if n, err := env.DB.PurgeIdempotencyKeys(context.Background()); err != nil || n != 1 {
		t.Fatalf("purge removed %d keys (%v), want 1", n, err)
	}
	wantReplay(t, fresh, withKey(t, env, "POST", "/payments/customers", key, "crash", body))
}

// Kept answers can carry credentials; they are sealed at rest like item credentials.
func TestIdempotencyAnswersSealedAtRest(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "idem-sealed").APIKey
	tok := withKey(t, env, "POST", "/connect_token", key, "token-1", nil).Want(200)
	wantReplay(t, tok, withKey(t, env, "POST", "/connect_token", key, "token-1", nil))
	hook := map[string]any{"event": "all", "url": "https://hooks.example.com/sealed", "headers": map[string]any{"Authorization": "Bearer idem-s3cret"}}
	created := withKey(t, env, "POST", "/webhooks", key, "hook-1", hook).Want(200)
	wantReplay(t, created, withKey(t, env, "POST", "/webhooks", key, "hook-1", hook))
	for _, secret := range []string{tok.String("accessToken"), "idem-s3cret"} {
		var rows, clear int
		err := env.DB.Pool.QueryRow(context.Background(), `SELECT count(*), count(*) FILTER (WHERE position($1::bytea IN body) > 0)
			FROM idempotency_keys`, []byte(secret)).Scan(&rows, &clear)
		if err != nil || rows != 2 || clear != 0 {
			t.Fatalf("%d kept answers, %d with a credential in clear (%v)", rows, clear, err)
		}
	}
}
