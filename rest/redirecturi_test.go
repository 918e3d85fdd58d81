package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"ponte/model"
	"ponte/testsupport"
)

// Every field that sends a browser somewhere follows model.CheckRedirectURL: an item's or
// a Connect Token's oauthRedirectUri and a payment request's callbackUrls accept plain
// HTTP on the application's own machine, and refuse a URL whose user:password part would
// make https://bank.example@evil.example read as the bank.
func TestRedirectURIRule(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "redirect rule").APIKey
	env.Recipient(t, key)
	item := func(uri string) map[string]any {
		return map[string]any{"connectorId": 0, "parameters": map[string]any{"user": "user-ok", "password": "password-ok"}, "oauthRedirectUri": uri}
	}
	const disguised = "https://bank.example@evil.example/back"
	for _, c := range []struct {
		path, field string
		body        map[string]any
	}{
		{"/items", "oauthRedirectUri", item(disguised)},
		{"/connect_token", "options.oauthRedirectUri", map[string]any{"options": map[string]any{"oauthRedirectUri": disguised}}},
		{"/payments/requests", "callbackUrls.success", map[string]any{"amount": 10, "callbackUrls": map[string]any{"success": disguised}}},
	} {
		e := env.Do(t, "POST", c.path, key, c.body).WantError(http.StatusBadRequest, model.CodeInvalidParameter.String())
		if m, _ := e["message"].(string); !strings.HasPrefix(m, c.field+" ") || !strings.Contains(m, "user name or password") {
			t.Errorf("POST %s: message %q, want it to name %s and the user:password part", c.path, m, c.field)
		}
	}
	env.Do(t, "POST", "/items", key, item("http://localhost:3000/back")).Want(http.StatusOK)
	env.Do(t, "POST", "/connect_token", key, map[string]any{"options": map[string]any{"oauthRedirectUri": "http://127.0.0.1:3000/back"}}).Want(http.StatusOK)
	env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 10, "isSandbox": true, "callbackUrls": map[string]any{"success": "http://localhost:3000/ok"}}).Want(http.StatusOK)
}
