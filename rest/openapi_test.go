package rest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-chi/chi/v5"

	"ponte/testsupport"
)

// loadAPIDocument reads /openapi.json as a client would and checks it is a valid OpenAPI
// 3.1 document.
func loadAPIDocument(t *testing.T, env *testsupport.Env) *openapi3.T {
	t.Helper()
	r := env.Do(t, "GET", "/openapi.json", "", nil).Want(200)
	doc, err := openapi3.NewLoader().LoadFromData(r.Body)
	if err != nil {
		t.Fatalf("load /openapi.json: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("/openapi.json does not validate: %v", err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Fatalf("openapi %q", doc.OpenAPI)
	}
	return doc
}

// The description names exactly the routes the router serves (GraphQL and its explorer,
// described by their own schema, apart), and its page renders it without other assets.
func TestOpenAPIMatchesRouter(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	doc := loadAPIDocument(t, env)
	documented := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			documented[method+" "+path] = true
		}
	}
	var served []string
	_ = chi.Walk(env.Server.Config.Handler.(chi.Routes), func(method, pattern string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if !strings.HasPrefix(pattern, "/graphql") && !strings.HasPrefix(pattern, "/graphiql") {
			served = append(served, method+" "+pattern)
		}
		return nil
	})
	sort.Strings(served)
	for _, route := range served {
		if !documented[route] {
			t.Errorf("%s is served but not in /openapi.json: add it to rest/openapi_routes.go", route)
		}
		delete(documented, route)
	}
	for route := range documented {
		t.Errorf("/openapi.json names %s, which the router does not serve", route)
	}
	if len(served) < 80 {
		t.Fatalf("only %d routes walked", len(served))
	}
	page := env.Do(t, "GET", "/reference", "", nil).Want(200)
	csp := page.Header.Get("Content-Security-Policy")
	if !strings.Contains(string(page.Body), "fetch('/openapi.json')") || !strings.Contains(csp, "script-src 'sha256-") ||
		strings.Contains(csp, "unsafe-inline") || strings.Contains(string(page.Body), "https://") {
		t.Fatalf("reference page (CSP %q):\n%.400s", csp, page.Body)
	}
}

// Real answers match their documented schemas: every GET route and the JSON answers of
// POST /auth, /connect_token and /connectors/{id}/validate, called on the authorization
// matrix's world (an item with every product, an Open Finance item, webhooks, events,
// payments of every kind), validated by kin-openapi with JSON Schema 2020-12.
func TestOpenAPIResponses(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a := env.NewClient(t, "openapi A")
	fx := azFixtures(t, env, a)
	env.Exec(t, `UPDATE client_applications SET items_v2_enabled = true WHERE id = $1`, a.ID) // off by default
	doc := loadAPIDocument(t, env)
	bodies := azBodies(fx.ids)
	checked := 0
	for route, spec := range azRoutes() {
		method, pattern, _ := strings.Cut(route, " ")
		item := doc.Paths.Value(pattern)
		if item == nil || spec.form != nil || spec.gql || method == "*" {
			continue
		}
		op := item.GetOperation(method)
		if op == nil || !(method == http.MethodGet || route == "POST /auth" || route == "POST /connect_token" || route == "POST /connectors/{id}/validate") {
			continue
		}
		media := op.Responses.Status(200).Value.Content.Get("application/json")
		if media == nil {
			continue // an HTML page
		}
		var body any
		if spec.body != "" {
			body = bodies[spec.body]
		}
		key := a.APIKey
		if route == "GET /connect_token" { // a Connect Token's own description: only a token has one
			key = env.Do(t, "POST", "/connect_token", a.APIKey, bodies["token"]).Want(200).String("accessToken")
		}
		r := env.Do(t, method, azPath(pattern, spec, fx), key, body)
		if r.Status != 200 {
			t.Errorf("%s: %d %.300s", route, r.Status, r.Body)
			continue
		}
		var v any
		if err := json.Unmarshal(r.Body, &v); err != nil {
			t.Errorf("%s: %v", route, err)
			continue
		}
		if err := media.Schema.Value.VisitJSON(v, openapi3.EnableJSONSchema2020()); err != nil {
			t.Errorf("%s answered what its schema does not allow: %v\n%.600s", route, err, r.Body)
		}
		checked++
	}
	if checked < 50 {
		t.Fatalf("only %d answers checked", checked)
	}
}
