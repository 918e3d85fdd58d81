package itemsync_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"testing"
	"time"

	"ponte/model"
	"ponte/testsupport"
)

// What POST /items refuses before anything is written, each with its code.
func TestCreateRefusals(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a := newApp(t, env, "refusals")
	cases := []struct {
		name string
		in   model.CreateItemInput
		code model.Code
	}{
		{"unknown connector", model.CreateItemInput{ConnectorID: 999, Parameters: params("user-ok")}, model.CodeConnectorNotFound},
		{"no parameters", model.CreateItemInput{ConnectorID: 0}, model.CodeParametersNotProvided},
		{"empty parameters", model.CreateItemInput{ConnectorID: 0, Parameters: map[string]any{}}, model.CodeParametersNotProvided},
		{"a parameter failing its rule", model.CreateItemInput{ConnectorID: 0, Parameters: map[string]any{"user": "x"}}, model.CodeConnectorValidation},
		{"a parameter that is no string", model.CreateItemInput{ConnectorID: 0, Parameters: map[string]any{"user": []any{"a"}, "password": "p"}}, model.CodeConnectorValidation},
		{"an offline connector", model.CreateItemInput{ConnectorID: 7, Parameters: map[string]any{"cpf": "52998224725", "password": "12345678"}}, model.CodeConnectorOffline},
		{"a product the connector lacks", model.CreateItemInput{ConnectorID: 10, Parameters: map[string]any{"cpf": "52998224725"},
			Products: []model.Product{model.ProductInvestments}}, model.CodeInvalidParameter},
		{"a webhook on localhost", model.CreateItemInput{ConnectorID: 0, Parameters: params("user-ok"), WebhookURL: ptr("https://localhost/x")}, model.CodeInvalidParameter},
		{"a redirect that is no URL", model.CreateItemInput{ConnectorID: 0, Parameters: params("user-ok"), OAuthRedirectURI: ptr("not a url")}, model.CodeInvalidParameter},
		{"encrypted parameters that are no Base64", model.CreateItemInput{ConnectorID: 0, EncryptedParameters: ptr("%%%")}, model.CodeInvalidParameter},
		{"encrypted parameters of the wrong length", model.CreateItemInput{ConnectorID: 0,
			EncryptedParameters: ptr(base64.StdEncoding.EncodeToString([]byte("short")))}, model.CodeInvalidParameter},
	}
	for _, c := range cases {
		_, err := env.Sync.Create(a.ctx, c.in)
		wantCode(t, c.name, err, c.code)
	}
	if n, err := env.Sync.CountItems(a.ctx, model.ItemFilter{}); err != nil || n != 0 {
		t.Fatalf("refused creations left %d items (%v)", n, err)
	}
}

// Parameters may come encrypted with the application's public key (RSA-OAEP).
func TestEncryptedParameters(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a := newApp(t, env, "encrypted")
	text, err := env.Auth.ClientPublicKeyPEM(context.Background(), a.id)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode([]byte(text))
	pub, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := json.Marshal(params("user-ok"))
	ct, err := rsa.EncryptOAEP(sha256.New(), rand.Reader, pub.(*rsa.PublicKey), plain, nil)
	if err != nil {
		t.Fatal(err)
	}
	it, err := env.Sync.Create(a.ctx, model.CreateItemInput{ConnectorID: 0, EncryptedParameters: ptr(base64.StdEncoding.EncodeToString(ct))})
	if err != nil {
		t.Fatal(err)
	}
	if done := a.settle(t, it.ID); done.ExecutionStatus != model.ExecSuccess {
		t.Fatalf("the encrypted item ended %s", done.ExecutionStatus)
	}
}

// The per-application switches of section 4.3, and the rules about the same credentials
// in two items.
func TestApplicationRules(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a := newApp(t, env, "switches")
	ok := a.create(t, 0, params("user-ok"))
	a.settle(t, ok.ID)

	a.set(t, "api_item_creation_enabled = false")
	_, err := env.Sync.Create(a.ctx, model.CreateItemInput{ConnectorID: 0, Parameters: params("user-ok-phone")})
	wantCode(t, "creation through the API switched off", err, model.CodeAPICreationDisabled)
	a.set(t, "api_item_creation_enabled = true, item_limit = 1")
	_, err = env.Sync.Create(a.ctx, model.CreateItemInput{ConnectorID: 0, Parameters: params("user-ok-phone")})
	wantCode(t, "beyond the item limit", err, model.CodeItemCreationLimit)
	a.set(t, "item_limit = NULL, item_updates_enabled = false")
	_, err = env.Sync.Update(a.ctx, ok.ID, nil)
	wantCode(t, "updates switched off", err, model.CodeItemUpdatesDisabled)
	a.set(t, "item_updates_enabled = true, min_update_interval_hours = 6")
	if _, err := env.Sync.Update(a.ctx, ok.ID, nil); err != nil {
		t.Fatal(err)
	}
	a.settle(t, ok.ID)
	_, err = env.Sync.Update(a.ctx, ok.ID, nil)
	wantCode(t, "an update within the interval", err, model.CodeUpdateTooFrequent)
	a.set(t, "min_update_interval_hours = 0")

	_, err = env.Sync.Create(a.ctx, model.CreateItemInput{ConnectorID: 0, Parameters: params("user-ok"), AvoidDuplicates: ptr(true)})
	wantCode(t, "the same credentials with avoidDuplicates", err, model.CodeItemUserAlreadyExists)
	dup, err := env.Sync.Create(a.ctx, model.CreateItemInput{ConnectorID: 0, Parameters: params("user-ok")})
	if err != nil || dup.ID == ok.ID {
		t.Fatalf("the same credentials without avoidDuplicates: %+v (%v)", dup, err)
	}
	waiting := a.create(t, 0, params("user-ok-select"))
	a.await(t, waiting.ID, "the MFA question", func(it *model.Item) bool { return it.Status == model.ItemWaitingUserInput })
	_, err = env.Sync.Create(a.ctx, model.CreateItemInput{ConnectorID: 0, Parameters: params("user-ok-select")})
	wantCode(t, "credentials of an item still executing", err, model.CodeItemIsAlreadyUpdating)
	_, err = env.Sync.Update(a.ctx, waiting.ID, nil)
	wantCode(t, "an update of an executing item", err, model.CodeItemAlreadyUpdating)

	failed := a.create(t, 0, params("user-error"))
	if it := a.settle(t, failed.ID); it.Status != model.ItemOutdated || it.NextAutoSyncAt == nil {
		t.Fatalf("an institution's error: %+v", it)
	}
	_, err = env.Sync.Create(a.ctx, model.CreateItemInput{ConnectorID: 0, Parameters: params("user-error")})
	wantCode(t, "credentials that just failed at the institution", err, model.CodeItemInErrorCooldown)
	env.Exec(t, `UPDATE items SET consecutive_errors = 6 WHERE id = $1`, failed.ID)
	_, err = env.Sync.Update(a.ctx, failed.ID, nil)
	wantCode(t, "an item failing again and again", err, model.CodeTooManyErrors)

	real := a.create(t, 10, map[string]any{"cpf": "52998224725"})
	a.settle(t, real.ID)
	a.set(t, "sandbox_updates_only = true")
	_, err = env.Sync.Update(a.ctx, real.ID, nil)
	wantCode(t, "an institution's item under sandbox updates only", err, model.CodeSandboxUpdatesOnly)
}

// Login failures: the last one must be answered with new parameters, and a run of them
// starts a cooldown that the message dates.
func TestLoginFailures(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t, func(s *testsupport.Setup) { s.Sync.LoginFailureLimit = 2 })
	a := newApp(t, env, "login failures")
	it := a.create(t, 0, params("user-locked"))
	if done := a.settle(t, it.ID); done.Status != model.ItemLoginError || done.ConsecutiveFailedLoginAttempts != 1 || done.Error == nil {
		t.Fatalf("a locked account: %+v", done)
	}
	_, err := env.Sync.Update(a.ctx, it.ID, nil)
	wantCode(t, "an update without new parameters", err, model.CodeLastLoginError)
	if _, err := env.Sync.Update(a.ctx, it.ID, &model.UpdateItemInput{Parameters: map[string]any{"password": "password-ok"}}); err != nil {
		t.Fatal(err)
	}
	if done := a.settle(t, it.ID); done.ConsecutiveFailedLoginAttempts != 2 {
		t.Fatalf("new parameters reset the failures: %d", done.ConsecutiveFailedLoginAttempts)
	}
	_, err = env.Sync.Update(a.ctx, it.ID, &model.UpdateItemInput{Parameters: map[string]any{"password": "password-ok"}})
	wantCode(t, "an update during the cooldown", err, model.CodeTooManyLoginFailures)
	env.Exec(t, `UPDATE items SET last_login_failure_at = $2 WHERE id = $1`, it.ID, time.Now().Add(-2*time.Hour))
	if _, err := env.Sync.Update(a.ctx, it.ID, &model.UpdateItemInput{Parameters: map[string]any{"password": "password-ok"}}); err != nil {
		t.Fatalf("an update after the cooldown: %v", err)
	}
}
