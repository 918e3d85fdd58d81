package rest_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/uuid"

	"ponte/testsupport"
)

// txFields is every scalar and nested field of a transaction, for comparing GraphQL's
// answer with REST's document.
const txFields = `id accountId date description descriptionRaw type amount amountInAccountCurrency balance currencyCode
	category categoryId status providerCode providerId operationType operationTypeAdditionalInfo order createdAt updatedAt
	merchant { name businessName cnpj cnae category }
	creditCardMetadata { installmentNumber totalInstallments totalAmount payeeMCC purchaseDate billId cardNumber }
	paymentData { paymentMethod referenceNumber reason receiverReferenceId
		payer { name accountNumber branchNumber routingNumber routingNumberISPB documentNumber { type value } }
		receiver { name accountNumber branchNumber routingNumber routingNumberISPB documentNumber { type value } }
		boletoMetadata { digitableLine barcode baseAmount penaltyAmount interestAmount discountAmount } }`

// sameFields fails unless every field GraphQL answered equals REST's value (absent in REST
// counts as null).
func sameFields(t *testing.T, what string, gql, rest map[string]any) {
	t.Helper()
	for k, g := range gql {
		r := rest[k]
		if gm, ok := g.(map[string]any); ok && r != nil {
			sameFields(t, what+"."+k, gm, r.(map[string]any))
			continue
		}
		if fmt.Sprint(g) != fmt.Sprint(r) {
			t.Fatalf("%s.%s: GraphQL %v, REST %v", what, k, g, r)
		}
	}
}

func TestGraphQLProducts(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "graphql-products").APIKey
	it := createItem(t, env, key, 0, map[string]any{"user": "user-ok-perf-3", "password": "password-ok"})
	id := it.ID.String()
	env.WaitItem(t, key, id, testsupport.Settled)

	d := env.GraphQL(t, key, `query($id: UUID!) { item(id: $id) {
		accounts { totalCount pageInfo { hasNextPage } nodes { id type subtype balance
			bills { totalCount nodes { id dueDate totalAmount } }
			statements { totalCount nodes { id monthYear url } }
			spending { byCategory { categoryId category spent received count } byMonth { month spent received count } } } }
		investments(first: 2) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id type balance transactions { totalCount nodes { id type amount date } } } } }
		loans { totalCount nodes { id productName CET contractAmount interestRates { taxType preFixedRate } } }
		identity { id fullName document phoneNumbers { type value } addresses { city state } }
		consents { totalCount }
		spending { byMonth { month spent received count } }
	} }`, map[string]any{"id": id}).OK(t)
	item := d["item"].(map[string]any)
	accounts := item["accounts"].(map[string]any)
	nodes := accounts["nodes"].([]any)
	if accounts["totalCount"] != float64(len(nodes)) || len(nodes) < 2 {
		t.Fatalf("accounts %v", accounts)
	}

	t.Run("accounts agree with REST", func(t *testing.T) {
		for _, n := range nodes {
			a := n.(map[string]any)
			rest := env.Do(t, "GET", "/accounts/"+a["id"].(string), key, nil).Want(200).Map()
			sameFields(t, "account", map[string]any{"id": a["id"], "type": a["type"], "subtype": a["subtype"], "balance": a["balance"]}, rest)
			if a["subtype"] == "CREDIT_CARD" {
				bills := env.Do(t, "GET", "/bills?accountId="+a["id"].(string), key, nil).Want(200).Map()
				if a["bills"].(map[string]any)["totalCount"] != bills["total"] {
					t.Fatalf("bills: GraphQL %v, REST %v", a["bills"], bills["total"])
				}
			}
		}
	})

	t.Run("spending is the sum of the transactions", func(t *testing.T) {
		for _, n := range nodes {
			a := n.(map[string]any)
			all := readAll(t, env, key, "/v2/transactions?accountId="+a["id"].(string), nil)
			spent, received := map[string]float64{}, map[string]float64{}
			for _, tx := range all {
				month := tx.Date.UTC().Format("2006-01")
				if tx.Type == "DEBIT" {
					spent[month] += math.Abs(tx.Amount)
				} else {
					received[month] += math.Abs(tx.Amount)
				}
			}
			months := a["spending"].(map[string]any)["byMonth"].([]any)
			if len(all) > 0 && len(months) == 0 {
				t.Fatalf("account %s: no months for %d transactions", a["id"], len(all))
			}
			count := 0
			for _, m := range months {
				m := m.(map[string]any)
				month := m["month"].(string)
				count += int(m["count"].(float64))
				if math.Abs(m["spent"].(float64)-spent[month]) > 0.005 || math.Abs(m["received"].(float64)-received[month]) > 0.005 {
					t.Fatalf("%s: GraphQL %v, computed spent %.2f received %.2f", month, m, spent[month], received[month])
				}
			}
			if count != len(all) {
				t.Fatalf("months count %d transactions, REST has %d", count, len(all))
			}
			byCat := 0
			for _, c := range a["spending"].(map[string]any)["byCategory"].([]any) {
				byCat += int(c.(map[string]any)["count"].(float64))
			}
			if byCat != len(all) {
				t.Fatalf("categories count %d transactions, REST has %d", byCat, len(all))
			}
		}
	})

	t.Run("investments page by cursor, with their movements", func(t *testing.T) {
		inv := item["investments"].(map[string]any)
		rest := env.Do(t, "GET", "/investments?itemId="+id, key, nil).Want(200).Map()
		if inv["totalCount"] != rest["total"] || !inv["pageInfo"].(map[string]any)["hasNextPage"].(bool) {
			t.Fatalf("investments %v vs REST total %v", inv, rest["total"])
		}
		seen := map[string]bool{}
		after := inv["pageInfo"].(map[string]any)["endCursor"]
		for _, e := range inv["edges"].([]any) {
			seen[e.(map[string]any)["node"].(map[string]any)["id"].(string)] = true
		}
		for after != nil {
			page := env.GraphQL(t, key, `query($id: UUID!, $after: String) { investments(itemId: $id, first: 2, after: $after) {
				pageInfo { hasNextPage endCursor } nodes { id } } }`, map[string]any{"id": id, "after": after}).OK(t)["investments"].(map[string]any)
			for _, n := range page["nodes"].([]any) {
				nid := n.(map[string]any)["id"].(string)
				if seen[nid] {
					t.Fatalf("investment %s on two pages", nid)
				}
				seen[nid] = true
			}
			after = nil
			if page["pageInfo"].(map[string]any)["hasNextPage"].(bool) {
				after = page["pageInfo"].(map[string]any)["endCursor"]
			}
		}
		if float64(len(seen)) != rest["total"] {
			t.Fatalf("read %d investments, REST has %v", len(seen), rest["total"])
		}
		first := inv["edges"].([]any)[0].(map[string]any)["node"].(map[string]any)
		movements := env.Do(t, "GET", "/investments/"+first["id"].(string)+"/transactions", key, nil).Want(200).Map()
		if first["transactions"].(map[string]any)["totalCount"] != movements["total"] {
			t.Fatalf("investment transactions: GraphQL %v, REST %v", first["transactions"], movements["total"])
		}
		// A cursor of another list is refused.
		env.GraphQL(t, key, `query($id: UUID!, $after: String) { loans(itemId: $id, after: $after) { totalCount } }`,
			map[string]any{"id": id, "after": inv["pageInfo"].(map[string]any)["endCursor"]}).WantCode(t, "INVALID_CURSOR")
	})

	t.Run("identity, loans and consents agree with REST", func(t *testing.T) {
		identity := env.Do(t, "GET", "/identity?itemId="+id, key, nil).Want(200).Map()
		g := item["identity"].(map[string]any)
		if g["id"] != identity["id"] || g["fullName"] != identity["fullName"] || g["document"] != identity["document"] {
			t.Fatalf("identity: GraphQL %v, REST %v", g, identity)
		}
		loans := env.Do(t, "GET", "/loans?itemId="+id, key, nil).Want(200).Map()
		if item["loans"].(map[string]any)["totalCount"] != loans["total"] {
			t.Fatalf("loans: GraphQL %v, REST %v", item["loans"], loans["total"])
		}
		l := item["loans"].(map[string]any)["nodes"].([]any)[0].(map[string]any)
		sameFields(t, "loan", map[string]any{"id": l["id"], "productName": l["productName"], "CET": l["CET"], "contractAmount": l["contractAmount"]},
			loans["results"].([]any)[0].(map[string]any))
		if item["consents"].(map[string]any)["totalCount"] != float64(0) {
			t.Fatalf("a non-Open Finance item has consents: %v", item["consents"])
		}
	})

	var checking string
	for _, n := range nodes {
		if a := n.(map[string]any); a["subtype"] == "CHECKING_ACCOUNT" {
			checking = a["id"].(string)
		}
	}

	t.Run("transactions page by cursor, field for field as REST", func(t *testing.T) {
		rest := readAll(t, env, key, "/v2/transactions?accountId="+checking, nil)
		restByID := map[string]map[string]any{}
		for _, tx := range rest {
			raw := env.Do(t, "GET", "/transactions/"+tx.ID.String(), key, nil).Want(200).Map()
			restByID[tx.ID.String()] = raw
			if len(restByID) == 30 {
				break
			}
		}
		var got []string
		var after any
		for pages := 0; ; pages++ {
			c := env.GraphQL(t, key, `query($a: UUID!, $after: String) { transactions(accountId: $a, first: 200, after: $after) {
				pageInfo { hasNextPage endCursor } edges { cursor } nodes { `+txFields+` } } }`,
				map[string]any{"a": checking, "after": after}).OK(t)["transactions"].(map[string]any)
			list := c["nodes"].([]any)
			if len(c["edges"].([]any)) != len(list) {
				t.Fatalf("%d edges for %d nodes", len(c["edges"].([]any)), len(list))
			}
			for _, n := range list {
				n := n.(map[string]any)
				got = append(got, n["id"].(string))
				if r, ok := restByID[n["id"].(string)]; ok {
					sameFields(t, "transaction", n, r)
				}
			}
			pi := c["pageInfo"].(map[string]any)
			if !pi["hasNextPage"].(bool) {
				break
			}
			after = pi["endCursor"]
		}
		if len(got) != len(rest) {
			t.Fatalf("GraphQL read %d transactions, REST %d", len(got), len(rest))
		}
		for i := range got {
			if got[i] != rest[i].ID.String() {
				t.Fatalf("row %d: GraphQL %s, REST %s", i, got[i], rest[i].ID)
			}
		}
	})

	t.Run("documents are REST's documents", func(t *testing.T) {
		var rest struct {
			Results []map[string]any `json:"results"`
		}
		env.Do(t, "GET", "/v2/transactions?accountId="+checking, key, nil).Want(200).JSON(&rest)
		c := env.GraphQL(t, key, `query($a: UUID!) { transactions(accountId: $a, first: 500) { documents nodes { id } } }`,
			map[string]any{"a": checking}).OK(t)["transactions"].(map[string]any)
		docs := c["documents"].([]any)
		if len(docs) != len(rest.Results) || len(c["nodes"].([]any)) != len(docs) {
			t.Fatalf("%d documents, %d REST rows", len(docs), len(rest.Results))
		}
		for i, d := range docs {
			if fmt.Sprint(d) != fmt.Sprint(rest.Results[i]) {
				t.Fatalf("document %d differs:\n%v\n%v", i, d, rest.Results[i])
			}
		}
	})

	t.Run("filters match REST", func(t *testing.T) {
		from, to := "2026-01-01T00:00:00.000Z", "2026-03-31T23:59:59.000Z"
		rest := readAll(t, env, key, "/v2/transactions?accountId="+checking+"&dateFrom="+from+"&dateTo="+to, nil)
		c := env.GraphQL(t, key, `query($a: UUID!, $f: TransactionFilterInput) { transactions(accountId: $a, first: 500, filter: $f) { nodes { id } } }`,
			map[string]any{"a": checking, "f": map[string]any{"dateFrom": from, "dateTo": to}}).OK(t)["transactions"].(map[string]any)
		if len(c["nodes"].([]any)) != len(rest) {
			t.Fatalf("filtered: GraphQL %d, REST %d", len(c["nodes"].([]any)), len(rest))
		}
	})

	t.Run("bad input", func(t *testing.T) {
		cases := []struct {
			query string
			vars  map[string]any
			code  string
		}{
			{`query($a: UUID!) { transactions(accountId: $a, first: 0) { nodes { id } } }`, map[string]any{"a": checking}, "INVALID_PARAMETER"},
			{`query($a: UUID!) { transactions(accountId: $a, first: 501) { nodes { id } } }`, map[string]any{"a": checking}, "INVALID_PARAMETER"},
			{`query($a: UUID!) { transactions(accountId: $a, after: "forged") { nodes { id } } }`, map[string]any{"a": checking}, "INVALID_CURSOR"},
			{`query($a: UUID!) { transactions(accountId: $a) { nodes { id } } }`, map[string]any{"a": uuid.NewString()}, "ACCOUNT_NOT_FOUND"},
			{`query($a: UUID!) { transactions(accountId: $a, filter: {dateFrom: "2026-02-01T00:00:00.000Z", dateTo: "2026-01-01T00:00:00.000Z"}) { nodes { id } } }`, map[string]any{"a": checking}, "INVALID_PARAMETER"},
			{`{ transactions(accountId: "nope") { nodes { id } } }`, nil, "INVALID_REQUEST"},
			{`query($i: UUID!) { investments(itemId: $i) { totalCount } }`, map[string]any{"i": uuid.NewString()}, "ITEM_NOT_FOUND"},
			{`{ identity { id } }`, nil, "INVALID_PARAMETER"},
			{`query($i: UUID!) { loan(id: $i) { id } }`, map[string]any{"i": uuid.NewString()}, "LOAN_NOT_FOUND"},
			{`query($i: UUID!) { spending(itemId: $i, accountId: $i) { byMonth { month } } }`, map[string]any{"i": id}, "INVALID_PARAMETER"},
			{`query($i: UUID!) { item(id: $i) { accounts(type: "LOAN") { totalCount } } }`, map[string]any{"i": id}, "INVALID_PARAMETER"},
		}
		for _, c := range cases {
			env.GraphQL(t, key, c.query, c.vars).WantCode(t, c.code)
		}
		// Another client's account does not exist for the caller.
		other := env.NewClient(t, "graphql-products-other").APIKey
		env.GraphQL(t, other, `query($a: UUID!) { transactions(accountId: $a) { nodes { id } } }`, map[string]any{"a": checking}).WantCode(t, "ACCOUNT_NOT_FOUND")
	})

	t.Run("category update through the mutation", func(t *testing.T) {
		first := env.GraphQL(t, key, `query($a: UUID!) { transactions(accountId: $a, first: 1) { nodes { id categoryId } } }`,
			map[string]any{"a": checking}).OK(t)["transactions"].(map[string]any)["nodes"].([]any)[0].(map[string]any)
		m := env.GraphQL(t, key, `mutation($id: UUID!) { updateTransactionCategory(id: $id, categoryId: "09000000") { id categoryId category } }`,
			map[string]any{"id": first["id"]}).OK(t)["updateTransactionCategory"].(map[string]any)
		if m["categoryId"] != "09000000" || m["category"] != "Food and drinks" {
			t.Fatalf("updated %v", m)
		}
		rest := env.Do(t, "GET", "/transactions/"+first["id"].(string), key, nil).Want(200).Map()
		if rest["categoryId"] != "09000000" {
			t.Fatalf("REST after the mutation: %v", rest["categoryId"])
		}
		env.GraphQL(t, key, `mutation($id: UUID!) { updateTransactionCategory(id: $id, categoryId: "nope") { id } }`,
			map[string]any{"id": first["id"]}).WantCode(t, "INVALID_PARAMETER")
	})

	t.Run("a Connect Token sees accounts reduced and no transactions", func(t *testing.T) {
		tok := env.Do(t, "POST", "/connect_token", key, map[string]any{"itemId": id}).Want(200).String("accessToken")
		g := env.GraphQL(t, tok, `query($id: UUID!) { item(id: $id) { accounts { nodes { id name balance owner bankData { transferNumber } } } } }`,
			map[string]any{"id": id}).OK(t)
		for _, n := range g["item"].(map[string]any)["accounts"].(map[string]any)["nodes"].([]any) {
			a := n.(map[string]any)
			if a["balance"] != nil || a["owner"] != nil || a["bankData"] != nil || a["name"] == nil {
				t.Fatalf("Connect Token sees %v", a)
			}
		}
		env.GraphQL(t, tok, `query($id: UUID!) { item(id: $id) { accounts { nodes { transactions { nodes { id } } } } } }`,
			map[string]any{"id": id}).WantCode(t, "FORBIDDEN")
	})
}

// TestGraphQLDataloading checks that nested lists run a fixed number of statements: 20 items
// × their accounts × 50 transactions each costs what 2 items cost.
func TestGraphQLDataloading(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "graphql-loaders").APIKey
	var ids []string
	for i := range 20 {
		// Perf users take any password: each item gets its own credentials.
		ids = append(ids, createItem(t, env, key, 0, map[string]any{"user": "user-ok-perf-1", "password": fmt.Sprint("password-", i)}).ID.String())
	}
	for _, id := range ids {
		env.WaitItem(t, key, id, testsupport.Settled)
	}
	query := func(items int, viaEdges bool) (*testsupport.GraphQLResult, map[string]any) {
		sel := `nodes { id accounts { nodes { id transactions(first: 50) { pageInfo { hasNextPage } nodes { id amount date } } } } }`
		if viaEdges {
			sel = `edges { node { id accounts { edges { node { id transactions(first: 50) { edges { node { id amount date } } } } } } } }`
		}
		g := env.GraphQL(t, key, fmt.Sprintf(`{ itemConnection(first: %d) { totalCount %s } }`, items, sel), nil)
		return g, g.OK(t)["itemConnection"].(map[string]any)
	}
	small, _ := query(2, false)
	large, conn := query(20, false)
	if conn["totalCount"] != float64(20) || len(conn["nodes"].([]any)) != 20 {
		t.Fatalf("itemConnection %v", conn["totalCount"])
	}
	accounts, rows := 0, 0
	for _, it := range conn["nodes"].([]any) {
		for _, a := range it.(map[string]any)["accounts"].(map[string]any)["nodes"].([]any) {
			accounts++
			conn := a.(map[string]any)["transactions"].(map[string]any)
			txs := conn["nodes"].([]any)
			more := conn["pageInfo"].(map[string]any)["hasNextPage"].(bool)
			if len(txs) > 50 || (len(txs) < 50 && more) {
				t.Fatalf("account %v: %d transactions, hasNextPage %v", a.(map[string]any)["id"], len(txs), more)
			}
			rows += len(txs)
		}
	}
	if accounts < 40 || rows < 40*50 {
		t.Fatalf("only %d accounts", accounts)
	}
	n2, n20 := small.Extensions["sqlStatements"], large.Extensions["sqlStatements"]
	if n2 == nil || n2 != n20 || n20.(float64) > 6 {
		t.Fatalf("statements: %v for 2 items, %v for 20 items × %d accounts × %d rows; want the same small number", n2, n20, accounts, rows)
	}
	edges, _ := query(20, true)
	if edges.Extensions["sqlStatements"] != n20 {
		t.Fatalf("through edges: %v statements, through nodes: %v", edges.Extensions["sqlStatements"], n20)
	}
	t.Logf("20 items, %d accounts, 50 transactions each: %v statements", accounts, n20)

	// The page agrees with REST's first page of the same account.
	first := conn["nodes"].([]any)[0].(map[string]any)["accounts"].(map[string]any)["nodes"].([]any)[0].(map[string]any)
	var page txPage
	env.Do(t, "GET", "/v2/transactions?accountId="+first["id"].(string), key, nil).Want(200).JSON(&page)
	for i, n := range first["transactions"].(map[string]any)["nodes"].([]any) {
		if n.(map[string]any)["id"] != page.Results[i].ID.String() {
			t.Fatalf("row %d differs from REST", i)
		}
	}
}

func TestGraphQLLimits(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "graphql-limits").APIKey
	cases := []struct {
		name, query, code string
	}{
		{"the deepest path through nodes is allowed", `{ itemConnection { nodes { accounts { nodes { transactions { nodes {
			paymentData { payer { documentNumber { ...D } } } } } } } } } }
			fragment D on Document { type value }`, ""},
		{"through edges it is too deep", `{ itemConnection { edges { node { accounts { edges { node { transactions { edges { node {
			paymentData { payer { documentNumber { ...D } } } } } } } } } } } } }
			fragment D on Document { type value }`, "QUERY_TOO_DEEP"},
		{"too many rows", `{ itemConnection(first: 500) { nodes { accounts { nodes { transactions(first: 500) { nodes { id amount } } } } } } }`, "QUERY_TOO_COMPLEX"},
		{"variables count too", `query($n: Int) { itemConnection(first: $n) { nodes { accounts { nodes { transactions(first: $n) { nodes { id amount } } } } } } }`, "QUERY_TOO_COMPLEX"},
		{"introspection is not limited by depth", introspectionQuery, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := env.GraphQL(t, key, c.query, map[string]any{"n": 400})
			if c.code == "" {
				g.OK(t)
				return
			}
			g.WantCode(t, c.code)
			if !strings.Contains(g.Errors[0].Message, "limit") || g.Data != nil {
				t.Fatalf("message %q does not name the limit, or data came back: %v", g.Errors[0].Message, g.Data)
			}
		})
	}
	// Parsed queries are cached; the limits are not: a query that passed with small
	// variables is refused with big ones, and the other way round.
	q := cases[3].query
	env.GraphQL(t, key, q, map[string]any{"n": 2}).OK(t)
	env.GraphQL(t, key, q, map[string]any{"n": 400}).WantCode(t, "QUERY_TOO_COMPLEX")
	env.GraphQL(t, key, q, map[string]any{"n": 2}).OK(t)
}

const introspectionQuery = `query IntrospectionQuery { __schema { queryType { name } mutationType { name }
	types { ...FullType } directives { name locations args { ...InputValue } } } }
fragment FullType on __Type { kind name description fields(includeDeprecated: true) { name args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
	inputFields { ...InputValue } interfaces { ...TypeRef } enumValues(includeDeprecated: true) { name isDeprecated } possibleTypes { ...TypeRef } }
fragment InputValue on __InputValue { name type { ...TypeRef } defaultValue }
fragment TypeRef on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } }`
