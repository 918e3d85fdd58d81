package rest_test

import (
	"strings"
	"testing"

	"ponte/model"
	"ponte/sandbox"
	"ponte/testsupport"
)

// The Connect page is served from the binary with a policy that admits nothing from
// elsewhere and no inline script; its browser behaviour is tested under the browser tag
// (connect_browser_test.go).
func TestConnectPageServed(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	r := env.DoHeaders(t, "GET", "/connect?connect_token=x&lang=en", "", nil, map[string]string{"Accept": "text/html,*/*;q=0.8"}).Want(200)
	csp := r.Header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "script-src 'self';", "style-src 'self';", "connect-src 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe") || strings.Contains(csp, "http") {
		t.Errorf("CSP %q admits inline code or other hosts", csp)
	}
	if ct := r.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" || r.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("Content-Type %q, Referrer-Policy %q", ct, r.Header.Get("Referrer-Policy"))
	}
	page := string(r.Body)
	for _, want := range []string{`src="/connect/assets/connect.js"`, `src="/connect/assets/widget.js"`, `src="/connect/assets/fields.js"`, `src="/connect/assets/zoid-frame.js"`, `src="/connect/assets/i18n.js"`, `src="/connect/assets/institutions-en.js"`, `href="/connect/assets/connect.css"`, `lang="pt-BR"`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if strings.Contains(page, "<script>") || strings.Contains(page, "https://") {
		t.Error("the page has inline script or an outside reference")
	}

	for name, ct := range map[string]string{"connect.js": "text/javascript; charset=utf-8", "widget.js": "text/javascript; charset=utf-8", "fields.js": "text/javascript; charset=utf-8", "zoid-frame.js": "text/javascript; charset=utf-8", "i18n.js": "text/javascript; charset=utf-8", "institutions-en.js": "text/javascript; charset=utf-8", "connect.css": "text/css; charset=utf-8"} {
		a := env.Do(t, "GET", "/connect/assets/"+name, "", nil).Want(200)
		if a.Header.Get("Content-Type") != ct || len(a.Body) < 100 {
			t.Errorf("%s: %q, %d bytes", name, a.Header.Get("Content-Type"), len(a.Body))
		}
	}
	// Every connector of the catalogue has its logo where its imageUrl points.
	for _, c := range sandbox.ServedAt(env.URL) {
		if !strings.HasPrefix(c.ImageURL, env.URL+"/") {
			t.Fatalf("imageUrl %q", c.ImageURL)
		}
		a := env.Do(t, "GET", strings.TrimPrefix(c.ImageURL, env.URL), "", nil).Want(200)
		if a.Header.Get("Content-Type") != "image/svg+xml" || !strings.Contains(string(a.Body), "<title>"+c.Name+"</title>") {
			t.Errorf("logo of %d: %q %.100s", c.ID, a.Header.Get("Content-Type"), a.Body)
		}
	}
	for _, name := range []string{"nothing.js", "index.html", "..%2fconnect.go", "CONNECT.JS"} {
		env.Do(t, "GET", "/connect/assets/"+name, "", nil).WantError(404, model.CodeNotFound.String())
	}
}

// GET /connect_token tells the page its token's item and options, which POST
// /connect_token checked.
func TestConnectTokenSession(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "session")
	opts := map[string]any{"clientUserId": "u-1", "countries": []string{"BR"}, "connectorTypes": []string{"PERSONAL_BANK", "INVESTMENT"},
		"includeSandbox": true, "products": []string{"ACCOUNTS"}, "redirectUri": "https://app.example.com/done?x=1",
		"targetOrigin": "HTTPS://App.Example.com/"}
	tok := env.Do(t, "POST", "/connect_token", c.APIKey, map[string]any{"options": opts}).Want(200).String("accessToken")
	var s model.ConnectSession
	env.Do(t, "GET", "/connect_token", tok, nil).Want(200).JSON(&s)
	o := s.Options
	if s.ItemID != nil || *o.ClientUserID != "u-1" || len(o.ConnectorTypes) != 2 || !*o.IncludeSandbox || o.Products[0] != model.ProductAccounts ||
		*o.RedirectURI != "https://app.example.com/done?x=1" || *o.TargetOrigin != "https://app.example.com" || o.Countries[0] != "BR" {
		t.Fatalf("session %+v", s)
	}
	env.Do(t, "GET", "/connect_token", c.APIKey, nil).WantError(403, model.CodeForbidden.String())
	env.Do(t, "GET", "/connect_token", "", nil).WantError(401, model.CodeAPIKeyMissing.String())

	for field, bad := range map[string]any{"countries": []string{"AR"}, "connectorTypes": []string{"BANK"}, "products": []string{"EVERYTHING"},
		"redirectUri": "javascript:alert(1)", "targetOrigin": "https://app.example.com/path"} {
		env.Do(t, "POST", "/connect_token", c.APIKey, map[string]any{"options": map[string]any{field: bad}}).
			WantError(400, model.CodeInvalidParameter.String())
	}
	for _, bad := range []string{"*", "null", "app.example.com", "https://app.example.com?x", "https://u:p@app.example.com"} {
		env.Do(t, "POST", "/connect_token", c.APIKey, map[string]any{"options": map[string]any{"targetOrigin": bad}}).
			WantError(400, model.CodeInvalidParameter.String())
	}
}

// The page's filters bind the token too: its holder cannot create an item elsewhere through
// the API, and the token's products become the item's.
func TestConnectTokenFiltersBindItems(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "filters")
	creds := map[string]any{"connectorId": 0, "parameters": map[string]any{"user": "user-ok", "password": "password-ok"}}
	tok := env.Do(t, "POST", "/connect_token", c.APIKey, map[string]any{"options": map[string]any{"connectorTypes": []string{"INVESTMENT"}}}).Want(200).String("accessToken")
	e := env.Do(t, "POST", "/items", tok, creds).WantError(400, model.CodeConnectTokenOptionConflict.String())
	if d, _ := e["data"].(map[string]any); d["field"] != "connectorTypes" {
		t.Fatalf("refusal %v", e)
	}
	tok = env.Do(t, "POST", "/connect_token", c.APIKey, map[string]any{"options": map[string]any{"products": []string{"ACCOUNTS", "IDENTITY"}}}).Want(200).String("accessToken")
	var it model.Item
	env.Do(t, "POST", "/items", tok, creds).Want(200).JSON(&it)
	if len(it.Products) != 2 {
		t.Fatalf("item products %v, want the token's", it.Products)
	}
}
