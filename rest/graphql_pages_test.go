package rest_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"ponte/testsupport"
)

// The page-number forms of the product lists and of GET /transactions, and each stored
// resource's storedDocument, are the GraphQL fields REST calls: through GraphQL they answer
// what REST sends, whether the results are written from the documents (stored fields only)
// or decoded for a field a resolver computes.
func TestGraphQLDocumentPages(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "graphql-pages").APIKey
	it := createItem(t, env, key, 0, map[string]any{"user": "user-ok", "password": "password-ok"})
	item := it.ID.String()
	env.WaitItem(t, key, item, testsupport.Settled)
	var accounts struct {
		Results []struct{ ID, Subtype string }
	}
	env.Do(t, "GET", "/accounts?itemId="+item, key, nil).Want(200).JSON(&accounts)
	bySubtype := map[string]string{}
	for _, a := range accounts.Results {
		bySubtype[a.Subtype] = a.ID
	}
	investments := env.Do(t, "GET", "/investments?itemId="+item+"&pageSize=2", key, nil).Want(200).Map()
	investment := investments["results"].([]any)[0].(map[string]any)["id"].(string)

	ids := func(list []any) string {
		out := ""
		for _, r := range list {
			out += r.(map[string]any)["id"].(string) + " "
		}
		return out
	}
	for _, c := range []struct {
		path, field, args string
		vars              map[string]any
	}{
		{"/investments?itemId=" + item + "&pageSize=2&page=2", "investmentsPage", "itemId: $id, pageSize: 2, page: 2", map[string]any{"id": item}},
		{"/investments/" + investment + "/transactions", "investmentTransactionsPage", "investmentId: $id", map[string]any{"id": investment}},
		{"/loans?itemId=" + item, "loansPage", "itemId: $id", map[string]any{"id": item}},
		{"/bills?accountId=" + bySubtype["CREDIT_CARD"] + "&pageSize=3", "billsPage", "accountId: $id, pageSize: 3", map[string]any{"id": bySubtype["CREDIT_CARD"]}},
		{"/accounts/" + bySubtype["CHECKING_ACCOUNT"] + "/statements", "accountStatementsPage", "accountId: $id", map[string]any{"id": bySubtype["CHECKING_ACCOUNT"]}},
		{"/consents?itemId=" + item, "consentsPage", "itemId: $id", map[string]any{"id": item}},
		{"/transactions?accountId=" + bySubtype["CHECKING_ACCOUNT"] + "&pageSize=7&page=3", "transactionsPage", "accountId: $id, pageSize: 7, page: 3", map[string]any{"id": bySubtype["CHECKING_ACCOUNT"]}},
	} {
		t.Run(c.field, func(t *testing.T) {
			rest := env.Do(t, "GET", c.path, key, nil).Want(200).Map()
			d := env.GraphQL(t, key, `query($id: UUID!) { p: `+c.field+`(`+c.args+`) { total totalPages page results { __typename id } } }`, c.vars).OK(t)
			got := d["p"].(map[string]any)
			for _, k := range []string{"total", "totalPages", "page"} {
				if got[k] != rest[k] {
					t.Fatalf("%s: GraphQL %v, REST %v", k, got[k], rest[k])
				}
			}
			if g, r := ids(got["results"].([]any)), ids(rest["results"].([]any)); g != r {
				t.Fatalf("results: GraphQL %s, REST %s", g, r)
			}
		})
	}

	t.Run("results a resolver reads are decoded", func(t *testing.T) {
		d := env.GraphQL(t, key, `query($id: UUID!) { investmentsPage(itemId: $id) { results { id storedDocument transactions(first: 1) { totalCount } } }
			accounts(itemId: $id) { results { id name transactions(first: 2) { nodes { id } } } } }`, map[string]any{"id": item}).OK(t)
		results := d["investmentsPage"].(map[string]any)["results"].([]any)
		if len(results) != len(investments["results"].([]any)) && len(results) < 2 {
			t.Fatalf("investments %v", results)
		}
		for _, r := range results {
			inv := r.(map[string]any)
			doc := inv["storedDocument"].(map[string]any)
			if doc["id"] != inv["id"] || inv["transactions"].(map[string]any)["totalCount"].(float64) < 0 {
				t.Fatalf("investment %v", inv)
			}
		}
		for _, r := range d["accounts"].(map[string]any)["results"].([]any) {
			a := r.(map[string]any)
			if a["name"] == "" || a["transactions"] == nil {
				t.Fatalf("account %v", a)
			}
		}
	})

	t.Run("storedDocument is the REST body", func(t *testing.T) {
		tx := env.Do(t, "GET", "/v2/transactions?accountId="+bySubtype["CHECKING_ACCOUNT"], key, nil).Want(200).Map()
		txID := tx["results"].([]any)[0].(map[string]any)["id"].(string)
		identity := env.Do(t, "GET", "/identity?itemId="+item, key, nil).Want(200).Map()
		for _, c := range []struct{ path, query, field string }{
			{"/transactions/" + txID, `transaction(id: "` + txID + `")`, "transaction"},
			{"/investments/" + investment, `investment(id: "` + investment + `")`, "investment"},
			{"/identity/" + identity["id"].(string), `identity(itemId: "` + item + `")`, "identity"},
		} {
			rest := env.Do(t, "GET", c.path, key, nil).Want(200).Map()
			d := env.GraphQL(t, key, `{ `+c.query+` { id storedDocument } }`, nil).OK(t)
			got, _ := json.Marshal(d[c.field].(map[string]any)["storedDocument"])
			want, _ := json.Marshal(rest)
			if string(got) != string(want) {
				t.Fatalf("%s: GraphQL %s, REST %s", c.field, got, want)
			}
		}
		// Projected lists write it whole too.
		d := env.GraphQL(t, key, `query($a: UUID!) { transactions(accountId: $a, first: 2) { nodes { storedDocument } edges { node { id storedDocument } } } }`,
			map[string]any{"a": bySubtype["CHECKING_ACCOUNT"]}).OK(t)
		conn := d["transactions"].(map[string]any)
		first := conn["nodes"].([]any)[0].(map[string]any)["storedDocument"]
		edge := conn["edges"].([]any)[0].(map[string]any)["node"].(map[string]any)
		if fmt.Sprint(first) != fmt.Sprint(tx["results"].([]any)[0]) || fmt.Sprint(edge["storedDocument"]) != fmt.Sprint(first) {
			t.Fatalf("a projected node's storedDocument %v, REST %v", first, tx["results"].([]any)[0])
		}
	})
}
