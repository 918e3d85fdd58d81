package auth_test

import (
	"context"
	"crypto/pbkdf2"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
	"ponte/testsupport"
)

// newService is one process of the service on a fresh database of its own.
func newService(t *testing.T) (*auth.Service, *db.DB) {
	t.Helper()
	store, err := db.Open(context.Background(), testsupport.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(store.Close)
	return auth.NewService(store, testsupport.MasterKey), store
}

// newClient creates a client application and returns its id and secret.
func newClient(t *testing.T, s *auth.Service, name string) (uuid.UUID, string) {
	t.Helper()
	c, secret, err := s.NewClient(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return c.ID, secret
}

// apiKey is POST /auth for the client, which must succeed.
func apiKey(t *testing.T, s *auth.Service, id uuid.UUID, secret string) string {
	t.Helper()
	k, err := s.Authenticate(context.Background(), id.String(), secret)
	if err != nil {
		t.Fatalf("Authenticate(%s): %v", id, err)
	}
	return k.APIKey
}

func wantCode(t *testing.T, what string, err error, code model.Code) {
	t.Helper()
	var e *model.Error
	if !errors.As(err, &e) || e.Code != code {
		t.Errorf("%s: got %v, want %s", what, err, code)
	}
}

// verify checks a credential that must be accepted.
func verify(t *testing.T, s *auth.Service, token string) *auth.Principal {
	t.Helper()
	p, err := s.Verify(context.Background(), token)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	return p
}

// POST /auth answers an API key for the right keys only, and says which input is wrong
// only as far as the spec allows.
func TestAuthenticate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newService(t)
	id, secret := newClient(t, s, "rules-a")
	other, otherSecret := newClient(t, s, "rules-b")
	if _, _, err := s.NewClient(ctx, ""); err == nil {
		t.Error("a client application without a name was created")
	}
	p := verify(t, s, apiKey(t, s, id, secret))
	if p.ClientID != id || p.Kind != auth.KindAPIKey || p.IsConnectToken() || p.ItemID != nil {
		t.Errorf("the API key verified as %+v", p)
	}
	if p := verify(t, s, apiKey(t, s, other, otherSecret)); p.ClientID != other {
		t.Errorf("b's key verified as client %s", p.ClientID)
	}
	cases := []struct {
		name, id, secret string
		code             model.Code
	}{
		{"no clientId", "", secret, model.CodeInvalidRequest},
		{"no clientSecret", id.String(), "", model.CodeInvalidRequest},
		{"a wrong secret", id.String(), secret + "x", model.CodeClientKeysBad},
		{"another client's secret", id.String(), otherSecret, model.CodeClientKeysBad},
		{"an unknown client", uuid.NewString(), secret, model.CodeClientKeysBad},
		{"a clientId that is not a UUID", "client-a", secret, model.CodeClientKeysBad},
	}
	for _, tc := range cases {
		k, err := s.Authenticate(ctx, tc.id, tc.secret)
		if k != nil {
			t.Errorf("%s: answered a key", tc.name)
		}
		wantCode(t, tc.name, err, tc.code)
	}
}

// claimsOf decodes an API key's payload without checking it, as the official client does.
func claimsOf(t *testing.T, token string) map[string]any {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("%q is not a JWT", token)
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]any
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// An API key lives two hours to the second and says so in its exp; a Connect Token lives
// thirty minutes, and the API key that asked for it need not outlive it.
func TestCredentialLifetimes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newService(t)
	id, secret := newClient(t, s, "lifetimes")
	at := time.Now().Add(-10 * time.Minute)
	then := s.WithClock(func() time.Time { return at })
	key := apiKey(t, then, id, secret)
	c := claimsOf(t, key)
	if c["sub"] != id.String() || c["exp"] != float64(at.Add(auth.APIKeyTTL).Unix()) || c["iat"] != float64(at.Unix()) {
		t.Errorf("API key claims %v", c)
	}
	tok, err := then.IssueConnectToken(ctx, verify(t, then, key), nil, model.ConnectTokenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		token string
		ttl   time.Duration
	}{{"API key", key, auth.APIKeyTTL}, {"Connect Token", tok.AccessToken, auth.ConnectTokenTTL}} {
		if _, err := s.WithClock(func() time.Time { return at.Add(tc.ttl - time.Second) }).Verify(ctx, tc.token); err != nil {
			t.Errorf("%s refused a second before it expires: %v", tc.name, err)
		}
		_, err := s.WithClock(func() time.Time { return at.Add(tc.ttl) }).Verify(ctx, tc.token)
		wantCode(t, tc.name+" at its expiry", err, model.CodeAPIKeyExpired)
	}
}

// A disable refuses every credential of the client at once, and POST /auth says
// CLIENT_DISABLED whatever the secret; after an enable, only credentials issued later pass.
func TestDisableRevokes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newService(t)
	id, secret := newClient(t, s, "revocation")
	bystander, bystanderSecret := newClient(t, s, "bystander")
	key := apiKey(t, s, id, secret)
	tok, err := s.IssueConnectToken(ctx, verify(t, s, key), nil, model.ConnectTokenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	otherKey := apiKey(t, s, bystander, bystanderSecret)

	if found, unacked, err := s.SetClientEnabled(ctx, id, false); !found || unacked != 0 || err != nil {
		t.Fatalf("disable: found %v, unacked %d, %v", found, unacked, err)
	}
	for name, cred := range map[string]string{"API key": key, "Connect Token": tok.AccessToken} {
		_, err := s.Verify(ctx, cred)
		wantCode(t, name+" of a disabled client", err, model.CodeClientDisabled)
	}
	for _, sec := range []string{secret, "wrong-secret"} {
		_, err := s.Authenticate(ctx, id.String(), sec)
		wantCode(t, "POST /auth of a disabled client", err, model.CodeClientDisabled)
	}
	verify(t, s, otherKey)

	if found, _, err := s.SetClientEnabled(ctx, id, true); !found || err != nil {
		t.Fatalf("enable: found %v, %v", found, err)
	}
	for name, cred := range map[string]string{"API key": key, "Connect Token": tok.AccessToken} {
		_, err := s.Verify(ctx, cred)
		wantCode(t, name+" issued before a disable", err, model.CodeAPIKeyExpired)
	}
	fresh := verify(t, s, apiKey(t, s, id, secret))
	tok2, err := s.IssueConnectToken(ctx, fresh, nil, model.ConnectTokenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	verify(t, s, tok2.AccessToken)
	if found, _, err := s.SetClientEnabled(ctx, uuid.New(), false); found || err != nil {
		t.Errorf("disabling an unknown client: found %v, %v", found, err)
	}
}

// EnsureClient makes the configured keys work: again with the same secret it changes
// nothing a client holds; a new secret replaces the old and revokes its API keys.
func TestEnsureClient(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newService(t)
	for _, bad := range [][2]string{{"client-1", "0123456789abcdef"}, {uuid.NewString(), "short"}} {
		if _, err := s.EnsureClient(ctx, bad[0], bad[1]); err == nil {
			t.Errorf("EnsureClient(%q, %q) accepted", bad[0], bad[1])
		}
	}
	id := uuid.New()
	const first, second = "first-secret-0123456789", "second-secret-0123456789"
	if created, err := s.EnsureClient(ctx, id.String(), first); !created || err != nil {
		t.Fatalf("first EnsureClient: created %v, %v", created, err)
	}
	key := apiKey(t, s, id, first)
	if created, err := s.EnsureClient(ctx, id.String(), first); created || err != nil {
		t.Fatalf("EnsureClient again: created %v, %v", created, err)
	}
	verify(t, s, key)
	if created, err := s.EnsureClient(ctx, id.String(), second); created || err != nil {
		t.Fatalf("EnsureClient with a new secret: created %v, %v", created, err)
	}
	_, err := s.Verify(ctx, key)
	wantCode(t, "an API key of the replaced secret", err, model.CodeAPIKeyExpired)
	_, err = s.Authenticate(ctx, id.String(), first)
	wantCode(t, "POST /auth with the replaced secret", err, model.CodeClientKeysBad)
	verify(t, s, apiKey(t, s, id, second))
}

// pbkdf2Hash is a secret hashed the way the service stored secrets before argon2id.
func pbkdf2Hash(t *testing.T, secret string) string {
	t.Helper()
	salt := []byte("0123456789abcdef")
	key, err := pbkdf2.Key(sha256.New, secret, salt, 1000, 32)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("pbkdf2-sha256$1000$%s$%s", base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key))
}

// A secret stored under an older scheme is upgraded when it is next known (a login, or
// EnsureClient with the same secret), and the upgrade revokes nothing.
func TestSecretUpgradeKeepsKeys(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, store := newService(t)
	const secret = "legacy-secret-0123456789"
	for _, via := range []string{"login", "EnsureClient"} {
		c := &model.ClientApplication{ID: uuid.New(), Name: via, Enabled: true, SecretHash: pbkdf2Hash(t, secret)}
		if err := store.CreateClient(ctx, c); err != nil {
			t.Fatal(err)
		}
		var key string
		if via == "login" {
			key = apiKey(t, s, c.ID, secret)
		} else if created, err := s.EnsureClient(ctx, c.ID.String(), secret); created || err != nil {
			t.Fatalf("EnsureClient: created %v, %v", created, err)
		}
		row, _, err := store.Client(ctx, c.ID)
		if err != nil || !strings.HasPrefix(row.SecretHash, "$argon2id$") || auth.NeedsRehash(row.SecretHash) {
			t.Errorf("%s: stored hash after the upgrade %q, %v", via, row.SecretHash, err)
		}
		if row.CredentialGeneration != 0 {
			t.Errorf("%s: the upgrade moved the credential generation to %d", via, row.CredentialGeneration)
		}
		if key != "" {
			verify(t, s, key)
		}
		verify(t, s, apiKey(t, s, c.ID, secret))
	}
}
