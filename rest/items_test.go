package rest_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/testsupport"
)

func createItem(t *testing.T, env *testsupport.Env, key string, connector int, params map[string]any) *model.Item {
	t.Helper()
	var it model.Item
	env.Do(t, "POST", "/items", key, map[string]any{"connectorId": connector, "parameters": params}).Want(200).JSON(&it)
	return &it
}

func TestItemScenarios(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "scenarios").APIKey

	cases := []struct {
		user     string
		status   model.ItemStatus
		exec     model.ExecutionStatus
		events   []string
		withData bool
	}{
		{"user-ok", model.ItemUpdated, model.ExecSuccess, []string{"item/login_succeeded", "item/created", "transactions/created"}, true},
		{"user-ok-two-checking-accounts", model.ItemUpdated, model.ExecSuccess, []string{"item/login_succeeded", "item/created"}, true},
		{"user-ok-account-error", model.ItemUpdated, model.ExecPartialSuccess, []string{"item/login_succeeded", "item/created"}, true},
		{"user-ok-account-warning", model.ItemUpdated, model.ExecSuccess, []string{"item/login_succeeded", "item/created"}, true},
		{"user-logged", model.ItemLoginError, model.ExecAlreadyLoggedIn, []string{"item/error"}, false},
		{"user-locked", model.ItemLoginError, model.ExecAccountLocked, []string{"item/error"}, false},
		{"user-error", model.ItemOutdated, model.ExecUnexpectedError, []string{"item/error"}, false},
		{"user-unavailable", model.ItemOutdated, model.ExecSiteNotAvailable, []string{"item/error"}, false},
		{"user-account-need-actions", model.ItemLoginError, model.ExecAccountNeedsAction, []string{"item/error"}, false},
		{"user-account-need-actions-provider-message", model.ItemLoginError, model.ExecAccountNeedsAction, []string{"item/error"}, false},
		{"user-connection-error", model.ItemOutdated, model.ExecConnectionError, []string{"item/login_succeeded", "item/error"}, false},
		{"user-account-credentials-reset", model.ItemLoginError, model.ExecAccountCredentialsReset, []string{"item/error"}, false},
		{"user-not-supported", model.ItemLoginError, model.ExecUserNotSupported, []string{"item/error"}, false},
		{"someone-else", model.ItemLoginError, model.ExecInvalidCredentials, []string{"item/error"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.user, func(t *testing.T) {
			t.Parallel()
			created := createItem(t, env, key, 0, map[string]any{"user": tc.user, "password": "password-ok"})
			if created.Status != model.ItemUpdating || created.Connector == nil || created.Connector.ID != 0 {
				t.Fatalf("created item: %+v", created)
			}
			it, seen := env.WaitItem(t, key, created.ID.String(), testsupport.Settled)
			if it.Status != tc.status || it.ExecutionStatus != tc.exec {
				t.Fatalf("final %s/%s, want %s/%s (seen %v)", it.Status, it.ExecutionStatus, tc.status, tc.exec, seen)
			}
			names := testsupport.EventNames(env.Events(t, key, it.ID.String()))
			for _, want := range tc.events {
				if !slices.Contains(names, want) {
					t.Fatalf("events %v lack %s", names, want)
				}
			}
			switch {
			case tc.exec == model.ExecSuccess || tc.exec == model.ExecPartialSuccess:
				if it.LastUpdatedAt == nil || it.NextAutoSyncAt == nil || it.Error != nil {
					t.Fatalf("successful item: %+v", it)
				}
			default:
				if it.Error == nil || it.Error.Code != tc.exec || it.Error.Message == "" {
					t.Fatalf("error %+v, want code %s", it.Error, tc.exec)
				}
				if tc.status == model.ItemLoginError && it.ConsecutiveFailedLoginAttempts != 1 {
					t.Fatalf("consecutiveFailedLoginAttempts %d", it.ConsecutiveFailedLoginAttempts)
				}
			}
			if tc.user == "user-ok-account-error" && (it.StatusDetail == nil || it.StatusDetail.CreditCards == nil || it.StatusDetail.CreditCards.IsUpdated) {
				t.Fatalf("partial success statusDetail %+v", it.StatusDetail)
			}
			if tc.user == "user-ok-account-warning" && (it.StatusDetail == nil || it.StatusDetail.Accounts == nil || len(it.StatusDetail.Accounts.Warnings) == 0) {
				t.Fatalf("warning statusDetail %+v", it.StatusDetail)
			}
			if tc.user == "user-account-need-actions-provider-message" && it.Error.ProviderMessage == nil {
				t.Fatal("providerMessage missing")
			}
		})
	}
}

func TestItemMFA(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "mfa").APIKey

	cases := []struct {
		name      string
		connector int
		user      string
		param     string
		value     string
		final     model.ExecutionStatus
	}{
		{"token", 1, "user-ok", "token", "123456", model.ExecSuccess},
		{"wrong token", 1, "user-ok", "token", "111111", model.ExecInvalidCredentialsMFA},
		{"image", 0, "user-ok-img", "captcha", "123456", model.ExecSuccess},
		{"select", 0, "user-ok-select", "device", "123456", model.ExecSuccess},
		{"phone", 0, "user-ok-phone", "phone", "123456", model.ExecSuccess},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			it := createItem(t, env, key, tc.connector, map[string]any{"user": tc.user, "password": "password-ok"})
			id := it.ID.String()
			waiting, _ := env.WaitItem(t, key, id, testsupport.Settled)
			if waiting.Status != model.ItemWaitingUserInput || waiting.Parameter == nil || waiting.Parameter.Name != tc.param ||
				waiting.Parameter.ExpiresAt == nil || !waiting.Parameter.MFA {
				t.Fatalf("waiting item: %+v parameter %+v", waiting, waiting.Parameter)
			}
			// The wrong parameter name is refused and names the expected one.
			m := env.Do(t, "POST", "/items/"+id+"/mfa", key, map[string]any{"nope": "1"}).WantError(400, "ITEM_MFA_PARAMETER_EXPECTED_MISMATCH")
			if !strings.Contains(m["message"].(string), tc.param) {
				t.Fatalf("message does not name %s: %v", tc.param, m["message"])
			}
			env.Do(t, "POST", "/items/"+id+"/mfa", key, map[string]any{tc.param: tc.value}).Want(200)
			final, _ := env.WaitItem(t, key, id, testsupport.Settled)
			if final.ExecutionStatus != tc.final {
				t.Fatalf("final %s, want %s", final.ExecutionStatus, tc.final)
			}
			names := testsupport.EventNames(env.Events(t, key, id))
			if !slices.Contains(names, "item/waiting_user_input") {
				t.Fatalf("events %v", names)
			}
			env.Do(t, "POST", "/items/"+id+"/mfa", key, map[string]any{tc.param: tc.value}).WantError(404, "ITEM_MFA_NOT_FOUND")
		})
	}
}

func TestItemMFAExpires(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t, func(s *testsupport.Setup) { s.Sync.InputTimeout = 300 * 1e6 })
	key := env.NewClient(t, "mfa timeout").APIKey
	it := createItem(t, env, key, 1, map[string]any{"user": "user-ok", "password": "password-ok"})
	final, seen := env.WaitItem(t, key, it.ID.String(), func(it *model.Item) bool { return it.Status == model.ItemLoginError })
	if final.ExecutionStatus != model.ExecUserInputTimeout || !slices.Contains(seen, model.ExecWaitingUserInput) {
		t.Fatalf("final %s, seen %v", final.ExecutionStatus, seen)
	}
	env.Do(t, "POST", "/items/"+it.ID.String()+"/mfa", key, map[string]any{"token": "123456"}).WantError(400, "ITEM_MFA_EXPIRED")
}

func TestItemUserActions(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "actions").APIKey

	cases := []struct {
		name      string
		connector int
		user      string
		actType   string
		decision  string
		final     model.ExecutionStatus
	}{
		{"qr approved", 0, "user-ok-qr", "qr", "approve", model.ExecSuccess},
		{"app authorization approved", 0, "user-ok-auth-pending", "authorize-access", "approve", model.ExecSuccess},
		// Two different CPFs: the cases run at once, and one person's credentials may have
		// one execution at a time.
		{"open finance consent", 5, "52998224725", "authorize-access", "approve", model.ExecSuccess},
		{"open finance denied", 5, "11144477735", "authorize-access", "deny", model.ExecUserAuthNotGranted},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			params := map[string]any{"user": tc.user, "password": "password-ok"}
			if tc.connector == 5 {
				params = map[string]any{"cpf": tc.user}
			}
			it := createItem(t, env, key, tc.connector, params)
			id := it.ID.String()
			waiting, _ := env.WaitItem(t, key, id, testsupport.Settled)
			if waiting.Status != model.ItemWaitingUserAction || waiting.UserAction == nil || waiting.UserAction.Type != tc.actType {
				t.Fatalf("waiting: %+v %+v", waiting, waiting.UserAction)
			}
			link, _ := waiting.UserAction.Attributes["url"].(string)
			if tc.actType == "qr" {
				link, _ = waiting.UserAction.Attributes["qr"].(string)
			}
			if !strings.HasPrefix(link, env.URL+"/sandbox/authorize/") {
				t.Fatalf("action link %q", link)
			}
			page := env.DoHeaders(t, "GET", strings.TrimPrefix(link, env.URL), "", nil, map[string]string{"Accept": "text/html"}).Want(200)
			if !strings.Contains(string(page.Body), "Autorizar") {
				t.Fatalf("page: %s", page.Body)
			}
			resp, err := http.PostForm(link, url.Values{"decision": {tc.decision}})
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Fatalf("decision: %d", resp.StatusCode)
			}
			final, _ := env.WaitItem(t, key, id, testsupport.Settled)
			if final.ExecutionStatus != tc.final {
				t.Fatalf("final %s, want %s", final.ExecutionStatus, tc.final)
			}
			if tc.connector == 5 && tc.final == model.ExecSuccess && (final.ConsentExpiresAt == nil || final.HasResourcesPendingAuthorization == nil) {
				t.Fatalf("open finance fields: %+v", final)
			}
			if !slices.Contains(testsupport.EventNames(env.Events(t, key, id)), "item/waiting_user_action") {
				t.Fatal("no item/waiting_user_action event")
			}
		})
	}
	t.Run("authorization pending expires", func(t *testing.T) {
		t.Parallel()
		env := testsupport.New(t, func(s *testsupport.Setup) { s.Sync.InputTimeout = 300 * 1e6 })
		key := env.NewClient(t, "pending").APIKey
		it := createItem(t, env, key, 0, map[string]any{"user": "user-ok-auth-pending", "password": "password-ok"})
		final, _ := env.WaitItem(t, key, it.ID.String(), func(it *model.Item) bool { return it.Status == model.ItemLoginError })
		if final.ExecutionStatus != model.ExecUserAuthPending {
			t.Fatalf("final %s", final.ExecutionStatus)
		}
		if !slices.Contains(testsupport.EventNames(env.Events(t, key, it.ID.String())), "item/error") {
			t.Fatal("USER_AUTHORIZATION_PENDING must fire item/error")
		}
	})
}

func TestItemLifecycle(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "lifecycle")
	key := c.APIKey
	it := createItem(t, env, key, 0, map[string]any{"user": "user-ok-two-checking-accounts", "password": "password-ok"})
	id := it.ID.String()
	env.WaitItem(t, key, id, testsupport.Settled)

	// PATCH with {} reuses the stored credentials and runs a new execution.
	upd := env.Do(t, "PATCH", "/items/"+id, key, map[string]any{"clientUserId": "backfilled"}).Want(200)
	if upd.Map()["clientUserId"] != "backfilled" {
		t.Fatalf("patch answer %s", upd.Body)
	}
	final, _ := env.WaitItem(t, key, id, testsupport.Settled)
	if final.ExecutionStatus != model.ExecSuccess || final.ClientUserID == nil {
		t.Fatalf("after update: %+v", final)
	}
	names := testsupport.EventNames(env.Events(t, key, id))
	if !slices.Contains(names, "item/updated") {
		t.Fatalf("events %v lack item/updated", names)
	}
	for _, ev := range env.Events(t, key, id) {
		p := ev["payload"].(map[string]any)
		if p["eventId"] != ev["id"] || p["event"] != ev["event"] {
			t.Fatalf("payload %v does not carry its event and id", p)
		}
		if strings.HasPrefix(ev["event"].(string), "item/") {
			if _, ok := p["clientUserId"]; !ok {
				t.Fatalf("item event without clientUserId: %v", p)
			}
		} else if _, ok := p["clientUserId"]; ok {
			t.Fatalf("transactions event with clientUserId: %v", p)
		}
	}
	// Secrets never come back.
	raw := env.Do(t, "GET", "/items/"+id, key, nil).Want(200)
	if strings.Contains(string(raw.Body), "user-ok-two-checking-accounts") {
		t.Fatal("credentials leaked")
	}

	other := env.NewClient(t, "other tenant")
	env.Do(t, "GET", "/items/"+id, other.APIKey, nil).WantError(404, "ITEM_NOT_FOUND")
	env.Do(t, "PATCH", "/items/"+id, other.APIKey, map[string]any{}).WantError(404, "ITEM_NOT_FOUND")
	env.Do(t, "DELETE", "/items/"+id, other.APIKey, nil).WantError(404, "ITEM_NOT_FOUND")

	env.Do(t, "DELETE", "/items/"+id, key, nil).Want(200)
	env.Do(t, "GET", "/items/"+id, key, nil).WantError(404, "ITEM_NOT_FOUND")
	if !slices.Contains(testsupport.EventNames(env.Events(t, key, id)), "item/deleted") {
		t.Fatal("no item/deleted event")
	}
	env.Do(t, "GET", "/items/not-a-uuid", key, nil).WantError(400, "INVALID_PARAMETER")
	env.Do(t, "GET", "/items/"+uuid.NewString(), key, nil).WantError(404, "ITEM_NOT_FOUND")
}

func TestItemConnectTokenReach(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "widget").APIKey
	tok := env.Do(t, "POST", "/connect_token", key, map[string]any{"options": map[string]any{"clientUserId": "u-42"}}).Want(200).String("accessToken")
	var it model.Item
	env.Do(t, "POST", "/items", tok, map[string]any{"connectorId": 0, "parameters": map[string]any{"user": "user-ok", "password": "password-ok"}}).Want(200).JSON(&it)
	if it.ClientUserID == nil || *it.ClientUserID != "u-42" {
		t.Fatalf("connect token options not applied: %+v", it.ClientUserID)
	}
	env.WaitItem(t, tok, it.ID.String(), testsupport.Settled)

	// The token reaches its own item only.
	other := createItem(t, env, key, 0, map[string]any{"user": "user-ok-two-checking-accounts", "password": "password-ok"})
	env.Do(t, "GET", "/items/"+other.ID.String(), tok, nil).WantError(403, "FORBIDDEN")
	env.Do(t, "DELETE", "/items/"+it.ID.String(), tok, nil).WantError(403, "FORBIDDEN")
	env.Do(t, "POST", "/items", tok, map[string]any{"connectorId": 0, "parameters": map[string]any{"user": "user-ok", "password": "password-ok"}}).WantError(403, "FORBIDDEN")
	env.GraphQL(t, tok, `{ events { id } }`, nil).WantCode(t, "FORBIDDEN")

	// A token issued for an item updates that item.
	upd := env.Do(t, "POST", "/connect_token", key, map[string]any{"itemId": other.ID.String()}).Want(200).String("accessToken")
	env.WaitItem(t, key, other.ID.String(), testsupport.Settled)
	env.Do(t, "PATCH", "/items/"+other.ID.String(), upd, map[string]any{"parameters": map[string]any{"password": "password-ok"}}).Want(200)
	env.Do(t, "PATCH", "/items/"+it.ID.String(), upd, map[string]any{}).WantError(403, "FORBIDDEN")
}

func TestItemsV2(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "v2")
	env.Do(t, "GET", "/v2/items", c.APIKey, nil).WantError(403, "ITEMS_V2_DISABLED")
	env.Exec(t, `UPDATE client_applications SET items_v2_enabled = true WHERE id = $1`, c.ID)

	var ids []string
	for i := 0; i < 3; i++ {
		var it model.Item
		env.Do(t, "POST", "/items", c.APIKey, map[string]any{"connectorId": 0, "clientUserId": fmt.Sprint("u", i%2),
			"parameters": map[string]any{"user": "user-logged", "password": "password-ok"}}).Want(200).JSON(&it)
		ids = append(ids, it.ID.String())
		env.WaitItem(t, c.APIKey, it.ID.String(), testsupport.Settled)
	}
	var page struct {
		Results []model.Item `json:"results"`
		Next    *string      `json:"next"`
	}
	env.Do(t, "GET", "/v2/items", c.APIKey, nil).Want(200).JSON(&page)
	if len(page.Results) != 3 || page.Results[0].ID.String() != ids[2] || page.Next != nil {
		t.Fatalf("v2 page: %d results, next %v", len(page.Results), page.Next)
	}
	env.Do(t, "GET", "/v2/items?clientUserId=u0", c.APIKey, nil).Want(200).JSON(&page)
	if len(page.Results) != 2 {
		t.Fatalf("clientUserId filter: %d", len(page.Results))
	}
	env.Do(t, "GET", "/v2/items?connectorId=1", c.APIKey, nil).Want(200).JSON(&page)
	if len(page.Results) != 0 {
		t.Fatalf("connectorId filter: %d", len(page.Results))
	}
	env.Do(t, "GET", "/v2/items?after=garbage", c.APIKey, nil).WantError(400, "INVALID_CURSOR")
}

// Health details count the executions of the last six hours: failures on the
// institution's side lower the connection rate, a user's wrong password does not.
func TestConnectorHealthFromExecutions(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "health").APIKey
	for _, user := range []string{"user-ok", "user-unavailable", "someone-else", "user-ok-two-checking-accounts"} {
		it := createItem(t, env, key, 0, map[string]any{"user": user, "password": "password-ok"})
		env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
	}
	h := env.Do(t, "GET", "/connectors/0?healthDetails=true", key, nil).Want(200).Map()["health"].(map[string]any)
	d := h["details"].(map[string]any)
	if d["connectionsLast6Hours"] != float64(4) || d["connectionRateLast6Hours"] != float64(75) || d["errorRateLast6Hours"] != float64(25) {
		t.Fatalf("details %v", d)
	}
}

func approve(t *testing.T, env *testsupport.Env, key, id string) *model.Item {
	t.Helper()
	waiting, _ := env.WaitItem(t, key, id, testsupport.Settled)
	if waiting.UserAction == nil {
		t.Fatalf("item %s waits for no action: %s", id, waiting.Status)
	}
	link, _ := waiting.UserAction.Attributes["url"].(string)
	resp, err := http.PostForm(link, url.Values{"decision": {"approve"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	final, _ := env.WaitItem(t, key, id, testsupport.Settled)
	return final
}

func TestOpenFinanceResources(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "resources").APIKey

	cases := []struct {
		cpf     string
		pending bool
	}{{"52998224725", false}, {"99911122233", true}}
	for _, tc := range cases {
		it := createItem(t, env, key, 5, map[string]any{"cpf": tc.cpf})
		final := approve(t, env, key, it.ID.String())
		if final.HasResourcesPendingAuthorization == nil || *final.HasResourcesPendingAuthorization != tc.pending || final.ResourcesCollectedAt == nil {
			t.Fatalf("cpf %s: hasResourcesPendingAuthorization %v", tc.cpf, final.HasResourcesPendingAuthorization)
		}
		var all, pending model.ItemResourcePage
		env.Do(t, "GET", "/items/"+it.ID.String()+"/resources", key, nil).Want(200).JSON(&all)
		env.Do(t, "GET", "/items/"+it.ID.String()+"/resources?status=PENDING_AUTHORISATION", key, nil).Want(200).JSON(&pending)
		if all.Total == 0 || (pending.Total > 0) != tc.pending {
			t.Fatalf("cpf %s: %d resources, %d pending", tc.cpf, all.Total, pending.Total)
		}
		env.Do(t, "GET", "/items/"+it.ID.String()+"/resources?status=MAYBE", key, nil).WantError(400, "INVALID_PARAMETER")
	}
	direct := createItem(t, env, key, 0, okParams)
	env.Do(t, "GET", "/items/"+direct.ID.String()+"/resources", key, nil).WantError(400, "ITEM_NOT_OPEN_FINANCE")
	if direct.HasResourcesPendingAuthorization != nil {
		t.Fatal("direct connector item has hasResourcesPendingAuthorization")
	}
}

func TestItemsGraphQL(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "graphql items").APIKey
	d := env.GraphQL(t, key, `mutation($p: Map) { createItem(input: {connectorId: 1, parameters: $p, clientUserId: "g"}) { id status connector { id hasMFA } } }`,
		map[string]any{"p": okParams}).OK(t)
	id := d["createItem"].(map[string]any)["id"].(string)
	env.WaitItem(t, key, id, testsupport.Settled)
	d = env.GraphQL(t, key, `query($id: UUID!) { item(id: $id) { status executionStatus parameter { name type mfa expiresAt } } }`, map[string]any{"id": id}).OK(t)
	item := d["item"].(map[string]any)
	if item["status"] != "WAITING_USER_INPUT" || item["parameter"].(map[string]any)["name"] != "token" {
		t.Fatalf("item %v", item)
	}
	env.GraphQL(t, key, `mutation($id: UUID!) { submitItemMFA(id: $id, parameters: {wrong: "1"}) { status } }`, map[string]any{"id": id}).WantCode(t, "ITEM_MFA_PARAMETER_EXPECTED_MISMATCH")
	env.GraphQL(t, key, `mutation($id: UUID!) { submitItemMFA(id: $id, parameters: {token: "123456"}) { status } }`, map[string]any{"id": id}).OK(t)
	final, _ := env.WaitItem(t, key, id, testsupport.Settled)
	if final.ExecutionStatus != model.ExecSuccess {
		t.Fatalf("final %s", final.ExecutionStatus)
	}
	// An update of this connector must bring a new one-time code (items rule 4).
	env.GraphQL(t, key, `mutation($id: UUID!) { updateItem(id: $id, input: {clientUserId: "h"}) { clientUserId } }`, map[string]any{"id": id}).
		WantCode(t, "CONNECTOR_REQUIRED_PARAMETER_VALIDATION_ERROR")
	env.GraphQL(t, key, `mutation($id: UUID!) { updateItem(id: $id, input: {clientUserId: "h", parameters: {token: "222222"}}) { clientUserId } }`, map[string]any{"id": id}).OK(t)
	if again, _ := env.WaitItem(t, key, id, testsupport.Settled); again.ExecutionStatus != model.ExecSuccess || *again.ClientUserID != "h" {
		t.Fatalf("after an update with a new code: %s", again.ExecutionStatus)
	}
	env.GraphQL(t, key, `{ items { results { id } } }`, nil).WantCode(t, "ITEMS_V2_DISABLED")
	env.GraphQL(t, key, `mutation { createItem(input: {connectorId: 0}) { id } }`, nil).WantCode(t, "PARAMETERS_NOT_PROVIDED")
	if d := env.GraphQL(t, key, `mutation($id: UUID!) { deleteItem(id: $id) { id } }`, map[string]any{"id": id}).OK(t); d["deleteItem"].(map[string]any)["id"] != id {
		t.Fatalf("deleteItem %v", d)
	}
	env.GraphQL(t, key, `query($id: UUID!) { item(id: $id) { id } }`, map[string]any{"id": id}).WantCode(t, "ITEM_NOT_FOUND")
}

// The sandbox authorization page's two operations are GraphQL fields too: read it by the
// id of its link, decide it once.
func TestSandboxAuthorizationGraphQL(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "authorization graphql").APIKey
	it := createItem(t, env, key, 0, map[string]any{"user": "user-ok-auth-pending", "password": "password-ok"})
	waiting, _ := env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
	if waiting.UserAction == nil {
		t.Fatalf("no user action on %+v", waiting)
	}
	link, _ := waiting.UserAction.Attributes["url"].(string)
	vars := map[string]any{"id": link[strings.LastIndex(link, "/")+1:]}
	const read = `query($id: UUID!) { sandboxAuthorization(id: $id) { id connectorName action { type instructions } redirectUri } }`
	a, _ := env.GraphQL(t, key, read, vars).OK(t)["sandboxAuthorization"].(map[string]any)
	if a["id"] != vars["id"] || a["connectorName"] == "" || a["action"].(map[string]any)["type"] != "authorize-access" || a["redirectUri"] != nil {
		t.Fatalf("sandboxAuthorization %v", a)
	}
	const decide = `mutation($id: UUID!, $d: String!) { decideSandboxAuthorization(id: $id, decision: $d) { id connectorName } }`
	env.GraphQL(t, key, decide, map[string]any{"id": vars["id"], "d": "perhaps"}).WantCode(t, "INVALID_PARAMETER")
	if d := env.GraphQL(t, key, decide, map[string]any{"id": vars["id"], "d": "approve"}).OK(t)["decideSandboxAuthorization"].(map[string]any); d["id"] != vars["id"] {
		t.Fatalf("decideSandboxAuthorization %v", d)
	}
	env.GraphQL(t, key, decide, map[string]any{"id": vars["id"], "d": "deny"}).WantCode(t, "ITEM_MFA_NOT_FOUND")
	if got := env.GraphQL(t, key, read, vars).OK(t)["sandboxAuthorization"]; got != nil {
		t.Fatalf("a decided authorization: %v", got)
	}
	if final, _ := env.WaitItem(t, key, it.ID.String(), testsupport.Settled); final.Status != model.ItemUpdated {
		t.Fatalf("approved item ended %s", final.Status)
	}
}
