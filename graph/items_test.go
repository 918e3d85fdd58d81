package graph_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"ponte/testsupport"
)

const itemFields = `id status executionStatus clientUserId webhookUrl products consecutiveFailedLoginAttempts lastUpdatedAt
	connector { id name hasMFA } error { code message } parameter { name mfa type expiresAt }
	statusDetail { accounts { isUpdated } creditCards { isUpdated } transactions { isUpdated } }`

// An item's life through GraphQL: created, executed, answered with MFA, listed, paged,
// updated and deleted, with the rules of each step and the refusals of other callers.
func TestItems(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a := env.NewClient(t, "items-a")
	ga, gb := caller(env, a.APIKey), caller(env, env.NewClient(t, "items-b").APIKey)
	create := func(t *testing.T, connector int, user, clientUserID string) map[string]any {
		t.Helper()
		d := ga.ok(t, `mutation($in: CreateItemInput!) { createItem(input: $in) { `+itemFields+` } }`,
			map[string]any{"in": map[string]any{"connectorId": connector, "clientUserId": clientUserID,
				"parameters": map[string]any{"user": user, "password": "password-ok"}}})
		return d["createItem"].(map[string]any)
	}

	ok := create(t, 0, "user-ok", "alice")
	if ok["status"] != "UPDATING" || at(t, ok, "connector.id") != 0.0 || ok["clientUserId"] != "alice" || ok["lastUpdatedAt"] != nil {
		t.Fatalf("created item %v", ok)
	}
	okID := str(t, ok, "id")
	waitItem(t, ga, okID)
	done := ga.ok(t, `query($id: UUID!) { item(id: $id) { `+itemFields+` } }`, map[string]any{"id": okID})["item"]
	if at(t, done, "status") != "UPDATED" || at(t, done, "executionStatus") != "SUCCESS" || at(t, done, "error") != nil ||
		!testsupport.IsAPITime(at(t, done, "lastUpdatedAt")) || at(t, done, "statusDetail") != nil {
		t.Fatalf("finished item %v", done)
	}
	if !slices.Contains(list(t, done, "products"), any("TRANSACTIONS")) {
		t.Fatalf("default products %v", at(t, done, "products"))
	}

	logged := create(t, 0, "user-logged", "bob")
	loggedID := str(t, logged, "id")
	waitItem(t, ga, loggedID)
	failed := ga.ok(t, `query($id: UUID!) { item(id: $id) { `+itemFields+` } }`, map[string]any{"id": loggedID})["item"]
	if at(t, failed, "status") != "LOGIN_ERROR" || at(t, failed, "error.code") != "ALREADY_LOGGED_IN" ||
		at(t, failed, "consecutiveFailedLoginAttempts") != 1.0 {
		t.Fatalf("failed item %v", failed)
	}

	t.Run("MFA", func(t *testing.T) {
		mfa := create(t, 1, "user-ok", "alice")
		id := str(t, mfa, "id")
		waiting := waitItem(t, ga, id)
		if waiting["status"] != "WAITING_USER_INPUT" || at(t, waiting, "parameter.name") != "token" || at(t, waiting, "parameter.mfa") != true ||
			!testsupport.IsAPITime(at(t, waiting, "parameter.expiresAt")) {
			t.Fatalf("waiting item %v", waiting)
		}
		const submit = `mutation($id: UUID!, $p: Map!) { submitItemMFA(id: $id, parameters: $p) { id status } }`
		r := ga.fails(t, submit, map[string]any{"id": id, "p": map[string]any{"nope": "1"}}, "ITEM_MFA_PARAMETER_EXPECTED_MISMATCH", 400)
		if !strings.Contains(r.Errors[0].Message, "token") {
			t.Fatalf("the refusal does not name the parameter: %q", r.Errors[0].Message)
		}
		gb.fails(t, submit, map[string]any{"id": id, "p": map[string]any{"token": "123456"}}, "ITEM_NOT_FOUND", 404)
		d := ga.ok(t, submit, map[string]any{"id": id, "p": map[string]any{"token": "123456"}})
		if at(t, d, "submitItemMFA.id") != id {
			t.Fatalf("answered %v", d)
		}
		if final := waitItem(t, ga, id); final["status"] != "UPDATED" || final["executionStatus"] != "SUCCESS" {
			t.Fatalf("after MFA %v", final)
		}
		ga.fails(t, submit, map[string]any{"id": id, "p": map[string]any{"token": "123456"}}, "ITEM_MFA_NOT_FOUND", 404)
	})

	t.Run("lists, filters and pages", func(t *testing.T) {
		// Three items of A by now, newest first: the MFA one, the failed one, the first.
		const items = `query($u: String, $c: Int, $after: String) { items(clientUserId: $u, connectorId: $c, after: $after) { results { id clientUserId } next } }`
		ga.fails(t, items, nil, "ITEMS_V2_DISABLED", 403)
		env.Exec(t, `UPDATE client_applications SET items_v2_enabled = true WHERE id = $1`, a.ID)
		all := ga.ok(t, items, nil)
		got := ids(t, all, "items.results")
		if len(got) != 3 || got[1] != loggedID || got[2] != okID || at(t, all, "items.next") != nil {
			t.Fatalf("items %v", all)
		}
		mfaID := got[0]
		if got := ids(t, ga.ok(t, items, map[string]any{"u": "alice"}), "items.results"); !slices.Equal(got, []string{mfaID, okID}) {
			t.Fatalf("clientUserId alice: %v", got)
		}
		if got := ids(t, ga.ok(t, items, map[string]any{"c": 1}), "items.results"); !slices.Equal(got, []string{mfaID}) {
			t.Fatalf("connectorId 1: %v", got)
		}
		if got := ids(t, ga.ok(t, items, map[string]any{"u": "nobody"}), "items.results"); len(got) != 0 {
			t.Fatalf("clientUserId nobody: %v", got)
		}
		ga.fails(t, items, map[string]any{"after": "garbage"}, "INVALID_CURSOR", 400)
		if got := ids(t, caller(env, env.NewClient(t, "items-c").APIKey).ok(t, `{ itemConnection { nodes { id } } }`, nil), "itemConnection.nodes"); len(got) != 0 {
			t.Fatalf("another application sees %v", got)
		}

		const conn = `query($first: Int, $after: String, $u: String) { itemConnection(first: $first, after: $after, clientUserId: $u) {
			totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id } } nodes { id status } } }`
		p1 := ga.ok(t, conn, map[string]any{"first": 2})
		if num(t, p1, "itemConnection.totalCount") != 3 || at(t, p1, "itemConnection.pageInfo.hasNextPage") != true ||
			!slices.Equal(ids(t, p1, "itemConnection.nodes"), []string{mfaID, loggedID}) ||
			str(t, p1, "itemConnection.edges.1.cursor") != str(t, p1, "itemConnection.pageInfo.endCursor") ||
			str(t, p1, "itemConnection.edges.0.node.id") != mfaID {
			t.Fatalf("first page %v", p1)
		}
		p2 := ga.ok(t, conn, map[string]any{"first": 2, "after": str(t, p1, "itemConnection.pageInfo.endCursor")})
		if !slices.Equal(ids(t, p2, "itemConnection.nodes"), []string{okID}) || at(t, p2, "itemConnection.pageInfo.hasNextPage") != false {
			t.Fatalf("second page %v", p2)
		}
		if f := ga.ok(t, conn, map[string]any{"u": "bob"}); num(t, f, "itemConnection.totalCount") != 1 ||
			!slices.Equal(ids(t, f, "itemConnection.nodes"), []string{loggedID}) {
			t.Fatalf("filtered connection %v", f)
		}
		for _, first := range []int{0, 501} {
			ga.fails(t, conn, map[string]any{"first": first}, "INVALID_PARAMETER", 400)
		}
	})

	t.Run("update", func(t *testing.T) {
		const update = `mutation($id: UUID!, $in: UpdateItemInput) { updateItem(id: $id, input: $in) { id status clientUserId } }`
		d := ga.ok(t, update, map[string]any{"id": okID, "in": map[string]any{"clientUserId": "alice-2"}})
		if at(t, d, "updateItem.status") != "UPDATING" || at(t, d, "updateItem.clientUserId") != "alice-2" {
			t.Fatalf("updated %v", d)
		}
		if it := waitItem(t, ga, okID); it["status"] != "UPDATED" {
			t.Fatalf("after the update %v", it)
		}
		// No input: a sync with the stored credentials.
		if d := ga.ok(t, update, map[string]any{"id": okID}); at(t, d, "updateItem.clientUserId") != "alice-2" {
			t.Fatalf("sync %v", d)
		}
		waitItem(t, ga, okID)
		ga.fails(t, update, map[string]any{"id": okID, "in": map[string]any{"parameters": map[string]any{"user": "x"}}}, "CONNECTOR_VALIDATION_ERROR", 400)
		gb.fails(t, update, map[string]any{"id": okID}, "ITEM_NOT_FOUND", 404)
	})

	t.Run("refusals", func(t *testing.T) {
		const create = `mutation($in: CreateItemInput!) { createItem(input: $in) { id } }`
		params := map[string]any{"user": "user-ok", "password": "password-ok"}
		ga.fails(t, create, map[string]any{"in": map[string]any{"connectorId": 4242, "parameters": params}}, "CONNECTOR_NOT_FOUND", 404)
		ga.fails(t, create, map[string]any{"in": map[string]any{"connectorId": 0, "parameters": map[string]any{"user": "x"}}}, "CONNECTOR_VALIDATION_ERROR", 400)
		ga.fails(t, create, map[string]any{"in": map[string]any{"connectorId": 7, "parameters": map[string]any{"cpf": happyCPF, "password": "12345678"}}},
			"CONNECTOR_OFFLINE", 409)
		ga.fails(t, `{ item(id: "not-a-uuid") { id } }`, nil, "INVALID_REQUEST", 400)
		ga.fails(t, `query($id: UUID!) { item(id: $id) { id } }`, map[string]any{"id": uuid.NewString()}, "ITEM_NOT_FOUND", 404)
		gb.fails(t, `query($id: UUID!) { item(id: $id) { id } }`, map[string]any{"id": okID}, "ITEM_NOT_FOUND", 404)
		ga.fails(t, `query($id: UUID!) { itemResources(itemId: $id) { total } }`, map[string]any{"id": okID}, "ITEM_NOT_OPEN_FINANCE", 400)
		caller(env, "").fails(t, `{ item(id: "`+okID+`") { id } }`, nil, "API_KEY_MISSING", 401)
		caller(env, "not-a-key").fails(t, `{ item(id: "`+okID+`") { id } }`, nil, "API_KEY_INVALID", 401)
	})

	t.Run("events of the item", func(t *testing.T) {
		d := ga.ok(t, `query($id: UUID) { events(itemId: $id) { id event payload createdAt deliveries { id } } }`, map[string]any{"id": okID})
		var names []string
		for i := range list(t, d, "events") {
			names = append(names, str(t, d, fmt.Sprintf("events.%d.event", i)))
			if at(t, d, fmt.Sprintf("events.%d.payload.itemId", i)) != okID {
				t.Fatalf("event of another item: %v", at(t, d, fmt.Sprintf("events.%d", i)))
			}
		}
		for _, want := range []string{"item/created", "item/updated"} {
			if !slices.Contains(names, want) {
				t.Fatalf("events %v lack %s", names, want)
			}
		}
		if got := list(t, gb.ok(t, `query($id: UUID) { events(itemId: $id) { id } }`, map[string]any{"id": okID}), "events"); len(got) != 0 {
			t.Fatalf("another application reads the item's events: %v", got)
		}
	})

	t.Run("delete", func(t *testing.T) {
		const del = `mutation($id: UUID!) { deleteItem(id: $id) { id status clientUserId } }`
		gb.fails(t, del, map[string]any{"id": loggedID}, "ITEM_NOT_FOUND", 404)
		d := ga.ok(t, del, map[string]any{"id": loggedID})
		if at(t, d, "deleteItem.id") != loggedID || at(t, d, "deleteItem.clientUserId") != "bob" {
			t.Fatalf("deleted %v", d)
		}
		ga.fails(t, `query($id: UUID!) { item(id: $id) { id } }`, map[string]any{"id": loggedID}, "ITEM_NOT_FOUND", 404)
		ga.fails(t, del, map[string]any{"id": loggedID}, "ITEM_NOT_FOUND", 404)
		if n := num(t, ga.ok(t, `{ itemConnection { totalCount } }`, nil), "itemConnection.totalCount"); n != 2 {
			t.Fatalf("%v items after the deletion", n)
		}
	})
}
