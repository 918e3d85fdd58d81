package graph

import (
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"ponte/graph/generated"
)

// The projection writes an object field's value by the field's declared type, which only
// works when that type is concrete: an interface or union below a projected list would need
// its concrete type from the document. This keeps a schema change from breaking it silently.
func TestProjectedTypesAreConcrete(t *testing.T) {
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	seen := map[string]bool{}
	var walk func(name, path string)
	walk = func(name, path string) {
		if seen[name] {
			return
		}
		seen[name] = true
		def := schema.Types[name]
		switch def.Kind {
		case ast.Interface, ast.Union:
			t.Fatalf("%s is a %s: projected lists cannot write abstract types", path, def.Kind)
		case ast.Object:
			for _, f := range def.Fields {
				if len(f.Arguments) > 0 {
					t.Fatalf("%s.%s takes arguments: projected lists copy stored values", path, f.Name)
				}
				walk(f.Type.Name(), path+"."+f.Name)
			}
		}
	}
	for _, list := range []string{"nodes", "edges"} {
		walk(schema.Types["TransactionConnection"].Fields.ForName(list).Type.Name(), "TransactionConnection."+list)
	}
	if !seen["Merchant"] || !seen["PaymentParticipant"] {
		t.Fatalf("the walk missed the nested types: %v", seen)
	}
}
