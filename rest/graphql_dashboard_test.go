package rest_test

import (
	"fmt"
	"testing"

	"ponte/testsupport"
)

// TestGraphQLDashboard checks the dashboard's query: an item's accounts with a few
// transactions each, and one account with its first page, in two statements (one per
// root field), agreeing row for row with REST; and that the account's own resolver still
// answers what the combined read cannot: another application's account, refused
// arguments (reported on transactions, the account still read), empty pages, later pages.
func TestGraphQLDashboard(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "graphql-dashboard").APIKey
	other := env.NewClient(t, "graphql-dashboard-other").APIKey
	item := createItem(t, env, key, 0, map[string]any{"user": "user-ok-perf-1", "password": "password-ok"}).ID.String()
	env.WaitItem(t, key, item, testsupport.Settled)
	var accounts struct {
		Results []struct {
			ID      string `json:"id"`
			Subtype string `json:"subtype"`
		} `json:"results"`
	}
	env.Do(t, "GET", "/accounts?itemId="+item, key, nil).Want(200).JSON(&accounts)
	var account string
	for _, a := range accounts.Results {
		if a.Subtype == "CHECKING_ACCOUNT" {
			account = a.ID
		}
	}
	var rest []string
	for path := "/v2/transactions?accountId=" + account; len(rest) < 60; {
		var page txPage
		env.Do(t, "GET", path, key, nil).Want(200).JSON(&page)
		for _, tx := range page.Results {
			rest = append(rest, tx.ID.String())
		}
		if page.Next == nil {
			break
		}
		path = "/v2/transactions" + *page.Next
	}
	if len(rest) < 60 {
		t.Fatalf("the checking account has %d transactions; the test needs 60", len(rest))
	}
	ids := func(conn any) []string {
		var out []string
		for _, n := range conn.(map[string]any)["nodes"].([]any) {
			out = append(out, n.(map[string]any)["id"].(string))
		}
		return out
	}

	g := env.GraphQL(t, key, `query($i: UUID!, $a: UUID!) {
		accounts(itemId: $i) { results { id name balance } }
		account(id: $a) { id name transactions(first: 50) { pageInfo { hasNextPage endCursor } nodes { id amount } } } }`,
		map[string]any{"i": item, "a": account})
	data := g.OK(t)
	if n := g.Extensions["sqlStatements"]; n != float64(2) {
		t.Errorf("the dashboard ran %v statements, want 2", n)
	}
	// Each account's first rows: one more statement, however many accounts.
	withRows := env.GraphQL(t, key, `query($i: UUID!) { accounts(itemId: $i) { results { id transactions(first: 3) { nodes { id } } } } }`,
		map[string]any{"i": item})
	if n := withRows.Extensions["sqlStatements"]; n != float64(2) {
		t.Errorf("accounts with their transactions ran %v statements, want 2", n)
	}
	acc := data["account"].(map[string]any)
	if acc["id"] != account || acc["name"] == nil {
		t.Fatalf("account %v", acc)
	}
	if got := ids(acc["transactions"]); fmt.Sprint(got) != fmt.Sprint(rest[:50]) {
		t.Fatalf("account's first page differs from REST:\n%v\n%v", got, rest[:50])
	}
	results := withRows.OK(t)["accounts"].(map[string]any)["results"].([]any)
	if len(results) != len(accounts.Results) {
		t.Fatalf("%d accounts, REST has %d", len(results), len(accounts.Results))
	}
	for _, r := range results {
		if r.(map[string]any)["id"] == account {
			if got := ids(r.(map[string]any)["transactions"]); fmt.Sprint(got) != fmt.Sprint(rest[:3]) {
				t.Fatalf("accounts' first three differ from REST: %v", got)
			}
		}
	}
	pageInfo := acc["transactions"].(map[string]any)["pageInfo"].(map[string]any)
	if pageInfo["hasNextPage"] != true {
		t.Fatalf("pageInfo %v", pageInfo)
	}
	next := env.GraphQL(t, key, `query($a: UUID!, $c: String) { account(id: $a) { transactions(first: 10, after: $c) { nodes { id } } } }`,
		map[string]any{"a": account, "c": pageInfo["endCursor"]}).OK(t)
	if got := ids(next["account"].(map[string]any)["transactions"]); fmt.Sprint(got) != fmt.Sprint(rest[50:60]) {
		t.Fatalf("the page after the cursor differs from REST: %v", got)
	}

	// Asked only for its transactions (and id), the account's document is not read; the
	// owner check still holds.
	bare := env.GraphQL(t, key, `query($a: UUID!) { account(id: $a) { id __typename transactions(first: 3) { nodes { id } } } }`,
		map[string]any{"a": account}).OK(t)["account"].(map[string]any)
	if bare["id"] != account || bare["__typename"] != "Account" || fmt.Sprint(ids(bare["transactions"])) != fmt.Sprint(rest[:3]) {
		t.Fatalf("account with its transactions only: %v", bare)
	}
	g = env.GraphQL(t, other, `query($a: UUID!) { account(id: $a) { transactions(first: 3) { nodes { id } } } }`, map[string]any{"a": account})
	g.WantCode(t, "ACCOUNT_NOT_FOUND")

	const accountWith = `query($a: UUID!) { account(id: $a) { name transactions%s { pageInfo { hasNextPage } nodes { id } } } }`
	for _, c := range []struct {
		name, args, key string
		code, path      string // a refusal, and where the query put it
		rows            []string
	}{
		{"first page of one", "(first: 1)", key, "", "", rest[:1]},
		{"no arguments", "", key, "", "", rest[:50]},
		{"ids", fmt.Sprintf(`(filter: {ids: ["%s", "%s"]})`, rest[7], rest[2]), key, "", "", []string{rest[2], rest[7]}},
		{"nothing in the range", `(filter: {dateFrom: "2999-01-01T00:00:00.000Z"})`, key, "", "", nil},
		{"first zero", "(first: 0)", key, "INVALID_PARAMETER", "[account transactions]", nil},
		{"first too large", "(first: 501)", key, "INVALID_PARAMETER", "[account transactions]", nil},
		{"range ends before it starts", `(filter: {dateFrom: "2024-02-01T00:00:00.000Z", dateTo: "2024-01-01T00:00:00.000Z"})`, key,
			"INVALID_PARAMETER", "[account transactions]", nil},
		{"another application's account", "(first: 5)", other, "ACCOUNT_NOT_FOUND", "[account]", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := env.GraphQL(t, c.key, fmt.Sprintf(accountWith, c.args), map[string]any{"a": account})
			if c.code != "" {
				g.WantCode(t, c.code)
				if got := fmt.Sprint(g.Errors[0].Path); got != c.path {
					t.Fatalf("%s at %s, want at %s", c.code, got, c.path)
				}
				return
			}
			acc := g.OK(t)["account"].(map[string]any)
			if acc["name"] == nil {
				t.Fatalf("account %v", acc)
			}
			if got := ids(acc["transactions"]); fmt.Sprint(got) != fmt.Sprint(c.rows) {
				t.Fatalf("rows %v, want %v", got, c.rows)
			}
		})
	}

	// Owners are remembered after the first check (collected/owners.go); a deleted item's
	// accounts must still answer as unknown, through both root fields and REST's pages, to
	// both clients.
	pages := "/v2/transactions?accountId=" + account
	env.Do(t, "GET", pages, key, nil).Want(200)
	env.Do(t, "GET", pages, other, nil).WantError(404, "ACCOUNT_NOT_FOUND")
	env.Do(t, "GET", "/accounts?itemId="+item, key, nil).Want(200)
	env.Do(t, "GET", "/accounts?itemId="+item, other, nil).WantError(404, "ITEM_NOT_FOUND")
	env.Do(t, "DELETE", "/items/"+item, key, nil).Want(200)
	for _, k := range []string{key, other} {
		env.Do(t, "GET", pages, k, nil).WantError(404, "ACCOUNT_NOT_FOUND")
		env.Do(t, "GET", "/accounts?itemId="+item, k, nil).WantError(404, "ITEM_NOT_FOUND")
		env.GraphQL(t, k, `query($a: UUID!) { account(id: $a) { transactions(first: 3) { nodes { id } } } }`, map[string]any{"a": account}).
			WantCode(t, "ACCOUNT_NOT_FOUND")
		env.GraphQL(t, k, `query($i: UUID!) { accounts(itemId: $i) { results { id } } }`, map[string]any{"i": item}).
			WantCode(t, "ITEM_NOT_FOUND")
	}
}
