package rest

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3gen"
	"github.com/google/uuid"

	"ponte/model"
)

// The OpenAPI 3.1 description of the REST surface is built from apiRoutes when the server
// starts: the schemas come from the Go types the handlers encode (kin-openapi's openapi3gen
// reads their json tags), so a field added to a model type is described without a second
// edit. The route table itself is checked against the router by a test.

// apiDocument builds the description.
func apiDocument() (*openapi3.T, error) {
	doc := &openapi3.T{
		OpenAPI: "3.1.0",
		Info: &openapi3.Info{Title: "Ponte", Version: "1",
			Description: "Financial data aggregation and payment initiation for Brazil. Every route but the public ones needs an API key (POST /auth) in X-API-KEY; errors have the body ErrorBody."},
		// Relative: the document is served by the service it describes, at whatever address.
		Servers:  openapi3.Servers{{URL: "/", Description: "This Ponte service"}},
		Security: openapi3.SecurityRequirements{{"apiKey": []string{}}},
		Paths:    openapi3.NewPaths(),
		Components: &openapi3.Components{
			Schemas: openapi3.Schemas{},
			SecuritySchemes: openapi3.SecuritySchemes{"apiKey": &openapi3.SecuritySchemeRef{
				Value: openapi3.NewSecurityScheme().WithType("apiKey").WithIn("header").WithName("X-API-KEY")}},
		},
	}
	errRef, err := component(doc, model.ErrorBody{})
	if err != nil {
		return nil, err
	}
	for _, r := range apiRoutes {
		op := &openapi3.Operation{Tags: []string{r.tag}, Summary: r.summary, OperationID: operationID(r.method, r.path),
			Responses: openapi3.NewResponses()}
		if r.public {
			// Said on each public operation (the document's default is the API key): linters
			// and generated clients read a missing security as "the default applies".
			op.Security = &openapi3.SecurityRequirements{}
		}
		for _, p := range pathParams.FindAllStringSubmatch(r.path, -1) {
			op.Parameters = append(op.Parameters, &openapi3.ParameterRef{Value: openapi3.NewPathParameter(p[1]).
				WithSchema(openapi3.NewStringSchema())})
		}
		for _, q := range r.query {
			op.Parameters = append(op.Parameters, &openapi3.ParameterRef{Value: openapi3.NewQueryParameter(q).
				WithSchema(openapi3.NewStringSchema())})
		}
		if r.body != nil {
			ref, err := component(doc, r.body)
			if err != nil {
				return nil, err
			}
			op.RequestBody = &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().WithRequired(true).WithJSONSchemaRef(ref)}
		}
		if r.file {
			file := openapi3.NewStringSchema().WithFormat("binary")
			op.RequestBody = &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().WithRequired(true).WithContent(openapi3.Content{
				"application/octet-stream": openapi3.NewMediaType().WithSchema(file),
				"multipart/form-data": openapi3.NewMediaType().WithSchema(openapi3.NewObjectSchema().
					WithProperty("file", file).WithRequired([]string{"file"})),
			})}
		}
		ok := openapi3.NewResponse().WithDescription("OK")
		switch {
		case r.html:
			ok.WithContent(openapi3.NewContentWithSchema(openapi3.NewStringSchema(), []string{"text/html"}))
		case r.plain:
			ok.WithContent(openapi3.NewContentWithSchema(openapi3.NewStringSchema(), []string{"text/plain"}))
		case r.stream:
			ok.WithContent(openapi3.NewContentWithSchema(openapi3.NewStringSchema(), []string{"text/event-stream"}))
		case r.resp != nil:
			ref, err := component(doc, r.resp)
			if err != nil {
				return nil, err
			}
			ok.WithJSONSchemaRef(ref)
		}
		op.Responses.Set("200", &openapi3.ResponseRef{Value: ok})
		op.Responses.Set("default", &openapi3.ResponseRef{Value: openapi3.NewResponse().
			WithDescription("An error: code, codeDescription, message").WithJSONSchemaRef(errRef)})
		doc.AddOperation(r.path, r.method, op)
	}
	return doc, nil
}

var pathParams = regexp.MustCompile(`\{(\w+)\}`)

// operationID is the method and path in camel case: getPaymentsRequestsById.
func operationID(method, path string) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(method))
	for _, part := range strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == '-' || r == '_' || r == '.' }) {
		if m := pathParams.FindStringSubmatch(part); m != nil {
			part = "by-" + m[1]
		}
		for _, w := range strings.Split(part, "-") {
			if w != "" {
				b.WriteString(strings.ToUpper(w[:1]) + w[1:])
			}
		}
	}
	return b.String()
}

// component adds the schema of v's type to the document's components, once, and returns a
// reference to it.
func component(doc *openapi3.T, v any) (*openapi3.SchemaRef, error) {
	name := schemaName(reflect.TypeOf(v))
	if _, done := doc.Components.Schemas[name]; !done {
		ref, err := openapi3gen.NewSchemaRefForValue(v, nil, openapi3gen.SchemaCustomizer(customize))
		if err != nil {
			return nil, fmt.Errorf("schema of %s: %w", name, err)
		}
		to31(ref, map[*openapi3.Schema]bool{})
		doc.Components.Schemas[name] = ref
	}
	return openapi3.NewSchemaRef("#/components/schemas/"+name, doc.Components.Schemas[name].Value), nil
}

// schemaName names a type's component: its Go name, a page of T "TPage", a list "TList".
func schemaName(t reflect.Type) string {
	switch {
	case t.Kind() == reflect.Slice:
		return schemaName(t.Elem()) + "List"
	case t.Kind() == reflect.Map:
		return "Object"
	case strings.HasPrefix(t.Name(), "pageOf["):
		return schemaName(t.Field(3).Type.Elem()) + "Page"
	}
	return strings.ToUpper(t.Name()[:1]) + t.Name()[1:]
}

var (
	timeType    = reflect.TypeOf(model.Time{})
	stdTimeType = reflect.TypeOf(time.Time{})
	uuidType    = reflect.TypeOf(uuid.UUID{})
	rawType     = reflect.TypeOf(json.RawMessage{})
	docType     = reflect.TypeOf(model.JSONDocument{})
	centsType   = reflect.TypeOf(model.Centavos(0))
)

// customize gives the types with their own JSON encoding the schema of what they write.
// encoding/json writes a nil slice or map as null: a field of either kind may be null.
func customize(name string, t reflect.Type, _ reflect.StructTag, s *openapi3.Schema) error {
	if name != "" && (t.Kind() == reflect.Slice && t != rawType && t != docType || t.Kind() == reflect.Map) {
		s.Nullable = true
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	nullable := s.Nullable
	switch t {
	case timeType, stdTimeType:
		*s = *openapi3.NewDateTimeSchema()
	case uuidType:
		*s = *openapi3.NewUUIDSchema()
	case rawType, docType:
		*s = openapi3.Schema{}
	case centsType: // kept in centavos, written in reais
		*s = *openapi3.NewFloat64Schema()
	default:
		if t.Kind() == reflect.Interface {
			*s = openapi3.Schema{}
		}
		return nil
	}
	s.Nullable = nullable
	return nil
}

// to31 writes openapi3gen's nullable (OpenAPI 3.0) the 3.1 way: null among the types.
func to31(ref *openapi3.SchemaRef, seen map[*openapi3.Schema]bool) {
	s := ref.Value
	if s == nil || seen[s] {
		return
	}
	seen[s] = true
	if s.Nullable {
		s.Nullable = false
		if s.Type != nil && !s.Type.Includes("null") {
			types := append(openapi3.Types{}, *s.Type...)
			types = append(types, "null")
			s.Type = &types
		}
	}
	for _, p := range s.Properties {
		to31(p, seen)
	}
	if s.Items != nil {
		to31(s.Items, seen)
	}
	if s.AdditionalProperties.Schema != nil {
		to31(s.AdditionalProperties.Schema, seen)
	}
}

//go:embed reference.html
var referencePage string

// openAPI serves the description and the page that renders it. The page's one script and
// one style are inline and allowed by their hashes, so it needs no other request than the
// description's.
func openAPI() (spec, page http.HandlerFunc, err error) {
	doc, err := apiDocument()
	if err != nil {
		return nil, nil, err
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, nil, fmt.Errorf("the OpenAPI description does not validate: %w", err)
	}
	body, err := json.Marshal(doc)
	if err != nil {
		return nil, nil, err
	}
	spec = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "public, max-age=300")
		_, _ = w.Write(body)
	}
	csp := "default-src 'none'; connect-src 'self'; script-src " + inlineHash(referencePage, "script") +
		"; style-src " + inlineHash(referencePage, "style") + "; base-uri 'none'; form-action 'none'"
	page = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", csp)
		_, _ = w.Write([]byte(referencePage))
	}
	return spec, page, nil
}

// inlineHash is the CSP source of the page's one inline element of that tag.
func inlineHash(page, tag string) string {
	start := strings.Index(page, "<"+tag+">") + len(tag) + 2
	end := strings.Index(page, "</"+tag+">")
	sum := sha256.Sum256([]byte(page[start:end]))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}
