package graph_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"ponte/testsupport"
)

// These tests drive the resolvers through POST /graphql of a running service on a real
// database (testsupport), never through graph's Go API: what they hold is the schema's
// behaviour, which must survive any rearrangement of the code behind it.

func TestMain(m *testing.M) { testsupport.Main(m) }

// gql is one caller of a test service's /graphql.
type gql struct {
	env *testsupport.Env
	key string
}

func caller(env *testsupport.Env, key string) gql { return gql{env, key} }

// ok runs a query that must succeed and returns its data.
func (g gql) ok(t *testing.T, query string, vars map[string]any) map[string]any {
	t.Helper()
	return g.env.GraphQL(t, g.key, query, vars).OK(t)
}

// fails runs a query that must fail with codeDescription code and HTTP-like status in its
// first error's extensions, and returns the result.
func (g gql) fails(t *testing.T, query string, vars map[string]any, code string, status int) *testsupport.GraphQLResult {
	t.Helper()
	r := g.env.GraphQL(t, g.key, query, vars)
	wantErr(t, r, code, status)
	return r
}

// wantErr checks a result's first error: its codeDescription, its code, and a message for
// people.
func wantErr(t *testing.T, r *testsupport.GraphQLResult, code string, status int) {
	t.Helper()
	r.WantCode(t, code)
	e := r.Errors[0]
	if got, _ := e.Extensions["code"].(float64); int(got) != status {
		t.Fatalf("%s: extensions.code %v, want %d: %+v", code, e.Extensions["code"], status, r.Errors)
	}
	if strings.TrimSpace(e.Message) == "" {
		t.Fatalf("%s without a message", code)
	}
}

// at walks a decoded JSON value along a dotted path of object keys and list indexes
// ("items.results.0.id"), failing the test at a step that does not exist.
func at(t *testing.T, v any, path string) any {
	t.Helper()
	cur := v
	for _, step := range strings.Split(path, ".") {
		switch c := cur.(type) {
		case map[string]any:
			next, ok := c[step]
			if !ok {
				t.Fatalf("%s: no key %q in %v", path, step, c)
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(step)
			if err != nil || i < 0 || i >= len(c) {
				t.Fatalf("%s: no element %q in a list of %d", path, step, len(c))
			}
			cur = c[i]
		default:
			t.Fatalf("%s: %q is under %T %v, not an object or list", path, step, cur, cur)
		}
	}
	return cur
}

func str(t *testing.T, v any, path string) string {
	t.Helper()
	s, ok := at(t, v, path).(string)
	if !ok {
		t.Fatalf("%s is %v, not a string", path, at(t, v, path))
	}
	return s
}

func num(t *testing.T, v any, path string) float64 {
	t.Helper()
	n, ok := at(t, v, path).(float64)
	if !ok {
		t.Fatalf("%s is %v, not a number", path, at(t, v, path))
	}
	return n
}

func list(t *testing.T, v any, path string) []any {
	t.Helper()
	l, ok := at(t, v, path).([]any)
	if !ok {
		t.Fatalf("%s is %v, not a list", path, at(t, v, path))
	}
	return l
}

// ids lists the field id of each object of a list.
func ids(t *testing.T, v any, path string) []string {
	t.Helper()
	var out []string
	for i := range list(t, v, path) {
		out = append(out, str(t, v, fmt.Sprintf("%s.%d.id", path, i)))
	}
	return out
}

// waitItem polls item(id) through GraphQL until it is no longer executing, and returns it.
func waitItem(t *testing.T, g gql, id string) map[string]any {
	t.Helper()
	var it map[string]any
	testsupport.Eventually(t, "item "+id+" to settle", 30*time.Second, func() bool {
		it = at(t, g.ok(t, `query($id: UUID!) { item(id: $id) { id status executionStatus lastUpdatedAt
			parameter { name mfa expiresAt } userAction { type instructions attributes } error { code message } } }`,
			map[string]any{"id": id}), "item").(map[string]any)
		s := it["status"]
		return s != "UPDATING" && s != "MERGING"
	})
	return it
}

// newItem creates an item through GraphQL and waits for it to settle.
func newItem(t *testing.T, g gql, connector int, params map[string]any) map[string]any {
	t.Helper()
	d := g.ok(t, `mutation($in: CreateItemInput!) { createItem(input: $in) { id status } }`,
		map[string]any{"in": map[string]any{"connectorId": connector, "parameters": params}})
	return waitItem(t, g, str(t, d, "createItem.id"))
}

// spDay is a calendar day in São Paulo, days from today, as payment dates are written.
func spDay(days int) string {
	// Brazil keeps no daylight saving time: São Paulo is UTC-3 all year.
	return time.Now().In(time.FixedZone("BRT", -3*3600)).AddDate(0, 0, days).Format(time.DateOnly)
}

const (
	happyCPF     = "11144477735" // a sandbox payer whose payments complete
	payConnector = 5             // an Open Finance connector that initiates payments
)
