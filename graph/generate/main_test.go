package main

import (
	"os"
	"strings"
	"testing"
)

// TestQueryRootInTurn fails when the executor was written by plain `gqlgen generate`,
// which puts a query's root fields back in goroutines: regenerate with go run
// ./graph/generate.
func TestQueryRootInTurn(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("../generated/generated.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{"Query", "Mutation"} {
		start := strings.Index(string(src), "func (ec *executionContext) _"+root+"(ctx context.Context, sel ast.SelectionSet) graphql.Marshaler {")
		if start < 0 {
			t.Fatalf("no executor for the %s type", root)
		}
		body, _, found := strings.Cut(string(src[start:]), "\n}\n")
		if !found {
			t.Fatalf("the %s type's executor has no end", root)
		}
		if strings.Contains(body, "ResolveRootConcurrently") {
			t.Errorf("the %s type's root fields run in goroutines: regenerate with go run ./graph/generate", root)
		}
		// Every case of the executor's switch but __typename is a root field.
		fields := strings.Count(body, "\t\tcase \"") - 1
		if n := strings.Count(body, "RootResolverMiddleware"); fields < 5 || n != fields {
			t.Errorf("the %s type resolves %d of its %d root fields in turn; want all of them", root, n, fields)
		}
	}
}
