package rest_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"ponte/testsupport"
)

var updateShapes = flag.Bool("update-shapes", false, "rewrite testdata/shapes from the service's answers")

var apiDate = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)

// shape records, for every field path of a resource (a.b, list[] for elements), the JSON
// kinds seen across every instance read: string, date (the .000Z form), number, boolean,
// null, object, array. Null beside another kind is the field's null rule.
type shape map[string][]string

func (s shape) add(path string, v any) {
	kind := ""
	switch x := v.(type) {
	case nil:
		kind = "null"
	case string:
		kind = "string"
		if apiDate.MatchString(x) {
			kind = "date"
		}
	case float64:
		kind = "number"
	case bool:
		kind = "boolean"
	case map[string]any:
		kind = "object"
		for k, e := range x {
			s.add(strings.TrimPrefix(path+"."+k, "."), e)
		}
	case []any:
		kind = "array"
		for _, e := range x {
			s.add(path+"[]", e)
		}
	}
	if path == "" {
		return
	}
	if !slices.Contains(s[path], kind) {
		s[path] = append(s[path], kind)
		sort.Strings(s[path])
	}
}

// TestResourceShapes compares every resource's fields, kinds and null rules with the golden
// files in testdata/shapes, which were checked field by field against the spec and the
// official client's types (go test -run TestResourceShapes -update-shapes rewrites them;
// review the diff). A field that disappears, changes type, becomes nullable or shows a date
// in another form fails here. At the last review every field of the client's types was
// present with a compatible kind; the fields beyond them are the spec's (order, accountId
// on bills and statements, createdAt/updatedAt, webhook headers, item products and
// resource fields) and transaction balance is null where the spec allows it ("number or
// null") though the client's type says number.
func TestResourceShapes(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "shapes").APIKey
	it := createItem(t, env, key, 0, map[string]any{"user": "user-ok-perf-3", "password": "password-ok"})
	id := it.ID.String()
	env.WaitItem(t, key, id, testsupport.Settled)
	of := createItem(t, env, key, 5, map[string]any{"cpf": "52998224725"})
	approve(t, env, key, of.ID.String())
	env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "all", "url": "https://hooks.example.com/x", "headers": map[string]any{"a": "b"}}).Want(200)

	ids := env.AccountIDs(t, key, id)
	card, checking := ids["CREDIT_CARD"], ids["CHECKING_ACCOUNT"]
	investments := env.Do(t, "GET", "/investments?itemId="+id, key, nil).Want(200).Map()["results"].([]any)
	// Every instance of a list is read: the shapes cover every row, not one example.
	compareShapes(t, env, key, []shapeRead{
		{"item", []string{"/items/" + id, "/items/" + of.ID.String()}},
		{"connector", []string{"/connectors/0", "/connectors/5"}},
		{"category", []string{"/categories"}},
		{"account", []string{"/accounts?itemId=" + id, "/accounts?itemId=" + of.ID.String()}},
		{"transaction", []string{"/v2/transactions?accountId=" + checking, "/v2/transactions?accountId=" + card}},
		{"investment", []string{"/investments?itemId=" + id}},
		{"investment_transaction", func() []string {
			var out []string
			for _, i := range investments {
				out = append(out, "/investments/"+i.(map[string]any)["id"].(string)+"/transactions")
			}
			return out
		}()},
		{"identity", []string{"/identity?itemId=" + id, "/identity?itemId=" + of.ID.String()}},
		{"loan", []string{"/loans?itemId=" + id}},
		{"bill", []string{"/bills?accountId=" + card}},
		{"statement", []string{"/accounts/" + checking + "/statements"}},
		{"consent", []string{"/consents?itemId=" + of.ID.String()}},
		{"item_resource", []string{"/items/" + of.ID.String() + "/resources"}},
		{"webhook", []string{"/webhooks"}},
	})
}

// shapeRead names a resource and the reads (lists are followed page by page) that show it.
type shapeRead struct {
	name  string
	paths []string
}

// compareShapes reads every path and compares the shapes with the golden files.
func compareShapes(t *testing.T, env *testsupport.Env, key string, reads []shapeRead) {
	t.Helper()
	for _, r := range reads {
		s := shape{}
		for _, p := range r.paths {
			endpoint, _, _ := strings.Cut(p, "?")
			for p != "" {
				var body any
				env.Do(t, "GET", p, key, nil).Want(200).JSON(&body)
				m, _ := body.(map[string]any)
				p = ""
				if results, ok := m["results"].([]any); ok {
					for _, e := range results {
						s.add("", e)
					}
					if next, ok := m["next"].(string); ok {
						p = endpoint + next // a query string for the endpoint (4.4 rule 1)
					}
				} else {
					s.add("", body)
				}
			}
		}
		file := filepath.Join("testdata", "shapes", r.name+".json")
		got, _ := json.MarshalIndent(s, "", "  ")
		if *updateShapes {
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, append(got, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%s: %v (run with -update-shapes to create it)", r.name, err)
		}
		var want shape
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		for path, kinds := range want {
			if !slices.Equal(s[path], kinds) {
				t.Errorf("%s.%s: kinds %v, golden %v", r.name, path, s[path], kinds)
			}
		}
		for path, kinds := range s {
			if _, ok := want[path]; !ok {
				t.Errorf("%s.%s (%v) is not in the golden file", r.name, path, kinds)
			}
		}
	}
}
