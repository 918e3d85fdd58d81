package rest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/model"
	"ponte/testsupport"
)

// Sandbox control of items, through REST and GraphQL on the real
// service: each action's effect on the item, its events and its history, then hostile
// callers.

// sbItem creates a sandbox item (connector 0) with user and waits for it to settle.
func sbItem(t *testing.T, env *testsupport.Env, key, user string) *model.Item {
	t.Helper()
	var it model.Item
	env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0,
		"parameters": map[string]any{"user": user, "password": "password-ok"}}).Want(200).JSON(&it)
	got, _ := env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
	return got
}

// sbHistory is the item's executions, oldest first.
func sbHistory(t *testing.T, env *testsupport.Env, id uuid.UUID) []db.ExecutionRecord {
	t.Helper()
	list, err := env.DB.ItemExecutions(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// sbLastEvent is the item's newest item/* event (transaction events may follow it).
func sbLastEvent(t *testing.T, env *testsupport.Env, key string, id uuid.UUID) map[string]any {
	t.Helper()
	evs := env.Events(t, key, id.String())
	for i := len(evs) - 1; i >= 0; i-- {
		if p := evs[i]["payload"].(map[string]any); strings.HasPrefix(p["event"].(string), "item/") {
			return p
		}
	}
	t.Fatalf("item %s has no item events", id)
	return nil
}

func sbWant(t *testing.T, it *model.Item, status model.ItemStatus, exec model.ExecutionStatus) {
	t.Helper()
	if it.Status != status || it.ExecutionStatus != exec {
		t.Fatalf("item %s is %s/%s, want %s/%s (error %+v)", it.ID, it.Status, it.ExecutionStatus, status, exec, it.Error)
	}
}

func TestSandboxControlItems(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a := env.NewClient(t, "control-a")
	it := sbItem(t, env, a.APIKey, "user-ok")
	sbWant(t, it, model.ItemUpdated, model.ExecSuccess)
	id := it.ID.String()
	path := "/sandbox/items/" + id

	t.Run("status OUTDATED with an error code, recorded and announced", func(t *testing.T) {
		var got model.Item
		env.Do(t, "POST", path+"/status", a.APIKey, map[string]any{"status": "OUTDATED", "executionStatus": "SITE_NOT_AVAILABLE",
			"message": "Banco fora do ar", "statusDetail": map[string]any{"transactions": map[string]any{"isUpdated": false,
				"warnings": []any{map[string]any{"code": "W1", "message": "Sem extrato"}}}}}).Want(200).JSON(&got)
		sbWant(t, &got, model.ItemOutdated, model.ExecSiteNotAvailable)
		if got.Error == nil || got.Error.Code != model.ExecSiteNotAvailable || got.Error.Message != "Banco fora do ar" || got.Error.Attributes["sandboxControl"] != "status" {
			t.Fatalf("error %+v", got.Error)
		}
		if got.StatusDetail == nil || got.StatusDetail.Transactions == nil || got.StatusDetail.Transactions.IsUpdated || len(got.StatusDetail.Transactions.Warnings) != 1 {
			t.Fatalf("statusDetail %+v", got.StatusDetail)
		}
		sbWant(t, env.Item(t, a.APIKey, id), model.ItemOutdated, model.ExecSiteNotAvailable)
		ev := sbLastEvent(t, env, a.APIKey, it.ID)
		if ev["event"] != "item/error" || ev["triggeredBy"] != "CLIENT" || ev["error"].(map[string]any)["code"] != "SITE_NOT_AVAILABLE" {
			t.Fatalf("last event %v", ev)
		}
		h := sbHistory(t, env, it.ID)
		last := h[len(h)-1]
		if last.Control == nil || *last.Control != "status" || last.TriggeredBy != "CLIENT" || last.Status != "SITE_NOT_AVAILABLE" {
			t.Fatalf("history %+v", last)
		}
	})

	t.Run("status UPDATED with PARTIAL_SUCCESS names a product not collected", func(t *testing.T) {
		var got model.Item
		env.Do(t, "POST", path+"/status", a.APIKey, map[string]any{"status": "UPDATED", "executionStatus": "PARTIAL_SUCCESS"}).Want(200).JSON(&got)
		sbWant(t, &got, model.ItemUpdated, model.ExecPartialSuccess)
		if got.Error != nil || got.StatusDetail == nil || got.StatusDetail.CreditCards == nil || got.StatusDetail.CreditCards.IsUpdated ||
			got.StatusDetail.Accounts == nil || !got.StatusDetail.Accounts.IsUpdated {
			t.Fatalf("error %+v, statusDetail %+v", got.Error, got.StatusDetail)
		}
		if ev := sbLastEvent(t, env, a.APIKey, it.ID); ev["event"] != "item/updated" || ev["triggeredBy"] != "CLIENT" {
			t.Fatalf("last event %v", ev)
		}
	})

	t.Run("status LOGIN_ERROR through GraphQL counts a failed login", func(t *testing.T) {
		before := env.Item(t, a.APIKey, id).ConsecutiveFailedLoginAttempts
		d := env.GraphQL(t, a.APIKey, `mutation($id: UUID!) { sandboxSetItemStatus(id: $id, input: {status: LOGIN_ERROR, executionStatus: ACCOUNT_LOCKED}) {
			status executionStatus consecutiveFailedLoginAttempts error { code message } } }`, map[string]any{"id": id}).OK(t)
		got := d["sandboxSetItemStatus"].(map[string]any)
		if got["status"] != "LOGIN_ERROR" || got["executionStatus"] != "ACCOUNT_LOCKED" || got["consecutiveFailedLoginAttempts"] != float64(before+1) ||
			got["error"].(map[string]any)["code"] != "ACCOUNT_LOCKED" || got["error"].(map[string]any)["message"] == "" {
			t.Fatalf("item %v", got)
		}
		// An update without credentials is refused, as after a real login error.
		env.Do(t, "PATCH", "/items/"+id, a.APIKey, map[string]any{}).WantError(400, model.CodeLastLoginError.String())
		env.Do(t, "POST", path+"/status", a.APIKey, map[string]any{"status": "UPDATED"}).Want(200)
	})

	t.Run("status refuses what an execution cannot end in", func(t *testing.T) {
		for _, body := range []map[string]any{{"status": "UPDATING"}, {"status": "WAITING_USER_INPUT"}, {"status": "NOPE"}, {},
			{"status": "LOGIN_ERROR", "executionStatus": "SITE_NOT_AVAILABLE"}, {"status": "OUTDATED", "executionStatus": "INVALID_CREDENTIALS"},
			{"status": "UPDATED", "executionStatus": "ERROR"}, {"status": "OUTDATED", "executionStatus": "BOGUS"}} {
			env.Do(t, "POST", path+"/status", a.APIKey, body).WantError(400, model.CodeInvalidParameter.String())
		}
		env.GraphQL(t, a.APIKey, `mutation($id: UUID!) { sandboxSetItemStatus(id: $id, input: {status: MERGING}) { id } }`,
			map[string]any{"id": id}).WantCode(t, model.CodeInvalidParameter.String())
		sbWant(t, env.Item(t, a.APIKey, id), model.ItemUpdated, model.ExecSuccess)
	})

	t.Run("next execution ends in PARTIAL_SUCCESS, once", func(t *testing.T) {
		var next model.SandboxNextExecution
		env.Do(t, "POST", path+"/next-execution", a.APIKey, map[string]any{"executionStatus": "PARTIAL_SUCCESS",
			"unavailableProducts": []any{"TRANSACTIONS"}}).Want(200).JSON(&next)
		if next.ItemID != it.ID || next.ExecutionStatus != model.ExecPartialSuccess || len(next.UnavailableProducts) != 1 {
			t.Fatalf("answer %+v", next)
		}
		env.Do(t, "PATCH", "/items/"+id, a.APIKey, map[string]any{}).Want(200)
		got, _ := env.WaitItem(t, a.APIKey, id, testsupport.Settled)
		sbWant(t, got, model.ItemUpdated, model.ExecPartialSuccess)
		if got.StatusDetail == nil || got.StatusDetail.Transactions == nil || got.StatusDetail.Transactions.IsUpdated ||
			got.StatusDetail.Accounts == nil || !got.StatusDetail.Accounts.IsUpdated {
			t.Fatalf("statusDetail %+v", got.StatusDetail)
		}
		h := sbHistory(t, env, it.ID)
		last := h[len(h)-1]
		if last.Forced == nil || last.Forced.ExecutionStatus != model.ExecPartialSuccess || last.TriggeredBy != "CLIENT" || last.Status != "PARTIAL_SUCCESS" {
			t.Fatalf("history %+v", last)
		}
		env.Do(t, "PATCH", "/items/"+id, a.APIKey, map[string]any{}).Want(200)
		got, _ = env.WaitItem(t, a.APIKey, id, testsupport.Settled)
		sbWant(t, got, model.ItemUpdated, model.ExecSuccess)
	})

	t.Run("next execution ends in a login error at login, another error after it", func(t *testing.T) {
		d := env.GraphQL(t, a.APIKey, `mutation($id: UUID!) { sandboxSetNextExecution(id: $id, input: {executionStatus: UNEXPECTED_ERROR, message: "Falhou"}) {
			itemId executionStatus message unavailableProducts } }`, map[string]any{"id": id}).OK(t)
		if n := d["sandboxSetNextExecution"].(map[string]any); n["message"] != "Falhou" || n["executionStatus"] != "UNEXPECTED_ERROR" {
			t.Fatalf("answer %v", n)
		}
		n := len(env.Events(t, a.APIKey, id))
		env.Do(t, "PATCH", "/items/"+id, a.APIKey, map[string]any{}).Want(200)
		got, _ := env.WaitItem(t, a.APIKey, id, testsupport.Settled)
		sbWant(t, got, model.ItemOutdated, model.ExecUnexpectedError)
		if got.Error.Message != "Falhou" || got.Error.Attributes["sandboxControl"] != "next-execution" {
			t.Fatalf("error %+v", got.Error)
		}
		names := testsupport.EventNames(env.Events(t, a.APIKey, id)[n:])
		if len(names) != 2 || names[0] != "item/login_succeeded" || names[1] != "item/error" {
			t.Fatalf("events %v", names)
		}

		env.Do(t, "POST", path+"/next-execution", a.APIKey, map[string]any{"executionStatus": "USER_NOT_SUPPORTED"}).Want(200)
		n = len(env.Events(t, a.APIKey, id))
		env.Do(t, "PATCH", "/items/"+id, a.APIKey, map[string]any{}).Want(200)
		got, _ = env.WaitItem(t, a.APIKey, id, testsupport.Settled)
		sbWant(t, got, model.ItemLoginError, model.ExecUserNotSupported)
		if names := testsupport.EventNames(env.Events(t, a.APIKey, id)[n:]); len(names) != 1 || names[0] != "item/error" {
			t.Fatalf("events %v", names)
		}
		env.Do(t, "POST", path+"/status", a.APIKey, map[string]any{"status": "UPDATED"}).Want(200)
	})

	t.Run("next execution refuses what it cannot end in", func(t *testing.T) {
		for _, body := range []map[string]any{{"executionStatus": "LOGIN_IN_PROGRESS"}, {"executionStatus": "x"}, {},
			{"executionStatus": "PARTIAL_SUCCESS", "unavailableProducts": []any{"ACCOUNTS"}},
			{"executionStatus": "PARTIAL_SUCCESS", "unavailableProducts": []any{"BROKERAGE_NOTE"}},
			{"executionStatus": "ERROR", "unavailableProducts": []any{"TRANSACTIONS"}}} {
			env.Do(t, "POST", path+"/next-execution", a.APIKey, body).WantError(400, model.CodeInvalidParameter.String())
		}
		// SUCCESS clears a choice.
		env.Do(t, "POST", path+"/next-execution", a.APIKey, map[string]any{"executionStatus": "ERROR"}).Want(200)
		env.Do(t, "POST", path+"/next-execution", a.APIKey, map[string]any{"executionStatus": "SUCCESS"}).Want(200)
		env.Do(t, "PATCH", "/items/"+id, a.APIKey, map[string]any{}).Want(200)
		got, _ := env.WaitItem(t, a.APIKey, id, testsupport.Settled)
		sbWant(t, got, model.ItemUpdated, model.ExecSuccess)
	})

	t.Run("sync now runs an execution triggeredBy SYNC", func(t *testing.T) {
		var got model.Item
		env.Do(t, "POST", path+"/sync", a.APIKey, nil).Want(200).JSON(&got)
		if got.Status != model.ItemUpdating {
			t.Fatalf("answer %s/%s", got.Status, got.ExecutionStatus)
		}
		done, _ := env.WaitItem(t, a.APIKey, id, testsupport.Settled)
		sbWant(t, done, model.ItemUpdated, model.ExecSuccess)
		if ev := sbLastEvent(t, env, a.APIKey, it.ID); ev["event"] != "item/updated" || ev["triggeredBy"] != "SYNC" {
			t.Fatalf("last event %v", ev)
		}
		h := sbHistory(t, env, it.ID)
		if last := h[len(h)-1]; last.TriggeredBy != "SYNC" || last.Control == nil || *last.Control != "sync" {
			t.Fatalf("history %+v", last)
		}
		d := env.GraphQL(t, a.APIKey, `mutation($id: UUID!) { sandboxSyncItem(id: $id) { id status } }`, map[string]any{"id": id}).OK(t)
		if d["sandboxSyncItem"].(map[string]any)["status"] != "UPDATING" {
			t.Fatalf("GraphQL answer %v", d)
		}
		env.WaitItem(t, a.APIKey, id, testsupport.Settled)
	})

	t.Run("reset login: LOGIN_ERROR until credentials come again", func(t *testing.T) {
		var got model.Item
		env.Do(t, "POST", path+"/reset-login", a.APIKey, nil).Want(200).JSON(&got)
		sbWant(t, &got, model.ItemLoginError, model.ExecInvalidCredentials)
		if got.Error.Attributes["sandboxControl"] != "reset-login" {
			t.Fatalf("error %+v", got.Error)
		}
		if ev := sbLastEvent(t, env, a.APIKey, it.ID); ev["event"] != "item/error" || ev["triggeredBy"] != "CLIENT" {
			t.Fatalf("last event %v", ev)
		}
		env.Do(t, "PATCH", "/items/"+id, a.APIKey, map[string]any{}).WantError(400, model.CodeLastLoginError.String())
		// The automatic sync runs on the stored credentials: it ends at login.
		env.Do(t, "POST", path+"/sync", a.APIKey, nil).Want(200)
		done, _ := env.WaitItem(t, a.APIKey, id, testsupport.Settled)
		sbWant(t, done, model.ItemLoginError, model.ExecInvalidCredentials)
		if ev := sbLastEvent(t, env, a.APIKey, it.ID); ev["event"] != "item/error" || ev["triggeredBy"] != "SYNC" {
			t.Fatalf("last event %v", ev)
		}
		// The user types them again: the item updates, and stays healthy after.
		env.Do(t, "PATCH", "/items/"+id, a.APIKey, map[string]any{"parameters": map[string]any{"user": "user-ok", "password": "password-ok"}}).Want(200)
		done, _ = env.WaitItem(t, a.APIKey, id, testsupport.Settled)
		sbWant(t, done, model.ItemUpdated, model.ExecSuccess)
		env.Do(t, "POST", path+"/sync", a.APIKey, nil).Want(200)
		done, _ = env.WaitItem(t, a.APIKey, id, testsupport.Settled)
		sbWant(t, done, model.ItemUpdated, model.ExecSuccess)
		d := env.GraphQL(t, a.APIKey, `mutation($id: UUID!) { sandboxResetItemLogin(id: $id) { status } }`, map[string]any{"id": id}).OK(t)
		if d["sandboxResetItemLogin"].(map[string]any)["status"] != "LOGIN_ERROR" {
			t.Fatalf("GraphQL answer %v", d)
		}
	})

	t.Run("a running item is refused", func(t *testing.T) {
		waiting := sbItem(t, env, a.APIKey, "user-ok-phone")
		sbWant(t, waiting, model.ItemWaitingUserInput, model.ExecWaitingUserInput)
		wp := "/sandbox/items/" + waiting.ID.String()
		env.Do(t, "POST", wp+"/sync", a.APIKey, nil).WantError(400, model.CodeItemAlreadyUpdating.String())
		env.Do(t, "POST", wp+"/reset-login", a.APIKey, nil).WantError(400, model.CodeItemAlreadyUpdating.String())
		env.Do(t, "POST", wp+"/status", a.APIKey, map[string]any{"status": "OUTDATED"}).WantError(400, model.CodeItemAlreadyUpdating.String())
	})
}

// TestSandboxControlHostile calls every control action as the callers it must refuse.
func TestSandboxControlHostile(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a, b := env.NewClient(t, "hostile-a"), env.NewClient(t, "hostile-b")
	it := sbItem(t, env, a.APIKey, "user-ok")
	var files model.Item
	env.Do(t, "POST", "/items", a.APIKey, map[string]any{"connectorId": 900, "parameters": map[string]any{}}).Want(200).JSON(&files)
	env.WaitItem(t, a.APIKey, files.ID.String(), testsupport.Settled)
	token := env.Do(t, "POST", "/connect_token", a.APIKey, map[string]any{"itemId": it.ID.String()}).Want(200).String("accessToken")

	type call struct {
		path string
		body map[string]any
	}
	calls := func(id string) []call {
		p := "/sandbox/items/" + id
		return []call{{p + "/reset-login", nil}, {p + "/status", map[string]any{"status": "OUTDATED"}},
			{p + "/next-execution", map[string]any{"executionStatus": "ERROR"}}, {p + "/sync", nil}}
	}
	before := len(sbHistory(t, env, it.ID))
	for _, c := range calls(it.ID.String()) {
		env.Do(t, "POST", c.path, b.APIKey, c.body).WantError(404, model.CodeItemNotFound.String())
		env.Do(t, "POST", c.path, "", c.body).WantError(401, model.CodeAPIKeyMissing.String())
		env.Do(t, "POST", c.path, token, c.body).WantError(403, model.CodeForbidden.String())
	}
	for _, c := range calls(files.ID.String()) {
		env.Do(t, "POST", c.path, a.APIKey, c.body).WantError(403, model.CodeSandboxOnly.String())
	}
	for _, c := range calls(uuid.NewString()) {
		env.Do(t, "POST", c.path, a.APIKey, c.body).WantError(404, model.CodeItemNotFound.String())
	}
	if after := len(sbHistory(t, env, it.ID)); after != before {
		t.Fatalf("refused calls changed the item's history: %d executions, then %d", before, after)
	}
	sbWant(t, env.Item(t, a.APIKey, it.ID.String()), model.ItemUpdated, model.ExecSuccess)

	for _, q := range []string{
		`mutation($id: UUID!) { sandboxResetItemLogin(id: $id) { id } }`,
		`mutation($id: UUID!) { sandboxSetItemStatus(id: $id, input: {status: OUTDATED}) { id } }`,
		`mutation($id: UUID!) { sandboxSetNextExecution(id: $id, input: {executionStatus: ERROR}) { itemId } }`,
		`mutation($id: UUID!) { sandboxSyncItem(id: $id) { id } }`,
	} {
		env.GraphQL(t, b.APIKey, q, map[string]any{"id": it.ID}).WantCode(t, model.CodeItemNotFound.String())
		env.GraphQL(t, token, q, map[string]any{"id": it.ID}).WantCode(t, model.CodeForbidden.String())
		env.GraphQL(t, a.APIKey, q, map[string]any{"id": files.ID}).WantCode(t, model.CodeSandboxOnly.String())
	}

	// Hostile arguments: refused with a client error, never a 5xx, and nothing changes.
	for _, c := range []struct {
		q    string
		vars map[string]any
	}{
		{`mutation($id: UUID!, $m: String) { sandboxSetItemStatus(id: $id, input: {status: OUTDATED, message: $m}) { id } }`, map[string]any{"id": it.ID, "m": "x\u0000"}},
		{`mutation($id: UUID!) { sandboxSetItemStatus(id: $id, input: {status: UPDATING}) { id } }`, map[string]any{"id": it.ID}},
		{`mutation($id: UUID!) { sandboxSetItemStatus(id: $id, input: {status: UPDATED, statusDetail: {loans: {isUpdated: "yes"}}}) { id } }`, map[string]any{"id": it.ID}},
		{`mutation($id: UUID!) { sandboxSetNextExecution(id: $id, input: {executionStatus: PARTIAL_SUCCESS, unavailableProducts: [ACCOUNTS]}) { itemId } }`, map[string]any{"id": it.ID}},
		{`mutation($id: UUID!) { sandboxSetNextExecution(id: $id, input: {executionStatus: CREATED}) { itemId } }`, map[string]any{"id": it.ID}},
		{`mutation { sandboxDeleteClientData(confirm: "\u0000") { items } }`, nil},
		{`mutation { sandboxDeleteClientData(confirm: "00000000-0000-0000-0000-000000000000") { items } }`, nil},
	} {
		r := env.GraphQL(t, a.APIKey, c.q, c.vars)
		code := 0
		if len(r.Errors) > 0 {
			f, _ := r.Errors[0].Extensions["code"].(float64)
			code = int(f)
		}
		if r.Status >= 500 || code >= 500 || (len(r.Errors) == 0 && r.Status < 400) {
			t.Errorf("%s: status %d, errors %+v", c.q, r.Status, r.Errors)
		}
	}
	if after := len(sbHistory(t, env, it.ID)); after != before {
		t.Fatalf("refused GraphQL calls changed the item's history: %d executions, then %d", before, after)
	}
	env.Item(t, a.APIKey, it.ID.String())
}

// TestSandboxCleanSlate deletes everything one application owns and nothing of another's.
func TestSandboxCleanSlate(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a, b := env.NewClient(t, "slate-a"), env.NewClient(t, "slate-b")
	type world struct{ item, webhook, request, customer, clock string }
	build := func(key string) world {
		it := sbItem(t, env, key, "user-ok")
		return world{
			item:    it.ID.String(),
			webhook: env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "all", "url": "https://hooks.example.com/slate"}).Want(200).String("id"),
			request: env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 10, "description": "Pedido", "isSandbox": true,
				"recipientId": env.Recipient(t, key)}).Want(200).String("id"),
			customer: env.Do(t, "POST", "/payments/customers", key, map[string]any{"type": "INDIVIDUAL", "name": "Ana",
				"cpf": happyCPF}).Want(200).String("id"),
			clock: env.Do(t, "POST", "/sandbox/test-clocks", key, map[string]any{"name": "slate", "frozenTime": "2031-01-01T00:00:00Z"}).Want(200).String("id"),
		}
	}
	wa, wb := build(a.APIKey), build(b.APIKey)
	env.Do(t, "POST", "/sandbox/users", a.APIKey, sandboxUserBody("slate.user")).Want(200)
	env.Do(t, "POST", "/sandbox/users", b.APIKey, sandboxUserBody("slate.user")).Want(200)
	// Fault rules are the application's too: two for a, one for b, on a route the test
	// does not otherwise use.
	putFaults(t, env, a.APIKey, map[string]any{"route": "GET /categories", "kind": "SERVER_ERROR", "probability": 1},
		map[string]any{"route": "GET /connectors", "kind": "RATE_LIMIT", "probability": 1})
	putFaults(t, env, b.APIKey, map[string]any{"route": "GET /categories", "kind": "SERVER_ERROR", "probability": 1})
	env.Do(t, "GET", "/categories", a.APIKey, nil).WantError(500, "INTERNAL_ERROR")

	env.Do(t, "DELETE", "/sandbox/client", a.APIKey, nil).WantError(400, model.CodeInvalidParameter.String())
	env.Do(t, "DELETE", "/sandbox/client?confirm="+b.ID, a.APIKey, nil).WantError(400, model.CodeInvalidParameter.String())
	env.Do(t, "DELETE", "/sandbox/client?confirm=not-a-uuid", a.APIKey, nil).WantError(400, model.CodeInvalidParameter.String())
	env.Do(t, "DELETE", "/sandbox/client?confirm="+a.ID, "", nil).WantError(401, model.CodeAPIKeyMissing.String())
	token := env.Do(t, "POST", "/connect_token", a.APIKey, map[string]any{"itemId": wa.item}).Want(200).String("accessToken")
	env.Do(t, "DELETE", "/sandbox/client?confirm="+a.ID, token, nil).WantError(403, model.CodeForbidden.String())
	env.Item(t, a.APIKey, wa.item) // nothing refused deleted anything

	var got model.SandboxCleanSlate
	env.Do(t, "DELETE", "/sandbox/client?confirm="+a.ID, a.APIKey, nil).Want(200).JSON(&got)
	if got.ClientID.String() != a.ID || got.Items != 1 || got.Webhooks != 1 || got.PaymentRequests != 1 || got.PaymentCustomers != 1 || got.Events == 0 ||
		got.FaultRules != 2 || got.TestClocks != 1 || got.SandboxUsers != 1 {
		t.Fatalf("counts %+v", got)
	}
	env.Do(t, "GET", "/sandbox/test-clocks/"+wa.clock, a.APIKey, nil).WantError(404, model.CodeTestClockNotFound.String())
	env.Do(t, "GET", "/sandbox/users/slate.user", a.APIKey, nil).WantError(404, model.CodeSandboxUserNotFound.String())
	// The rules are gone from the store and from this replica's memory at once.
	env.Do(t, "GET", "/categories", a.APIKey, nil).Want(200)
	env.Do(t, "GET", "/connectors", a.APIKey, nil).Want(200)
	if left := env.Do(t, "GET", "/sandbox/faults", a.APIKey, nil).Want(200).Map()["faults"].([]any); len(left) != 0 {
		t.Fatalf("fault rules left: %v", left)
	}
	env.Do(t, "GET", "/items/"+wa.item, a.APIKey, nil).WantError(404, model.CodeItemNotFound.String())
	env.Do(t, "GET", "/webhooks/"+wa.webhook, a.APIKey, nil).Want(404)
	env.Do(t, "GET", "/payments/requests/"+wa.request, a.APIKey, nil).Want(404)
	env.Do(t, "GET", "/payments/customers/"+wa.customer, a.APIKey, nil).Want(404)
	if evs := env.Events(t, a.APIKey, ""); len(evs) != 0 {
		t.Fatalf("%d events left", len(evs))
	}
	// The application itself stays: its key works and it starts again.
	sbItem(t, env, a.APIKey, "user-ok")

	// The other application is untouched.
	env.Item(t, b.APIKey, wb.item)
	env.Do(t, "GET", "/webhooks/"+wb.webhook, b.APIKey, nil).Want(200)
	env.Do(t, "GET", "/payments/requests/"+wb.request, b.APIKey, nil).Want(200)
	env.Do(t, "GET", "/payments/customers/"+wb.customer, b.APIKey, nil).Want(200)
	env.Do(t, "GET", "/sandbox/test-clocks/"+wb.clock, b.APIKey, nil).Want(200)
	env.Do(t, "GET", "/sandbox/users/slate.user", b.APIKey, nil).Want(200)
	if evs := env.Events(t, b.APIKey, ""); len(evs) == 0 {
		t.Fatal("b's events went")
	}
	env.Do(t, "GET", "/categories", b.APIKey, nil).WantError(500, "INTERNAL_ERROR") // b's rule stays

	// Through GraphQL, for b.
	env.GraphQL(t, b.APIKey, `mutation { sandboxDeleteClientData(confirm: "x") { items } }`, nil).WantCode(t, model.CodeInvalidParameter.String())
	d := env.GraphQL(t, b.APIKey, `mutation($c: String!) { sandboxDeleteClientData(confirm: $c) { clientId items webhooks paymentRequests faultRules testClocks sandboxUsers } }`,
		map[string]any{"c": b.ID}).OK(t)
	if r := d["sandboxDeleteClientData"].(map[string]any); r["clientId"] != b.ID || r["items"] != float64(1) || r["webhooks"] != float64(1) ||
		r["faultRules"] != float64(1) || r["testClocks"] != float64(1) || r["sandboxUsers"] != float64(1) {
		t.Fatalf("GraphQL counts %v", r)
	}
	env.Do(t, "GET", "/categories", b.APIKey, nil).Want(200)
	env.Do(t, "GET", "/items/"+wb.item, b.APIKey, nil).WantError(404, model.CodeItemNotFound.String())

	// An application with data outside the sandbox is refused, and keeps everything.
	c := env.NewClient(t, "slate-c")
	var files model.Item
	env.Do(t, "POST", "/items", c.APIKey, map[string]any{"connectorId": 900, "parameters": map[string]any{}}).Want(200).JSON(&files)
	env.WaitItem(t, c.APIKey, files.ID.String(), testsupport.Settled)
	sandboxItem := sbItem(t, env, c.APIKey, "user-ok")
	env.Do(t, "DELETE", "/sandbox/client?confirm="+c.ID, c.APIKey, nil).WantError(403, model.CodeSandboxOnly.String())
	env.Item(t, c.APIKey, files.ID.String())
	env.Item(t, c.APIKey, sandboxItem.ID.String())
}
