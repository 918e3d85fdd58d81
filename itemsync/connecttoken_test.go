package itemsync_test

import (
	"testing"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/model"
	"ponte/testsupport"
)

// POST /connect_token's rules: an itemId names one of the application's items, options pass
// the rules of the items they apply to, and the Connect page's origin is kept normalised.
func TestCreateConnectToken(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a, b := newApp(t, env, "tokens-a"), newApp(t, env, "tokens-b")
	own := a.create(t, 0, params("user-logged"))
	_, err := env.Sync.CreateConnectToken(b.ctx, &own.ID, nil)
	wantCode(t, "another application's item", err, model.CodeItemNotFound)
	unknown := uuid.New()
	_, err = env.Sync.CreateConnectToken(a.ctx, &unknown, nil)
	wantCode(t, "an unknown item", err, model.CodeItemNotFound)
	for name, opts := range map[string]model.ConnectTokenOptions{
		"a webhook on localhost":  {WebhookURL: ptr("https://localhost/hook")},
		"a redirect with no host": {OAuthRedirectURI: ptr("https://")},
		"an unknown country":      {Countries: []string{"XX"}},
	} {
		_, err := env.Sync.CreateConnectToken(a.ctx, nil, &opts)
		wantCode(t, name, err, model.CodeInvalidParameter)
	}

	tok := a.token(t, &own.ID, &model.ConnectTokenOptions{ClientUserID: ptr("u-9"), TargetOrigin: ptr("HTTPS://App.Example.com/")})
	p, err := auth.Require(tok, auth.ReadItem)
	if err != nil || p.ItemID == nil || *p.ItemID != own.ID || *p.Options.ClientUserID != "u-9" || *p.Options.TargetOrigin != "https://app.example.com" {
		t.Fatalf("the token's principal: %+v (%v)", p, err)
	}
	_, err = env.Sync.CreateConnectToken(tok, nil, nil)
	wantCode(t, "a token issuing a token", err, model.CodeForbidden)
}

// A Connect Token without an item creates one, with its options over the body's, and is
// bound to it: it creates no second one, and updates it as the user (no client interval).
func TestConnectTokenCreatesItsItem(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a := newApp(t, env, "token items")
	a.set(t, "api_item_creation_enabled = false, min_update_interval_hours = 6")
	opts := &model.ConnectTokenOptions{ClientUserID: ptr("end-user"), Products: []model.Product{model.ProductAccounts}, IncludeSandbox: ptr(true)}
	key := a.issue(t, nil, opts)
	tok := holding(t, env, key)
	_, err := env.Sync.Create(tok, model.CreateItemInput{ConnectorID: 0, Parameters: params("user-ok"), ClientUserID: ptr("someone-else")})
	wantCode(t, "a body contradicting the token", err, model.CodeConnectTokenOptionConflict)
	_, err = env.Sync.Create(tok, model.CreateItemInput{ConnectorID: 0, Parameters: params("user-ok"), Products: []model.Product{model.ProductTransactions}})
	wantCode(t, "products other than the token's", err, model.CodeConnectTokenOptionConflict)
	_, err = env.Sync.Create(a.token(t, nil, &model.ConnectTokenOptions{IncludeSandbox: ptr(false)}),
		model.CreateItemInput{ConnectorID: 0, Parameters: params("user-ok")})
	wantCode(t, "a sandbox connector the token leaves out", err, model.CodeConnectTokenOptionConflict)

	it, err := env.Sync.Create(tok, model.CreateItemInput{ConnectorID: 0, Parameters: params("user-ok")})
	if err != nil || *it.ClientUserID != "end-user" || len(it.Products) != 1 || it.Products[0] != model.ProductAccounts {
		t.Fatalf("the token's item: %+v (%v)", it, err)
	}
	// Checked again, as each request is, the token is bound to its item now.
	bound := holding(t, env, key)
	_, err = env.Sync.Create(bound, model.CreateItemInput{ConnectorID: 0, Parameters: params("user-ok-phone")})
	wantCode(t, "a second item with the same token", err, model.CodeForbidden)
	if _, err := env.Sync.Get(bound, it.ID); err != nil {
		t.Fatalf("the token reads its item: %v", err)
	}
	a.settle(t, it.ID)
	for range 2 {
		if _, err := env.Sync.Update(bound, it.ID, nil); err != nil {
			t.Fatalf("the user updates the item: %v", err)
		}
		a.settle(t, it.ID)
	}
	list, err := env.Webhooks.Events(a.ctx, &it.ID)
	if err != nil || list[0].Payload["triggeredBy"] != "USER" {
		t.Fatalf("the token's item's events: %v (%v)", list, err)
	}
}
