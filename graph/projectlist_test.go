package graph

import (
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"ponte/graph/generated"
)

// A list field's plan is compiled once per parsed query and reused, unless it could differ
// from one request to the next: a directive may read a variable, and a fragment's field
// is merged with different siblings where the fragment is spread.
func TestCompiledPlansFollowTheQuery(t *testing.T) {
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	def := schema.Types["Transaction"]
	doc := []byte(`{"id":"t1","amount":12.5,"description":"x"}`)
	// nodesOf returns the FieldContexts of every nodes field of query, in the order the
	// executor collects them.
	nodesOf := func(query string) (*graphql.OperationContext, []*graphql.FieldContext) {
		qd, errs := gqlparser.LoadQuery(schema, query)
		if errs != nil {
			t.Fatal(errs)
		}
		oc := &graphql.OperationContext{RawQuery: query, Doc: qd, Operation: qd.Operations[0], Variables: map[string]any{"s": false}}
		var out []*graphql.FieldContext
		var walk func(sel ast.SelectionSet, typ string)
		walk = func(sel ast.SelectionSet, typ string) {
			for _, f := range graphql.CollectFields(oc, sel, []string{typ}) {
				if f.Name == "nodes" {
					out = append(out, &graphql.FieldContext{Field: f})
				} else if len(f.Selections) > 0 {
					walk(f.Selections, f.Definition.Type.Name())
				}
			}
		}
		walk(qd.Operations[0].SelectionSet, "Query")
		return oc, out
	}
	written := func(s planSource) string {
		p := s.get()
		defer s.put(p)
		b, _ := p.write(nil, doc)
		return string(b)
	}
	pj := projector{schema}

	oc, fcs := nodesOf(`{ account(id: "00000000-0000-0000-0000-000000000001") { transactions { nodes { id amount } } } }`)
	first := pj.plans(oc, fcs[0], def)
	again := pj.plans(oc, fcs[0], def)
	if first.t == nil || again.t != first.t {
		t.Fatalf("the same field of the same parsed query was compiled twice")
	}
	if got := written(first); got != `{"id":"t1","amount":12.5}` {
		t.Fatalf("cached plan wrote %s", got)
	}

	oc, fcs = nodesOf(`query($s: Boolean!) { account(id: "00000000-0000-0000-0000-000000000001") { transactions { nodes { id amount @skip(if: $s) } } } }`)
	if s := pj.plans(oc, fcs[0], def); s.t != nil || written(s) != `{"id":"t1","amount":12.5}` {
		t.Fatalf("a plan under a directive was cached (%v) or wrote %s", s.t != nil, written(s))
	}

	oc, fcs = nodesOf(`{ a: account(id: "00000000-0000-0000-0000-000000000001") { transactions { ...F nodes { amount } } }
		b: account(id: "00000000-0000-0000-0000-000000000002") { transactions { ...F } } }
		fragment F on TransactionConnection { nodes { id } }`)
	if len(fcs) != 2 || fcs[0].Field.Field != fcs[1].Field.Field {
		t.Fatalf("the fragment's nodes field should lead both lists: %d lists", len(fcs))
	}
	if got := written(pj.plans(oc, fcs[0], def)); got != `{"id":"t1","amount":12.5}` {
		t.Fatalf("merged with its sibling, the fragment's field wrote %s", got)
	}
	if got := written(pj.plans(oc, fcs[1], def)); got != `{"id":"t1"}` {
		t.Fatalf("alone, the fragment's field wrote %s", got)
	}
}
