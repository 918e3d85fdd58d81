package rest_test

import (
	"encoding/json"
	"testing"

	"ponte/testsupport"
)

// TestGraphQLEveryFieldPages reads an account's transactions the way a client that wants
// everything does, every field of every row through Account.transactions(first: 500), and
// checks each page against the same page of GET /v2/transactions: the same rows in the
// same order, and every field GraphQL answers equal to REST's (a field REST leaves out is
// null in GraphQL), nested objects included; the page's edges beside its nodes.
func TestGraphQLEveryFieldPages(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "graphql-every-field").APIKey
	it := createItem(t, env, key, 0, map[string]any{"user": "user-ok-perf-3", "password": "password-ok"})
	env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
	account := env.AccountIDs(t, key, it.ID.String())["CHECKING_ACCOUNT"]

	var after any
	path := "/v2/transactions?accountId=" + account
	rows, pages := 0, 0
	for ; ; pages++ {
		var rest struct {
			Results []map[string]any `json:"results"`
			Next    *string          `json:"next"`
		}
		env.Do(t, "GET", path, key, nil).Want(200).JSON(&rest)
		data := graphQLJSON(t, env, key, accountTxQuery("nodes { "+allTxFields+" } edges { cursor node { id amount } }"), map[string]any{"a": account, "after": after})
		var g struct {
			Account struct {
				Transactions struct {
					PageInfo struct {
						HasNextPage bool `json:"hasNextPage"`
						EndCursor   any  `json:"endCursor"`
					} `json:"pageInfo"`
					Nodes []map[string]any `json:"nodes"`
					Edges []struct {
						Cursor string         `json:"cursor"`
						Node   map[string]any `json:"node"`
					} `json:"edges"`
				} `json:"transactions"`
			} `json:"account"`
		}
		if err := json.Unmarshal(data, &g); err != nil {
			t.Fatal(err)
		}
		conn := g.Account.Transactions
		if len(conn.Nodes) != len(rest.Results) {
			t.Fatalf("page %d: GraphQL %d rows, REST %d", pages, len(conn.Nodes), len(rest.Results))
		}
		// A page of 500 is written in chunks (graph/projectlist.go): the edges must follow
		// the nodes row for row, and the last cursor be the page's end.
		if len(conn.Edges) != len(conn.Nodes) || len(conn.Edges) > 0 && conn.Edges[len(conn.Edges)-1].Cursor != conn.PageInfo.EndCursor {
			t.Fatalf("page %d: %d edges for %d nodes, last cursor against endCursor %v", pages, len(conn.Edges), len(conn.Nodes), conn.PageInfo.EndCursor)
		}
		for i, n := range conn.Nodes {
			if e := conn.Edges[i]; e.Node["id"] != n["id"] || e.Node["amount"] != n["amount"] || e.Cursor == "" {
				t.Fatalf("page %d row %d: edge %v for node %v", pages, i, e, n["id"])
			}
			if n["id"] != rest.Results[i]["id"] {
				t.Fatalf("page %d row %d: GraphQL %v, REST %v", pages, i, n["id"], rest.Results[i]["id"])
			}
			if len(n) < 20 {
				t.Fatalf("page %d row %d: GraphQL answered %d fields", pages, i, len(n))
			}
			sameFields(t, "transaction "+n["id"].(string), n, rest.Results[i])
		}
		rows += len(conn.Nodes)
		if conn.PageInfo.HasNextPage != (rest.Next != nil) {
			t.Fatalf("page %d: GraphQL hasNextPage %v, REST next %v", pages, conn.PageInfo.HasNextPage, rest.Next)
		}
		if rest.Next == nil {
			break
		}
		path, after = "/v2/transactions"+*rest.Next, conn.PageInfo.EndCursor
	}
	if pages < 1 || rows <= 500 {
		t.Fatalf("%d rows in %d pages: the test needs more than one page", rows, pages+1)
	}
}

// graphQLJSON runs a query that must succeed and returns its data as it came.
func graphQLJSON(t *testing.T, env *testsupport.Env, key, query string, vars map[string]any) json.RawMessage {
	t.Helper()
	var out struct {
		Data   json.RawMessage `json:"data"`
		Errors []any           `json:"errors"`
	}
	env.Do(t, "POST", "/graphql", key, map[string]any{"query": query, "variables": vars}).Want(200).JSON(&out)
	if len(out.Errors) > 0 {
		t.Fatalf("errors: %v", out.Errors)
	}
	return out.Data
}
