package graph_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"ponte/graph/generated"
)

// GraphiQL's docs pane is the API's reference for GraphQL users, so the schema the service
// serves (the generated copy of schema.graphqls) describes everything in it: every type,
// field, argument, enum value, input field and directive. gqlparser's prelude (String,
// __Schema, @include, ...) is built in and documented by the spec.
func TestSchemaDescribed(t *testing.T) {
	t.Parallel()
	s := generated.NewExecutableSchema(generated.Config{}).Schema()
	var missing []string
	need := func(desc, where string) {
		if strings.TrimSpace(desc) == "" {
			missing = append(missing, where)
		}
	}
	args := func(list ast.ArgumentDefinitionList, where string) {
		for _, a := range list {
			need(a.Description, where+"("+a.Name+":)")
		}
	}
	for name, def := range s.Types {
		if def.BuiltIn {
			continue
		}
		need(def.Description, name)
		for _, f := range def.Fields {
			if strings.HasPrefix(f.Name, "__") {
				continue // __schema and __type, added to Query by the parser
			}
			need(f.Description, name+"."+f.Name)
			args(f.Arguments, name+"."+f.Name)
		}
		for _, v := range def.EnumValues {
			need(v.Description, name+"."+v.Name)
		}
	}
	for name, d := range s.Directives {
		if d.Position != nil && d.Position.Src != nil && d.Position.Src.BuiltIn {
			continue
		}
		need(d.Description, "@"+name)
		args(d.Arguments, "@"+name)
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		t.Fatalf("%d schema elements have no description (schema.graphqls, then go run ./graph/generate):\n%s",
			len(missing), strings.Join(missing, "\n"))
	}
}
