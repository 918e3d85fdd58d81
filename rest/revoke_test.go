package rest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/model"
	"ponte/testsupport"
)

// wantRevoked checks the answer to a credential issued before its client's secret changed
// or the client was disabled.
func wantRevoked(t *testing.T, r *testsupport.Response) {
	t.Helper()
	m := r.WantError(401, model.CodeAPIKeyExpired.String())
	if msg, _ := m["message"].(string); !strings.Contains(msg, "revoked") {
		t.Fatalf("the message does not say the key was revoked: %s", r.Body)
	}
}

// A new secret revokes every API key issued under the old one, and the Connect Tokens those
// keys asked for, at once in the process that made the change and as soon as the notice
// arrives elsewhere (SQL by hand here); keys issued under the new secret work. Setting the
// same secret again revokes nothing.
func TestSecretChangeRevokesKeys(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "rotating keys")
	testsupport.Eventually(t, "the service to listen for client changes", 10*time.Second, env.Auth.Listening)
	login := func(secret string) *testsupport.Response {
		return env.Do(t, "POST", "/auth", "", map[string]any{"clientId": c.ID, "clientSecret": secret})
	}
	token := env.Do(t, "POST", "/connect_token", c.APIKey, nil).Want(200).String("accessToken")
	env.Do(t, "GET", "/connectors", c.APIKey, nil).Want(200) // the client is cached now
	env.Do(t, "GET", "/connectors", token, nil).Want(200)

	// What a start with a new PONTE_CLIENT_SECRET does.
	fresh := "a-new-secret-for-the-revocation-tests"
	if _, err := env.Auth.EnsureClient(context.Background(), c.ID, fresh); err != nil {
		t.Fatal(err)
	}
	wantRevoked(t, env.Do(t, "GET", "/connectors", c.APIKey, nil))
	wantRevoked(t, env.Do(t, "GET", "/connectors", token, nil))
	env.GraphQL(t, c.APIKey, `{ categories { total } }`, nil).WantCode(t, model.CodeAPIKeyExpired.String())
	login(c.Secret).WantError(401, model.CodeClientKeysBad.String())

	key := login(fresh).Want(200).String("apiKey")
	env.Do(t, "GET", "/connectors", key, nil).Want(200)
	token = env.Do(t, "POST", "/connect_token", key, nil).Want(200).String("accessToken")
	env.Do(t, "GET", "/connectors", token, nil).Want(200)

	if _, err := env.Auth.EnsureClient(context.Background(), c.ID, fresh); err != nil {
		t.Fatal(err)
	}
	env.Do(t, "GET", "/connectors", key, nil).Want(200)
	env.Do(t, "GET", "/connectors", token, nil).Want(200)

	env.Exec(t, `UPDATE client_applications SET secret_hash = $2 WHERE id = $1`, c.ID, auth.HashSecret("a-third-secret-set-by-hand"))
	testsupport.Eventually(t, "the key to be refused after the secret changed by hand", 10*time.Second, func() bool {
		return env.Do(t, "GET", "/connectors", key, nil).Status == 401
	})
	wantRevoked(t, env.Do(t, "GET", "/connectors", key, nil))
	wantRevoked(t, env.Do(t, "GET", "/connectors", token, nil))
}

// A disable revokes the client's keys for good: enabling it again does not bring them back,
// through the operator's call and through SQL by hand alike. Keys issued after the enable
// work, and an enable of an enabled client revokes nothing. A generation moved on by hand
// alone revokes too (docs/limits-and-security.md's way to revoke without a new secret).
func TestDisableRevokesKeysForGood(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "disabled then enabled")
	id := uuid.MustParse(c.ID)
	testsupport.Eventually(t, "the service to listen for client changes", 10*time.Second, env.Auth.Listening)
	setEnabled := func(enabled bool) {
		t.Helper()
		if found, _, err := env.Auth.SetClientEnabled(context.Background(), id, enabled); err != nil || !found {
			t.Fatalf("set enabled %v: found %v, %v", enabled, found, err)
		}
	}
	token := env.Do(t, "POST", "/connect_token", c.APIKey, nil).Want(200).String("accessToken")
	env.Do(t, "GET", "/connectors", c.APIKey, nil).Want(200)

	setEnabled(false)
	env.Do(t, "GET", "/connectors", c.APIKey, nil).WantError(401, model.CodeClientDisabled.String())
	env.Do(t, "GET", "/connectors", token, nil).WantError(401, model.CodeClientDisabled.String())
	setEnabled(true)
	wantRevoked(t, env.Do(t, "GET", "/connectors", c.APIKey, nil))
	wantRevoked(t, env.Do(t, "GET", "/connectors", token, nil))

	key := env.Do(t, "POST", "/auth", "", map[string]any{"clientId": c.ID, "clientSecret": c.Secret}).Want(200).String("apiKey")
	env.Do(t, "GET", "/connectors", key, nil).Want(200)
	setEnabled(true)
	env.Do(t, "GET", "/connectors", key, nil).Want(200)

	env.Exec(t, `UPDATE client_applications SET enabled = false WHERE id = $1`, c.ID)
	env.Exec(t, `UPDATE client_applications SET enabled = true WHERE id = $1`, c.ID)
	testsupport.Eventually(t, "the key to be revoked after a disable by hand", 10*time.Second, func() bool {
		r := env.Do(t, "GET", "/connectors", key, nil)
		return r.Status == 401 && strings.Contains(string(r.Body), model.CodeAPIKeyExpired.String())
	})
	wantRevoked(t, env.Do(t, "GET", "/connectors", key, nil))

	// docs/limits-and-security.md's way to revoke every key without a new secret or a disable.
	key = env.Do(t, "POST", "/auth", "", map[string]any{"clientId": c.ID, "clientSecret": c.Secret}).Want(200).String("apiKey")
	env.Do(t, "GET", "/connectors", key, nil).Want(200)
	env.Exec(t, `UPDATE client_applications SET credential_generation = credential_generation + 1 WHERE id = $1`, c.ID)
	testsupport.Eventually(t, "the key to be revoked by a new generation set by hand", 10*time.Second, func() bool {
		return env.Do(t, "GET", "/connectors", key, nil).Status == 401
	})
	wantRevoked(t, env.Do(t, "GET", "/connectors", key, nil))
}

// A stronger hash of the same secret is not a new secret: the login that stores it and a
// later rehash leave the keys already issued working.
func TestHashUpgradeKeepsKeys(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	id, secret := uuid.New(), "an-operator-chosen-secret"
	env.Exec(t, `INSERT INTO client_applications (id, name, secret_hash) VALUES ($1, 'legacy', $2)`, id, legacyHash(secret))
	login := func() string {
		return env.Do(t, "POST", "/auth", "", map[string]any{"clientId": id, "clientSecret": secret}).Want(200).String("apiKey")
	}
	first := login() // stores an argon2id hash
	env.Do(t, "GET", "/connectors", first, nil).Want(200)

	c, _, err := env.DB.Client(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if err := env.DB.ReplaceClientSecretHash(context.Background(), id, c.SecretHash, auth.HashSecret(secret)); err != nil {
		t.Fatal(err)
	}
	after, _, err := env.DB.Client(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if after.SecretHash == c.SecretHash || after.CredentialGeneration != c.CredentialGeneration {
		t.Fatalf("a rehash: hash replaced %v, generation %d -> %d", after.SecretHash != c.SecretHash, c.CredentialGeneration, after.CredentialGeneration)
	}
	env.Do(t, "GET", "/connectors", first, nil).Want(200)
	env.Do(t, "GET", "/connectors", login(), nil).Want(200)
}
