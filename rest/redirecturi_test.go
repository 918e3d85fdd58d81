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

// A port outside 1–65535, or an empty one, is refused wherever a URL is taken: url.Parse
// accepts any digits after the colon, and a URL stored with port 0 or 99999 failed only
// when a delivery or a browser tried it.
func TestURLPortRule(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "url ports").APIKey
	env.Recipient(t, key)
	bodies := []struct {
		method, path, field string
		body                func(u string) map[string]any
	}{
		{"POST", "/webhooks", "url", func(u string) map[string]any { return map[string]any{"event": "all", "url": u} }},
		{"POST", "/payments/requests", "callbackUrls.success", func(u string) map[string]any {
			return map[string]any{"amount": 10, "isSandbox": true, "callbackUrls": map[string]any{"success": u}}
		}},
		{"POST", "/payments/requests", "webhookUrl", func(u string) map[string]any {
			return map[string]any{"amount": 10, "isSandbox": true, "webhookUrl": u}
		}},
		{"POST", "/connect_token", "options.redirectUri", func(u string) map[string]any {
			return map[string]any{"options": map[string]any{"redirectUri": u}}
		}},
		{"POST", "/connect_token", "options.targetOrigin", func(u string) map[string]any {
			return map[string]any{"options": map[string]any{"targetOrigin": strings.TrimSuffix(u, "/x")}}
		}},
		{"POST", "/connect_token", "options.webhookUrl", func(u string) map[string]any {
			return map[string]any{"options": map[string]any{"webhookUrl": u}}
		}},
		{"POST", "/items", "oauthRedirectUri", func(u string) map[string]any {
			// Credentials of their own per URL: a second item with the same ones is refused.
			return map[string]any{"connectorId": 0, "parameters": map[string]any{"user": "user-ok", "password": "pw " + u}, "oauthRedirectUri": u}
		}},
	}
	for _, b := range bodies {
		for _, port := range []string{"0", "65536", "99999", ""} {
			u := "https://hooks.example.com:" + port + "/x"
			e := env.Do(t, b.method, b.path, key, b.body(u)).WantError(http.StatusBadRequest, model.CodeInvalidParameter.String())
			if m, _ := e["message"].(string); !strings.HasPrefix(m, b.field+" ") || !strings.Contains(m, "1 to 65535") {
				t.Errorf("%s %s with %s: message %q, want it to name %s and the port range", b.method, b.path, u, m, b.field)
			}
		}
		for _, port := range []string{"1", "65535"} {
			env.Do(t, b.method, b.path, key, b.body("https://hooks.example.com:"+port+"/x")).Want(http.StatusOK)
		}
	}
	// A webhook's url is checked on change too.
	id := env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "item/created", "url": "https://hooks.example.com/p"}).Want(http.StatusOK).String("id")
	env.Do(t, "PATCH", "/webhooks/"+id, key, map[string]any{"url": "https://hooks.example.com:0/p"}).WantError(http.StatusBadRequest, model.CodeInvalidParameter.String())
}
