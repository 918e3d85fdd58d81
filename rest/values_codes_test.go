package rest_test

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/testsupport"
)

// TestEveryDocumentedCodeReachable provokes each codeDescription of the interface document's
// error table (section 7.3) by a request that earns it, and asserts it in the body. The
// application switches a hosted service sells by plan (item limit, updates disabled...) are
// columns of client_applications an operator sets; the test sets them as an operator would.
func TestEveryDocumentedCodeReachable(t *testing.T) {
	t.Parallel()
	doc := readInterfaceDoc(t)
	env := testsupport.New(t, func(s *testsupport.Setup) { s.Sync.LoginFailureLimit = 2; s.Sync.InputTimeout = 300 * time.Millisecond })
	c := env.NewClient(t, "every-code")
	key := c.APIKey
	got := seen{}
	want := func(status int, code string, r *testsupport.Response) {
		t.Helper()
		r.WantError(status, code)
		got.put("codeDescription", code)
	}
	item := func(connector int, params map[string]any) string {
		t.Helper()
		id := createItem(t, env, key, connector, params).ID.String()
		env.WaitItem(t, key, id, testsupport.Settled)
		return id
	}
	operator := func(set string) func() {
		env.Exec(t, `UPDATE client_applications SET `+set+` WHERE id = $1`, c.ID)
		env.Auth.ForgetClient(uuid.MustParse(c.ID))
		return func() {
			defer env.Auth.ForgetClient(uuid.MustParse(c.ID))
			env.Exec(t, `UPDATE client_applications SET item_updates_enabled = true, sandbox_updates_only = false,
				api_item_creation_enabled = true, item_limit = NULL, min_update_interval_hours = 0 WHERE id = $1`, c.ID)
		}
	}

	want(401, "CLIENT_KEYS_UNAUTHORIZED", env.Do(t, "POST", "/auth", "", map[string]any{"clientId": c.ID, "clientSecret": "nope"}))
	want(404, "ITEM_NOT_FOUND", env.Do(t, "POST", "/connect_token", key, map[string]any{"itemId": model.NewID().String()}))
	want(404, "CONNECTOR_NOT_FOUND", env.Do(t, "GET", "/connectors/999", key, nil))
	want(400, "CONNECTOR_VALIDATION_ERROR", env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "parameters": map[string]any{"user": "x"}}))
	want(400, "PARAMETERS_NOT_PROVIDED", env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0}))
	want(409, "CONNECTOR_OFFLINE", env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 7, "parameters": map[string]any{"cpf": "52998224725", "password": "12345678"}}))

	// An item waiting for its MFA is still executing.
	sel := createItem(t, env, key, 0, map[string]any{"user": "user-ok-select", "password": "password-ok"}).ID.String()
	env.WaitItem(t, key, sel, testsupport.Settled)
	want(400, "ITEM_IS_ALREADY_UPDATING", env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "parameters": map[string]any{"user": "user-ok-select", "password": "password-ok"}}))
	want(400, "ITEM_ALREADY_UPDATING", env.Do(t, "PATCH", "/items/"+sel, key, map[string]any{}))
	want(400, "ITEM_MFA_PARAMETER_EXPECTED_MISMATCH", env.Do(t, "POST", "/items/"+sel+"/mfa", key, map[string]any{"nope": "1"}))
	env.Do(t, "POST", "/items/"+sel+"/mfa", key, map[string]any{"device": "123456"}).Want(200)
	env.WaitItem(t, key, sel, func(it *model.Item) bool { return it.Status == model.ItemUpdated })
	want(404, "ITEM_MFA_NOT_FOUND", env.Do(t, "POST", "/items/"+sel+"/mfa", key, map[string]any{"device": "123456"}))
	env.Do(t, "PATCH", "/items/"+sel, key, map[string]any{}).Want(200)
	env.WaitItem(t, key, sel, testsupport.Settled)
	want(400, "MFA_PARAMERTER_WAS_ALREADY_USED_ERROR", env.Do(t, "POST", "/items/"+sel+"/mfa", key, map[string]any{"device": "123456"}))
	env.Do(t, "POST", "/items/"+sel+"/mfa", key, map[string]any{"device": "654321"}).Want(200)
	want(400, "ITEM_MFA_ALREADY_PROVIDED", env.Do(t, "POST", "/items/"+sel+"/mfa", key, map[string]any{"device": "654321"}))

	// An MFA left unanswered past the input time-out.
	late := createItem(t, env, key, 1, okParams).ID.String()
	env.WaitItem(t, key, late, func(it *model.Item) bool { return it.Status == model.ItemLoginError })
	want(400, "ITEM_MFA_EXPIRED", env.Do(t, "POST", "/items/"+late+"/mfa", key, map[string]any{"token": "123456"}))

	ok := item(0, okParams)
	want(400, "ITEM_USER_ALREADY_EXISTS", env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "parameters": okParams, "avoidDuplicates": true}))
	want(409, "ITEM_ORIGINAL_CONNECTED_WITH_DIFFERENT_ACCOUNT", env.Do(t, "PATCH", "/items/"+ok, key,
		map[string]any{"parameters": map[string]any{"user": "user-ok-two-checking-accounts", "password": "password-ok"}}))
	vault := item(12, map[string]any{"cpf": "52998224725", "accessCode": "AB12CD34"})
	want(400, "CONNECTOR_REQUIRED_PARAMETER_VALIDATION_ERROR", env.Do(t, "PATCH", "/items/"+vault, key, map[string]any{}))

	locked := item(0, map[string]any{"user": "user-locked", "password": "password-ok"})
	want(400, "LAST_EXECUTION_HAD_LOGIN_ERROR", env.Do(t, "PATCH", "/items/"+locked, key, map[string]any{}))
	env.Do(t, "PATCH", "/items/"+locked, key, map[string]any{"parameters": map[string]any{"password": "password-ok"}}).Want(200)
	env.WaitItem(t, key, locked, testsupport.Settled)
	want(400, "TOO_MANY_CONSECUTIVE_LOGIN_FAILURES", env.Do(t, "PATCH", "/items/"+locked, key, map[string]any{"parameters": map[string]any{"password": "password-ok"}}))

	// Six failed synchronizations in a row: the control surface sets each end.
	down := item(0, map[string]any{"user": "user-unavailable", "password": "password-ok"})
	for range 6 {
		env.Do(t, "POST", "/sandbox/items/"+down+"/status", key, map[string]any{"status": "OUTDATED", "executionStatus": "SITE_NOT_AVAILABLE"}).Want(200)
	}
	want(400, "TOO_MANY_CONSECUTIVE_ERRORS", env.Do(t, "PATCH", "/items/"+down, key, map[string]any{}))
	failing := map[string]any{"user": "user-error", "password": "password-ok"}
	item(0, failing)
	want(409, "ITEM_IN_ERROR_COOLDOWN", env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "parameters": failing}))

	real := item(10, map[string]any{"cpf": "52998224725"})
	for _, op := range []struct {
		set, method, path string
		status            int
		code              string
	}{
		{"item_updates_enabled = false", "PATCH", "/items/" + ok, 409, "CLIENT_HAS_ITEM_UPDATES_DISABLED"},
		{"sandbox_updates_only = true", "PATCH", "/items/" + real, 400, "SANDBOX_CLIENT_ITEM_UPDATE_NOT_ALLOWED"},
		{"api_item_creation_enabled = false", "POST", "/items", 400, "CREATE_ITEMS_API_FREE_DISABLED"},
		{"item_limit = 2", "POST", "/items", 409, "ITEM_CREATION_LIMIT_EXCEEDED"},
		{"min_update_interval_hours = 6", "PATCH", "/items/" + ok, 409, "CLIENT_IS_UPDATING_BEFORE_ALLOWED_FREQUENCY"},
	} {
		undo := operator(op.set)
		body := map[string]any{}
		if op.method == "POST" {
			body = map[string]any{"connectorId": 0, "parameters": map[string]any{"user": "user-ok-phone", "password": "password-ok"}}
		}
		if op.code == "CLIENT_IS_UPDATING_BEFORE_ALLOWED_FREQUENCY" {
			// The interval runs from the client's last update; the item has none yet.
			env.Do(t, "PATCH", op.path, key, body).Want(200)
			env.WaitItem(t, key, ok, testsupport.Settled)
		}
		want(op.status, op.code, env.Do(t, op.method, op.path, key, body))
		undo()
	}
	env.Exec(t, `UPDATE client_applications SET enabled = false WHERE id = $1`, c.ID)
	env.Auth.ForgetClient(uuid.MustParse(c.ID))
	want(401, "CLIENT_DISABLED", env.Do(t, "POST", "/auth", "", map[string]any{"clientId": c.ID, "clientSecret": c.Secret}))

	got.check(t, doc, "codeDescription")
}
