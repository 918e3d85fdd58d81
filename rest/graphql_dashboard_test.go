package rest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"ponte/model"
	"ponte/testsupport"
)

// TestGraphQLDashboard checks the dashboard's query: an item's accounts with a few
// transactions each, and one account with its first page, in two statements (one per
// root field), agreeing row for row with REST; and that the account's own resolver still
// answers what the combined read cannot: another application's account, refused
// arguments (reported on transactions, the account still read), empty pages, later pages.
// The account list cache is off: with it, a list read before is no statement at all.
func TestGraphQLDashboard(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t, func(s *testsupport.Setup) { s.UncachedAccountLists = true })
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
	// The end cursor is signed only when pageInfo is read, through a fragment too; it is the
	// last edge's cursor.
	frag := env.GraphQL(t, key, `query($a: UUID!) { account(id: $a) { transactions(first: 50) { ...page edges { cursor } } } }
		fragment page on TransactionConnection { pageInfo { endCursor } }`, map[string]any{"a": account}).OK(t)
	tx := frag["account"].(map[string]any)["transactions"].(map[string]any)
	edges := tx["edges"].([]any)
	if end := tx["pageInfo"].(map[string]any)["endCursor"]; end == nil || end != pageInfo["endCursor"] || edges[len(edges)-1].(map[string]any)["cursor"] != end {
		t.Fatalf("end cursor through a fragment %v, plain %v, last edge's %v", end, pageInfo["endCursor"], edges[len(edges)-1])
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

// allAccountFields is every stored field of an account, nested objects included.
const allAccountFields = `id itemId type subtype number balance name marketingName owner taxNumber currencyCode createdAt updatedAt
	bankData { transferNumber closingBalance automaticallyInvestedBalance overdraftContractedLimit overdraftUsedLimit
		unarrangedOverdraftAmount hasReservedBalance reservedBalances }
	creditData { level brand balanceCloseDate balanceDueDate availableCreditLimit balanceForeignCurrency minimumPayment creditLimit
		isLimitFlexible status holderType additionalCards { number holder }
		disaggregatedCreditLimits { creditLineLimitType consolidationType identificationNumber isLimitFlexible usedAmount
			usedAmountCurrencyCode lineName limitAmount limitAmountCurrencyCode availableAmount availableAmountCurrencyCode } }`

// TestGraphQLProjectedAccounts checks that accounts(itemId)'s results, which GraphQL writes
// from the stored documents when they ask for stored fields only, answer exactly what
// gqlgen's typed marshalling of account(id) answers (values, nulls, aliases, __typename,
// directives, key order), for an API key and for a Connect Token's reduced view; and that
// a selection with a resolver's field still works.
func TestGraphQLProjectedAccounts(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "graphql-projected-accounts").APIKey
	item := createItem(t, env, key, 0, map[string]any{"user": "user-ok", "password": "password-ok"}).ID.String()
	env.WaitItem(t, key, item, testsupport.Settled)
	tok := env.Do(t, "POST", "/connect_token", key, map[string]any{"itemId": item}).Want(200).String("accessToken")
	// Map values (reservedBalances) are compared apart: the projection keeps the stored
	// document's key order, as REST sends it, where gqlgen's Map marshalling sorts the keys.
	selection := `fragment A on Account { ` + strings.Replace(allAccountFields, " reservedBalances", "", 1) +
		` __typename again: name gone: id @skip(if: $yes) kept: id @include(if: $yes) }`
	const balances = `fragment A on Account { bankData { reservedBalances } }`
	for _, c := range []struct{ name, key string }{{"API key", key}, {"Connect Token", tok}} {
		t.Run(c.name, func(t *testing.T) {
			g := env.GraphQL(t, c.key, selection+` query($i: UUID!, $yes: Boolean!) { accounts(itemId: $i) { total results { ...A } } }`,
				map[string]any{"i": item, "yes": true})
			var list struct {
				Data struct {
					Accounts struct {
						Total   int               `json:"total"`
						Results []json.RawMessage `json:"results"`
					} `json:"accounts"`
				} `json:"data"`
			}
			raw := env.Do(t, "POST", "/graphql", c.key, map[string]any{"query": selection + ` query($i: UUID!, $yes: Boolean!) { accounts(itemId: $i) { total results { ...A } } }`,
				"variables": map[string]any{"i": item, "yes": true}}).Want(200)
			raw.JSON(&list)
			g.OK(t)
			if n := len(list.Data.Accounts.Results); n < 2 || list.Data.Accounts.Total != n {
				t.Fatalf("%d accounts, total %d", n, list.Data.Accounts.Total)
			}
			for _, projected := range list.Data.Accounts.Results {
				var id struct{ ID string }
				_ = json.Unmarshal(projected, &id)
				var one struct {
					Data struct {
						Account json.RawMessage `json:"account"`
					} `json:"data"`
				}
				env.Do(t, "POST", "/graphql", c.key, map[string]any{"query": selection + ` query($a: UUID!, $yes: Boolean!) { account(id: $a) { ...A } }`,
					"variables": map[string]any{"a": id.ID, "yes": true}}).JSON(&one)
				if c.key == tok {
					// A Connect Token may not read an account by id; its reduced view has
					// no balance, owner or bank data.
					var a map[string]any
					_ = json.Unmarshal(projected, &a)
					if a["balance"] != nil || a["owner"] != nil || a["bankData"] != nil || a["name"] == nil {
						t.Fatalf("Connect Token sees %s", projected)
					}
					continue
				}
				if !bytes.Equal(projected, one.Data.Account) {
					t.Fatalf("projected account differs from typed:\n%s\n%s", projected, one.Data.Account)
				}
				listed := env.GraphQL(t, c.key, balances+` query($i: UUID!) { accounts(itemId: $i) { results { id ...A } } }`, map[string]any{"i": item}).OK(t)
				typed := env.GraphQL(t, c.key, balances+` query($a: UUID!) { account(id: $a) { ...A } }`, map[string]any{"a": id.ID}).OK(t)
				for _, r := range listed["accounts"].(map[string]any)["results"].([]any) {
					if r.(map[string]any)["id"] == id.ID {
						delete(r.(map[string]any), "id")
						if !reflect.DeepEqual(r, typed["account"]) {
							t.Fatalf("reservedBalances differ:\n%v\n%v", r, typed["account"])
						}
					}
				}
			}
		})
	}
	// The list comes from the documents: its Map values are the stored bytes. Stored in the
	// form documents written before migration 0023 keep until their next sync (jsonb's
	// text: keys by length, a space after each colon), they come out so, where the typed
	// path would sort and compact them; REST sends such documents as they are.
	// A change made in the database, not by the service, reaches the account list cache
	// with its notice: the list is asked for until it shows.
	env.Exec(t, `UPDATE accounts SET data = data::jsonb::text WHERE item_id = $1`, item)
	var body []byte
	testsupport.Eventually(t, "the stored documents in jsonb's form", 10*time.Second, func() bool {
		body = env.Do(t, "POST", "/graphql", key, map[string]any{"query": balances + ` query($i: UUID!) { accounts(itemId: $i) { results { ...A } } }`,
			"variables": map[string]any{"i": item}}).Want(200).Body
		return bytes.Contains(body, []byte(`"reservedBalances":[{"name": "`))
	})
	var rest model.AccountPage
	env.Do(t, "GET", "/accounts?itemId="+item, key, nil).Want(200).JSON(&rest)
	if len(rest.Results) < 2 || rest.Results[0].CreatedAt.IsZero() {
		t.Fatalf("REST's list of documents in jsonb's form: %+v", rest)
	}
	// A resolver's field under results takes the typed path, which still agrees.
	g := env.GraphQL(t, key, `query($i: UUID!) { accounts(itemId: $i) { results { id name transactions(first: 2) { nodes { id } } } } }`,
		map[string]any{"i": item}).OK(t)
	for _, r := range g["accounts"].(map[string]any)["results"].([]any) {
		if r.(map[string]any)["name"] == nil || r.(map[string]any)["transactions"] == nil {
			t.Fatalf("result %v", r)
		}
	}
}
