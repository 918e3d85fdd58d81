package rest_test

import (
	"bytes"
	"context"
	"crypto/pbkdf2"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
	"ponte/payments"
	"ponte/sandbox/payer"
	"ponte/testsupport"
)

// get sends a GET without following redirects, through any server of the test's handler.
func get(t testing.TB, client *http.Client, base, path, key string) *http.Response {
	t.Helper()
	req, err := http.NewRequest("GET", base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("X-API-KEY", key)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	resp.Body.Close()
	return resp
}

// Every answer carries nosniff and a policy that forbids framing; HTML pages (GraphiQL, the
// sandbox institution's authorisation page, the payer's pages) keep their own policies with
// frame-ancestors 'none' in them; answers that carry credentials are never stored; HSTS is
// sent over TLS only.
func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "headers")
	env.Recipient(t, c.APIKey)
	reqID := env.Do(t, "POST", "/payments/requests", c.APIKey, map[string]any{"amount": 12.5, "isSandbox": true}).Want(200).String("id")
	var n model.PaymentIntent
	env.Do(t, "POST", "/payments/intents", c.APIKey, map[string]any{"paymentRequestId": reqID, "connectorId": payConnector,
		"parameters": map[string]any{"cpf": happyCPF}}).Want(200).JSON(&n)
	consentPath := strings.TrimPrefix(*n.ConsentURL, env.URL)

	htmlPages := []string{"/graphiql", "/graphiql/", "/sandbox/authorize/" + uuid.NewString(), "/payments/pay/" + reqID,
		"/payments/pay/" + uuid.NewString(), consentPath}
	tlsSrv := httptest.NewTLSServer(env.Server.Config.Handler)
	t.Cleanup(tlsSrv.Close)
	servers := []struct {
		name, base string
		client     *http.Client
		tls        bool
	}{{"plain", env.URL, http.DefaultClient, false}, {"tls", tlsSrv.URL, tlsSrv.Client(), true}}

	for _, srv := range servers {
		t.Run(srv.name, func(t *testing.T) {
			check := func(t *testing.T, what string, h http.Header) {
				t.Helper()
				if h.Get("X-Content-Type-Options") != "nosniff" {
					t.Errorf("%s: X-Content-Type-Options %q", what, h.Get("X-Content-Type-Options"))
				}
				if h.Get("X-Frame-Options") != "DENY" || !strings.Contains(h.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
					t.Errorf("%s: X-Frame-Options %q, Content-Security-Policy %q", what, h.Get("X-Frame-Options"), h.Get("Content-Security-Policy"))
				}
				if hsts := h.Get("Strict-Transport-Security"); srv.tls != (hsts == "max-age=31536000") {
					t.Errorf("%s over %s: Strict-Transport-Security %q", what, srv.name, hsts)
				}
			}
			for _, p := range htmlPages {
				resp := get(t, srv.client, srv.base, p, "")
				if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
					t.Fatalf("%s is not an HTML page: %d %s", p, resp.StatusCode, resp.Header.Get("Content-Type"))
				}
				check(t, "GET "+p, resp.Header)
				// The page's own policy is kept, not replaced.
				if !strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'none'") {
					t.Errorf("GET %s lost its own policy: %q", p, resp.Header.Get("Content-Security-Policy"))
				}
			}
			for _, p := range []string{"/healthz", "/connectors", "/connectors/0", "/nowhere", "/graphiql/assets/graphiql.min.js"} {
				check(t, "GET "+p, get(t, srv.client, srv.base, p, c.APIKey).Header)
			}
			check(t, "GET /connectors without a key", get(t, srv.client, srv.base, "/connectors", "").Header)
		})
	}

	// The decisions answer pages too.
	r := env.Form(t, consentPath, url.Values{"decision": {"reject"}})
	if r.Header.Get("X-Frame-Options") != "DENY" || !strings.Contains(r.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
		t.Errorf("consent decision: %v", r.Header)
	}
	r = env.Form(t, "/sandbox/authorize/"+uuid.NewString(), url.Values{"decision": {"approve"}})
	if !strings.Contains(r.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
		t.Errorf("sandbox decision: %v", r.Header)
	}

	// Answers with credentials, on both surfaces.
	credentials := map[string]*testsupport.Response{
		"POST /auth":          env.Do(t, "POST", "/auth", "", map[string]any{"clientId": c.ID, "clientSecret": c.Secret}).Want(200),
		"POST /auth refused":  env.Do(t, "POST", "/auth", "", map[string]any{"clientId": c.ID, "clientSecret": "wrong"}).Want(401),
		"POST /connect_token": env.Do(t, "POST", "/connect_token", c.APIKey, nil).Want(200),
		"GET signing secret":  env.Do(t, "GET", "/webhooks/signing-secret", c.APIKey, nil).Want(200),
		"POST /graphql":       env.Do(t, "POST", "/graphql", c.APIKey, map[string]any{"query": `mutation { createConnectToken { accessToken } }`}).Want(200),
	}
	for what, r := range credentials {
		if r.Header.Get("Cache-Control") != "no-store" || r.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: Cache-Control %q, X-Content-Type-Options %q", what, r.Header.Get("Cache-Control"), r.Header.Get("X-Content-Type-Options"))
		}
	}
	// GraphiQL's assets keep their long cache: the default gives way to a handler's choice.
	if cc := get(t, http.DefaultClient, env.URL, "/graphiql/assets/graphiql.min.js", "").Header.Get("Cache-Control"); !strings.Contains(cc, "immutable") {
		t.Errorf("asset Cache-Control %q", cc)
	}
}

// legacyHash is the form client secrets had before argon2id: PBKDF2-SHA256, 60,000 rounds.
func legacyHash(secret string) string {
	salt := []byte("0123456789abcdef")
	key, err := pbkdf2.Key(sha256.New, secret, salt, 60_000, 32)
	if err != nil {
		panic(err)
	}
	return fmt.Sprintf("pbkdf2-sha256$60000$%s$%s", base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key))
}

// A client whose secret was hashed with PBKDF2 still authenticates, and its first success
// stores an argon2id hash instead; new clients get argon2id from the start.
func TestAuthSecretHashUpgrade(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	storedHash := func(id string) string {
		var h string
		if err := env.DB.Pool.QueryRow(context.Background(), `SELECT secret_hash FROM client_applications WHERE id = $1`, id).Scan(&h); err != nil {
			t.Fatal(err)
		}
		return h
	}
	fresh := env.NewClient(t, "fresh")
	if h := storedHash(fresh.ID); !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("a new client's hash is %q", h)
	}

	id, secret := uuid.NewString(), "an-operator-chosen-secret"
	old := legacyHash(secret)
	env.Exec(t, `INSERT INTO client_applications (id, name, secret_hash) VALUES ($1, 'legacy', $2)`, id, old)
	env.Do(t, "POST", "/auth", "", map[string]any{"clientId": id, "clientSecret": "not-the-secret"}).WantError(401, model.CodeClientKeysBad.String())
	if storedHash(id) != old {
		t.Fatal("a failed /auth changed the stored hash")
	}
	key := env.Do(t, "POST", "/auth", "", map[string]any{"clientId": id, "clientSecret": secret}).Want(200).String("apiKey")
	env.Do(t, "GET", "/connectors", key, nil).Want(200)
	upgraded := storedHash(id)
	if !strings.HasPrefix(upgraded, "$argon2id$") {
		t.Fatalf("after a successful /auth the hash is still %q", upgraded)
	}
	env.Do(t, "POST", "/auth", "", map[string]any{"clientId": id, "clientSecret": secret}).Want(200)
	env.Do(t, "POST", "/auth", "", map[string]any{"clientId": id, "clientSecret": "not-the-secret"}).WantError(401, model.CodeClientKeysBad.String())
	if storedHash(id) != upgraded {
		t.Fatal("an upgraded hash was rehashed again")
	}
}

// A disabled client gets the same answer whatever the secret: the answer does not confirm
// a guessed secret.
func TestAuthDisabledClientSameAnswer(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "disabled")
	if _, _, err := env.Auth.SetClientEnabled(context.Background(), uuid.MustParse(c.ID), false); err != nil {
		t.Fatal(err)
	}
	right := env.Do(t, "POST", "/auth", "", map[string]any{"clientId": c.ID, "clientSecret": c.Secret})
	wrong := env.Do(t, "POST", "/auth", "", map[string]any{"clientId": c.ID, "clientSecret": "guess"})
	right.WantError(401, model.CodeClientDisabled.String())
	if !bytes.Equal(right.Body, wrong.Body) || right.Status != wrong.Status {
		t.Fatalf("right secret: %d %s\nwrong secret: %d %s", right.Status, right.Body, wrong.Status, wrong.Body)
	}
	// Keys issued before the client was disabled stop working too.
	env.Do(t, "GET", "/connectors", c.APIKey, nil).WantError(401, model.CodeClientDisabled.String())
}

// `ponte clients disable` runs in another process: when it returns, every serving process
// refuses the client's keys, on the very next request, though they cache the flag. The
// enable that follows reaches them the same way, and the keys issued before the disable
// stay refused: only a new key works.
func TestClientDisableReachesEveryProcess(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "to disable")
	id := uuid.MustParse(c.ID)
	testsupport.Eventually(t, "the service to listen for client changes", 10*time.Second, env.Auth.Listening)

	// The operator command's own process: its own pool and auth service, as cmd/ponte makes them.
	store, err := db.Open(context.Background(), env.DBURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(store.Close)
	cli := auth.NewService(store, testsupport.MasterKey)

	key := c.APIKey
	for round := range 3 {
		env.Do(t, "GET", "/connectors", key, nil).Want(200) // cached as enabled
		found, unacked, err := cli.SetClientEnabled(context.Background(), id, false)
		if err != nil || !found || unacked != 0 {
			t.Fatalf("round %d: disable: found %v, unacked %d, %v", round, found, unacked, err)
		}
		env.Do(t, "GET", "/connectors", key, nil).WantError(401, model.CodeClientDisabled.String())
		env.GraphQL(t, key, `{ categories { total } }`, nil).WantCode(t, model.CodeClientDisabled.String())
		if _, _, err := cli.SetClientEnabled(context.Background(), id, true); err != nil {
			t.Fatal(err)
		}
		wantRevoked(t, env.Do(t, "GET", "/connectors", key, nil))
		key = env.Do(t, "POST", "/auth", "", map[string]any{"clientId": c.ID, "clientSecret": c.Secret}).Want(200).String("apiKey")
	}
	if found, _, err := cli.SetClientEnabled(context.Background(), uuid.New(), false); found || err != nil {
		t.Fatalf("an unknown client: found %v, %v", found, err)
	}
}

// A repeated login is answered from the service's client cache, and a secret replaced by
// any means (SQL by hand here; EnsureClient at a start with a new PONTE_CLIENT_SECRET)
// stops logging in as soon as the change's notice reaches the service: the new secret
// logs in, the old one is refused.
func TestLoginFollowsSecretChange(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "rotating")
	testsupport.Eventually(t, "the service to listen for client changes", 10*time.Second, env.Auth.Listening)
	login := func(secret string) *testsupport.Response {
		return env.Do(t, "POST", "/auth", "", map[string]any{"clientId": c.ID, "clientSecret": secret})
	}
	login(c.Secret).Want(200) // the client's row is cached now

	// What answers is the cache: with the trigger off, a new hash goes unseen.
	fresh := "a-new-secret-the-operator-chose"
	env.Exec(t, `ALTER TABLE client_applications DISABLE TRIGGER client_applications_changed`)
	env.Exec(t, `UPDATE client_applications SET secret_hash = $2 WHERE id = $1`, c.ID, auth.HashSecret(fresh))
	login(c.Secret).Want(200)

	env.Exec(t, `ALTER TABLE client_applications ENABLE TRIGGER client_applications_changed`)
	env.Exec(t, `UPDATE client_applications SET secret_hash = $2 WHERE id = $1`, c.ID, auth.HashSecret(fresh))
	testsupport.Eventually(t, "the old secret to be refused", 10*time.Second, func() bool { return login(c.Secret).Status == 401 })
	login(c.Secret).WantError(401, model.CodeClientKeysBad.String())
	key := login(fresh).Want(200).String("apiKey")
	env.Do(t, "GET", "/connectors", key, nil).Want(200)
}

// A Connect Token's options are the application's: its holder may repeat them, not change
// them, on POST and PATCH /items, through REST and GraphQL. API keys are not bound.
func TestConnectTokenOptionsAuthoritative(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "widget options").APIKey
	opts := map[string]any{"clientUserId": "user-a", "webhookUrl": "https://hooks.example.com/a",
		"oauthRedirectUri": "https://app.example.com/back", "avoidDuplicates": false}
	token := func() string {
		return env.Do(t, "POST", "/connect_token", key, map[string]any{"options": opts}).Want(200).String("accessToken")
	}
	params := map[string]any{"user": "user-ok", "password": "password-ok"}
	body := func(extra map[string]any) map[string]any {
		b := map[string]any{"connectorId": 0, "parameters": params}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	conflicts := []map[string]any{
		{"clientUserId": "user-b"},
		{"webhookUrl": "https://hooks.example.com/b"},
		{"oauthRedirectUri": "https://evil.example.com/back"},
		{"avoidDuplicates": true},
	}
	tok := token()
	for _, c := range conflicts {
		for field := range c {
			e := env.Do(t, "POST", "/items", tok, body(c)).WantError(400, model.CodeConnectTokenOptionConflict.String())
			if d, _ := e["data"].(map[string]any); d["field"] != field || !strings.Contains(e["message"].(string), field) {
				t.Fatalf("conflict on %s: %v", field, e)
			}
			g := env.GraphQL(t, tok, `mutation($in: CreateItemInput!) { createItem(input: $in) { id } }`, map[string]any{"in": body(c)})
			g.WantCode(t, model.CodeConnectTokenOptionConflict.String())
		}
	}

	// The same values are accepted; the token's are used.
	var it model.Item
	env.Do(t, "POST", "/items", tok, body(map[string]any{"clientUserId": "user-a", "webhookUrl": "https://hooks.example.com/a"})).Want(200).JSON(&it)
	if it.ClientUserID == nil || *it.ClientUserID != "user-a" || it.WebhookURL == nil || *it.WebhookURL != "https://hooks.example.com/a" ||
		it.OAuthRedirectURI == nil || *it.OAuthRedirectURI != "https://app.example.com/back" {
		t.Fatalf("item made with the token: clientUserId %v webhookUrl %v oauthRedirectUri %v", it.ClientUserID, it.WebhookURL, it.OAuthRedirectURI)
	}
	// Through GraphQL with nothing in the body: the token's values.
	d := env.GraphQL(t, token(), `mutation($p: Map) { createItem(input: {connectorId: 0, parameters: $p}) { id clientUserId webhookUrl } }`,
		map[string]any{"p": map[string]any{"user": "user-ok-two-checking-accounts", "password": "password-ok"}}).OK(t)
	if g := d["createItem"].(map[string]any); g["clientUserId"] != "user-a" || g["webhookUrl"] != "https://hooks.example.com/a" {
		t.Fatalf("GraphQL item made with the token: %v", g)
	}

	// PATCH with the token that made the item.
	env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
	id := it.ID.String()
	env.Do(t, "PATCH", "/items/"+id, tok, map[string]any{"clientUserId": "user-b"}).WantError(400, model.CodeConnectTokenOptionConflict.String())
	env.Do(t, "PATCH", "/items/"+id, tok, map[string]any{"webhookUrl": "https://hooks.example.com/b"}).WantError(400, model.CodeConnectTokenOptionConflict.String())
	env.GraphQL(t, tok, `mutation($id: UUID!) { updateItem(id: $id, input: {clientUserId: "user-b"}) { id } }`, map[string]any{"id": id}).
		WantCode(t, model.CodeConnectTokenOptionConflict.String())
	if got := env.Item(t, key, id); *got.ClientUserID != "user-a" || *got.WebhookURL != "https://hooks.example.com/a" {
		t.Fatalf("a refused update changed the item: %v %v", *got.ClientUserID, *got.WebhookURL)
	}
	env.Do(t, "PATCH", "/items/"+id, tok, map[string]any{"clientUserId": "user-a"}).Want(200)
	env.WaitItem(t, key, id, testsupport.Settled)

	// The application's own key changes what it likes.
	upd := env.Do(t, "PATCH", "/items/"+id, key, map[string]any{"clientUserId": "user-b"}).Want(200)
	if upd.String("clientUserId") != "user-b" {
		t.Fatalf("API key update: %s", upd.Body)
	}
	var free model.Item
	env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "clientUserId": "anyone",
		"parameters": map[string]any{"user": "user-ok-account-warning", "password": "password-ok"}}).Want(200).JSON(&free)
	if *free.ClientUserID != "anyone" {
		t.Fatalf("API key item: %v", *free.ClientUserID)
	}
}

// intentEvents counts the recorded events of one payment intent by name.
func intentEvents(t *testing.T, env *testsupport.Env, intentID string) map[string]int {
	t.Helper()
	rows, err := env.DB.Pool.Query(context.Background(), `SELECT event FROM events WHERE payload->>'paymentIntentId' = $1`, intentID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		out[name]++
	}
	return out
}

// A consent page answers one decision: later posts (a double click, a reload, twenty
// racing rejects) change nothing, record nothing, send nothing, and say what was decided.
func TestConsentDecisionOnce(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "consent once").APIKey
	env.Recipient(t, key)
	start := func(cpf string) *model.PaymentIntent {
		reqID := env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 30, "isSandbox": true}).Want(200).String("id")
		var n model.PaymentIntent
		env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": reqID, "connectorId": payConnector,
			"parameters": map[string]any{"cpf": cpf}}).Want(200).JSON(&n)
		return &n
	}

	t.Run("twenty racing rejects", func(t *testing.T) {
		n := start(happyCPF)
		var wg sync.WaitGroup
		statuses := make([]int, 20)
		for i := range statuses {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses[i] = consent(t, env, n, "reject").Status
			}()
		}
		wg.Wait()
		slices.Sort(statuses)
		if statuses[0] != http.StatusOK || statuses[1] != http.StatusConflict || statuses[19] != http.StatusConflict {
			t.Fatalf("statuses %v: want one 200 and nineteen 409", statuses)
		}
		for range 3 {
			page := consent(t, env, n, "reject").Want(http.StatusConflict)
			if !strings.Contains(string(page.Body), "já foi recusado") {
				t.Fatalf("a second reject's page:\n%s", page.Body)
			}
		}
		consent(t, env, n, "authorize").Want(http.StatusConflict)
		got := intentOf(t, env, key, n.ID.String())
		if h := historyOf(got); !slices.Equal(h, append(consentSteps, payments.ConsentRejected)) {
			t.Fatalf("status history %v", h)
		}
		if ev := intentEvents(t, env, n.ID.String()); ev["payment_intent/error"] != 1 {
			t.Fatalf("events %v: want one payment_intent/error", ev)
		}
		page := string(env.Do(t, "GET", strings.TrimPrefix(*n.ConsentURL, env.URL), "", nil).Want(200).Body)
		if !strings.Contains(page, "já foi recusado") || strings.Contains(page, `value="authorize"`) {
			t.Fatalf("the page of a rejected consent:\n%s", page)
		}
		// The status in words the payer reads, in their language; its code only as a detail.
		if !strings.Contains(page, `Recusado por você <small class="code">(código CONSENT_REJECTED)</small>`) || !strings.Contains(page, `lang="pt-BR"`) {
			t.Fatalf("the rejected consent's status is not in words:\n%s", page)
		}
		en := string(env.DoHeaders(t, "GET", strings.TrimPrefix(*n.ConsentURL, env.URL), "", nil, map[string]string{"Accept-Language": "en-US,en;q=0.9"}).Want(200).Body)
		for _, want := range []string{`lang="en"`, "This payment was already rejected.", `Rejected by you <small class="code">(code CONSENT_REJECTED)</small>`, "<dt>Payer</dt>"} {
			if !strings.Contains(en, want) {
				t.Fatalf("the English page lacks %q:\n%s", want, en)
			}
		}
	})

	t.Run("authorize twice", func(t *testing.T) {
		n := start(happyCPF)
		consent(t, env, n, "authorize").Want(http.StatusOK)
		page := consent(t, env, n, "authorize").Want(http.StatusConflict)
		if !strings.Contains(string(page.Body), "já foi autorizado") {
			t.Fatalf("a second authorize's page:\n%s", page.Body)
		}
		consent(t, env, n, "reject").Want(http.StatusConflict)
		done := awaitIntent(t, env, key, n.ID.String(), payments.PaymentCompleted)
		if h := historyOf(done); !slices.Equal(h, append(append(consentSteps, settleSteps...), payments.PaymentCompleted)) {
			t.Fatalf("status history %v", h)
		}
		if ev := intentEvents(t, env, n.ID.String()); ev["payment_intent/error"] != 0 || ev["payment_intent/completed"] != 1 {
			t.Fatalf("events %v", ev)
		}
	})

	t.Run("second signer", func(t *testing.T) {
		n := start(payer.CPFMultiSignature)
		consent(t, env, n, "authorize").Want(http.StatusOK)
		awaitIntent(t, env, key, n.ID.String(), payments.PaymentPartiallyAccepted)
		consent(t, env, n, "reject").Want(http.StatusOK)
		for _, d := range []string{"reject", "reject", "authorize"} {
			page := consent(t, env, n, d).Want(http.StatusConflict)
			if !strings.Contains(string(page.Body), "já foi recusado") {
				t.Fatalf("after the second signer's reject:\n%s", page.Body)
			}
		}
		got := intentOf(t, env, key, n.ID.String())
		want := append(consentSteps, payments.ConsentAuthorized, payments.PaymentPending, payments.PaymentPartiallyAccepted, payments.PaymentRejected)
		if h := historyOf(got); !slices.Equal(h, want) {
			t.Fatalf("status history %v", h)
		}
		if ev := intentEvents(t, env, n.ID.String()); ev["payment_intent/error"] != 1 {
			t.Fatalf("events %v: want one payment_intent/error", ev)
		}
	})
}

// The sandbox institution's authorisation page takes one answer too: a later one, even the
// opposite, changes nothing and says the first stands.
func TestSandboxAuthorizeDecisionOnce(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "authorize once").APIKey
	it := createItem(t, env, key, 0, map[string]any{"user": "user-ok-auth-pending", "password": "password-ok"})
	id := it.ID.String()
	waiting, _ := env.WaitItem(t, key, id, testsupport.Settled)
	link, _ := waiting.UserAction.Attributes["url"].(string)
	path := strings.TrimPrefix(link, env.URL)
	if !strings.HasPrefix(path, "/sandbox/authorize/") {
		t.Fatalf("action link %q", link)
	}
	env.Form(t, path, url.Values{"decision": {"approve"}}).Want(http.StatusOK)
	for _, d := range []string{"approve", "deny"} {
		page := env.Form(t, path, url.Values{"decision": {d}}).Want(http.StatusNotFound)
		if !strings.Contains(string(page.Body), "já foi respondida") {
			t.Fatalf("a second decision's page:\n%s", page.Body)
		}
	}
	final, _ := env.WaitItem(t, key, id, testsupport.Settled)
	if final.ExecutionStatus != model.ExecSuccess {
		t.Fatalf("the first answer (approve) did not stand: %s", final.ExecutionStatus)
	}
	if n := slices.Index(testsupport.EventNames(env.Events(t, key, id)), "item/error"); n >= 0 {
		t.Fatal("a later deny reached the item")
	}
}
