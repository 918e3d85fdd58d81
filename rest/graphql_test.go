package rest_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"ponte/testsupport"
)

func TestGraphQL(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "graphql")

	t.Run("connectors with filters share REST's rules", func(t *testing.T) {
		d := env.GraphQL(t, c.APIKey, `query($f: ConnectorFilter) {
			connectors(filter: $f, healthDetails: true, pageSize: 2) {
				total totalPages page
				results { id name isSandbox type health { status stage details { connectionsLast6Hours connectionRateLast6Hours } }
					credentials { name label type validation mfa options { value label } } }
			}
		}`, map[string]any{"f": map[string]any{"types": []string{"BUSINESS_BANK", "INVESTMENT"}, "sandbox": true}}).OK(t)
		page := d["connectors"].(map[string]any)
		if page["total"] != float64(2) || page["totalPages"] != float64(1) {
			t.Fatalf("connectors page %v", page)
		}
		first := page["results"].([]any)[0].(map[string]any)
		if first["id"] != float64(2) || first["health"].(map[string]any)["details"] == nil {
			t.Fatalf("first connector %v", first)
		}
	})
	t.Run("connector not found", func(t *testing.T) {
		g := env.GraphQL(t, c.APIKey, `{ connector(id: 4242) { id } }`, nil)
		g.WantCode(t, "CONNECTOR_NOT_FOUND")
		if g.Errors[0].Extensions["code"] != float64(404) {
			t.Fatalf("extensions %v", g.Errors[0].Extensions)
		}
	})
	t.Run("invalid filter", func(t *testing.T) {
		env.GraphQL(t, c.APIKey, `{ connectors(filter: {countries: ["AR"]}) { total } }`, nil).WantCode(t, "INVALID_PARAMETER")
	})
	t.Run("categories and one category", func(t *testing.T) {
		d := env.GraphQL(t, c.APIKey, `{ categories(parentId: "09000000") { total results { id parentId parentDescription descriptionTranslated } }
			category(id: "09000000") { id description descriptionTranslated } }`, nil).OK(t)
		if d["categories"].(map[string]any)["total"].(float64) == 0 || d["category"].(map[string]any)["descriptionTranslated"] != "Food and drinks" {
			t.Fatalf("categories %v", d)
		}
		env.GraphQL(t, c.APIKey, `{ category(id: "nope") { id } }`, nil).WantCode(t, "CATEGORY_NOT_FOUND")
	})
	t.Run("client application", func(t *testing.T) {
		d := env.GraphQL(t, c.APIKey, `{ clientApplication { id name enabled createdAt } }`, nil).OK(t)
		app := d["clientApplication"].(map[string]any)
		if app["id"] != c.ID || app["name"] != "graphql" || app["enabled"] != true {
			t.Fatalf("clientApplication %v", app)
		}
		if strings.Contains(fmt.Sprint(app), "secret") {
			t.Fatal("client application exposes its secret")
		}
	})
	t.Run("mutations", func(t *testing.T) {
		d := env.GraphQL(t, c.APIKey, `mutation { createConnectToken(options: {clientUserId: "u1"}) { accessToken }
			validateConnectorParameters(connectorId: 0, parameters: {user: "x"}) { errors { code parameter message } } }`, nil).OK(t)
		if d["createConnectToken"].(map[string]any)["accessToken"] == "" {
			t.Fatal("no token")
		}
		errs := d["validateConnectorParameters"].(map[string]any)["errors"].([]any)
		if len(errs) != 2 {
			t.Fatalf("validation errors %v", errs)
		}
	})
	t.Run("missing credential", func(t *testing.T) {
		g := env.GraphQL(t, "", `{ connectors { total } }`, nil)
		g.WantCode(t, "API_KEY_MISSING")
	})
	t.Run("syntax error", func(t *testing.T) {
		g := env.GraphQL(t, c.APIKey, `{ connectors { total `, nil)
		g.WantCode(t, "INVALID_REQUEST")
	})
	t.Run("unknown field", func(t *testing.T) {
		g := env.GraphQL(t, c.APIKey, `{ connectors { nope } }`, nil)
		g.WantCode(t, "INVALID_REQUEST")
		if g.Status != http.StatusUnprocessableEntity {
			t.Fatalf("status %d for a query that does not validate", g.Status)
		}
	})
	t.Run("body that is not JSON", func(t *testing.T) {
		r := env.Do(t, "POST", "/graphql", c.APIKey, map[string]any{"query": 42})
		if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), `"errors":[{"message":"json request body could not be decoded`) ||
			!strings.Contains(string(r.Body), `"data":null`) {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
	t.Run("response shape", func(t *testing.T) {
		r := env.Do(t, "POST", "/graphql", c.APIKey, map[string]any{"query": `{ category(id: "09000000") { id } }`})
		if r.Status != 200 || r.Header.Get("Content-Type") != "application/json" || !strings.HasPrefix(string(r.Body), `{"data":{"category":{"id":"09000000"}}`) {
			t.Fatalf("%d %s %s", r.Status, r.Header.Get("Content-Type"), r.Body)
		}
	})
	t.Run("introspection for GraphiQL", func(t *testing.T) {
		d := env.GraphQL(t, c.APIKey, `{ __schema { queryType { name } types { name } } }`, nil).OK(t)
		names := fmt.Sprint(d["__schema"])
		for _, typ := range []string{"Connector", "CredentialParameter", "Health", "Category", "ClientApplication"} {
			if !strings.Contains(names, "name:"+typ+"]") {
				t.Errorf("schema lacks %s", typ)
			}
		}
	})
	t.Run("graphiql page", func(t *testing.T) {
		resp, err := http.Get(env.URL + "/graphiql")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), "/graphiql/assets/") || strings.Contains(string(body), "cdn") {
			t.Fatalf("graphiql page %d: %s", resp.StatusCode, body)
		}
	})
}
