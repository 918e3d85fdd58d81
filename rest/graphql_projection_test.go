package rest_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"ponte/testsupport"
)

// projectedSelection exercises what a selection can do to a projected list: a fragment,
// aliases (one field under two keys), __typename at every level, @skip and @include.
const projectedSelection = `fragment F on Transaction { ` + allTxFields + ` __typename
	merchant { kind: __typename name } paymentData { payer { __typename documentNumber { __typename value } } } }
query($a: UUID!, $yes: Boolean!, $after: String) { account(id: $a) { transactions(first: 40, after: $after) {
	pageInfo { endCursor }
	nodes { ...F total: amount again: amount gone: id @skip(if: $yes) kept: id @include(if: $yes) }
	edges { __typename cursor c: cursor node { id ... on Transaction { when: date } } } } } }`

// The single-transaction query goes through gqlgen's own marshalling: the reference the
// projected lists must match, key for key and in the same order.
const singleSelection = `fragment F on Transaction { ` + allTxFields + ` __typename
	merchant { kind: __typename name } paymentData { payer { __typename documentNumber { __typename value } } } }
query($id: UUID!, $yes: Boolean!) { transaction(id: $id) {
	...F total: amount again: amount gone: id @skip(if: $yes) kept: id @include(if: $yes) } }`

// TestGraphQLProjectedTransactions checks that transaction lists, which GraphQL writes
// straight from the stored documents, answer exactly what gqlgen's typed marshalling of
// the same transaction answers (values, nulls, aliases, __typename, directives, key order),
// on a card account and a checking account, and that their edges' cursors page on.
func TestGraphQLProjectedTransactions(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "graphql-projection").APIKey
	it := createItem(t, env, key, 0, map[string]any{"user": "user-ok-perf-3", "password": "password-ok"})
	env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
	accounts := env.GraphQL(t, key, `query($id: UUID!) { item(id: $id) { accounts { nodes { id subtype } } } }`,
		map[string]any{"id": it.ID}).OK(t)["item"].(map[string]any)["accounts"].(map[string]any)["nodes"].([]any)

	subtypes := map[string]bool{}
	for _, a := range accounts {
		a := a.(map[string]any)
		subtype := a["subtype"].(string)
		if subtype != "CREDIT_CARD" && subtype != "CHECKING_ACCOUNT" || subtypes[subtype] {
			continue
		}
		subtypes[subtype] = true
		t.Run(subtype, func(t *testing.T) {
			vars := map[string]any{"a": a["id"], "yes": true}
			page := graphQLRaw(t, env, key, projectedSelection, vars)
			conn := page["account"].(orderedObject).get("transactions").(orderedObject)
			nodes, edges := conn.get("nodes").([]any), conn.get("edges").([]any)
			if len(nodes) < 10 || len(edges) != len(nodes) {
				t.Fatalf("%d nodes, %d edges", len(nodes), len(edges))
			}
			var withMerchant, withPayer bool
			for i, n := range nodes {
				n := n.(orderedObject)
				id := n.get("id").(string)
				one := graphQLRaw(t, env, key, singleSelection, map[string]any{"id": id, "yes": true})["transaction"]
				if !reflect.DeepEqual(n, one) {
					t.Fatalf("transaction %s\nprojected %v\ngqlgen    %v", id, n, one)
				}
				withMerchant = withMerchant || n.get("merchant") != nil
				withPayer = withPayer || n.get("paymentData") != nil && n.get("paymentData").(orderedObject).get("payer") != nil

				e := edges[i].(orderedObject)
				node := e.get("node").(orderedObject)
				if e.get("__typename") != "TransactionEdge" || e.get("cursor") != e.get("c") || node.get("id") != id || node.get("when") != n.get("date") {
					t.Fatalf("edge %d: %v for node %v", i, e, n)
				}
			}
			if subtype == "CREDIT_CARD" && !withMerchant || subtype == "CHECKING_ACCOUNT" && !withPayer {
				t.Fatalf("%s: the page has no nested object to compare (merchant %v, payer %v)", subtype, withMerchant, withPayer)
			}
			// An edge's cursor reads on after it, like the page's end cursor.
			vars["after"] = edges[4].(orderedObject).get("cursor")
			next := graphQLRaw(t, env, key, projectedSelection, vars)["account"].(orderedObject).get("transactions").(orderedObject)
			if got := next.get("nodes").([]any)[0].(orderedObject).get("id"); got != nodes[5].(orderedObject).get("id") {
				t.Fatalf("after edge 4 the list starts at %v, want node 5 %v", got, nodes[5].(orderedObject).get("id"))
			}
		})
	}
	if len(subtypes) != 2 {
		t.Fatalf("the item has accounts %v: no card and checking pair to compare", accounts)
	}
}

// graphQLRaw posts a query and decodes data keeping every object's key order: the values
// under data's fields are orderedObjects and lists of them.
func graphQLRaw(t *testing.T, env *testsupport.Env, key, query string, vars map[string]any) map[string]any {
	t.Helper()
	r := env.Do(t, "POST", "/graphql", key, map[string]any{"query": query, "variables": vars}).Want(200)
	var out struct {
		Data   map[string]json.RawMessage `json:"data"`
		Errors []any                      `json:"errors"`
	}
	if err := json.Unmarshal(r.Body, &out); err != nil || len(out.Errors) > 0 {
		t.Fatalf("GraphQL answer %s: %v", r.Body, err)
	}
	data := map[string]any{}
	for k, raw := range out.Data {
		v, err := decodeOrdered(json.NewDecoder(bytes.NewReader(raw)))
		if err != nil {
			t.Fatalf("data.%s: %v", k, err)
		}
		data[k] = v
	}
	return data
}

// orderedObject is a JSON object as its members came, so that equality includes order.
type orderedObject []member

type member struct {
	Key   string
	Value any
}

func (o orderedObject) get(k string) any {
	for _, m := range o {
		if m.Key == k {
			return m.Value
		}
	}
	return nil
}

func decodeOrdered(d *json.Decoder) (any, error) {
	d.UseNumber()
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := orderedObject{}
		for d.More() {
			k, err := d.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeOrdered(d)
			if err != nil {
				return nil, err
			}
			o = append(o, member{k.(string), v})
		}
		_, err := d.Token()
		return o, err
	case json.Delim('['):
		l := []any{}
		for d.More() {
			v, err := decodeOrdered(d)
			if err != nil {
				return nil, err
			}
			l = append(l, v)
		}
		_, err := d.Token()
		return l, err
	}
	if n, ok := tok.(json.Number); ok {
		// gqlgen writes floats with %g (1.2345675e+06), REST's documents as encoding/json
		// does (1234567.5): the same number.
		f, err := n.Float64()
		return f, err
	}
	return tok, nil
}
