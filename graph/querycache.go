package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/vektah/gqlparser/v2/ast"
)

// A dashboard sends the same few queries over and over, and gqlgen parses and validates
// each one again unless it has a cache (handler.New starts without one). Only queries of
// up to maxCachedQuery bytes are kept, in at most cachedQueries entries: an AST takes
// several times its text, and a caller must not be able to fill the memory with big ones.
const (
	maxCachedQuery = 8 << 10
	cachedQueries  = 256
)

// queryCache keeps parsed and validated queries. A query is only added once it validated,
// and the depth and complexity limits run on every request, cached or not.
type queryCache struct{ lru *lru.LRU[*ast.QueryDocument] }

func newQueryCache() queryCache { return queryCache{lru.New[*ast.QueryDocument](cachedQueries)} }

func (c queryCache) Get(ctx context.Context, query string) (*ast.QueryDocument, bool) {
	return c.lru.Get(ctx, query)
}

func (c queryCache) Add(ctx context.Context, query string, doc *ast.QueryDocument) {
	if len(query) <= maxCachedQuery {
		c.lru.Add(ctx, query, doc)
	}
}

// checkedQuery is what precheck needs of a query that passed prevalidate.
type checkedQuery struct {
	op         *ast.OperationDefinition // nil when the document has no such operation
	selections int64
	anonymous  bool // only publicFields at the root
}

// checkedQueries keeps prevalidate's verdict on queries that passed it, by text and
// operation name, under the same bounds as queryCache: the parse it does before gqlgen's
// cached one was 3% of a repeated dashboard query's CPU. The verdict depends on nothing
// else (the variables are checked on every request), so one cache serves every server.
var checkedQueries = lru.New[checkedQuery](cachedQueries)

// prevalidateCached is prevalidate for precheck, through checkedQueries.
func prevalidateCached(ctx context.Context, query, operationName string, variables map[string]any) (checkedQuery, error) {
	// Neither part holds a NUL byte once checked, so the key is unambiguous.
	key := operationName + "\x00" + query
	if c, ok := checkedQueries.Get(ctx, key); ok {
		if err := checkVariables(variables); err != nil { // a *model.Error: nil must not become a non-nil error
			return checkedQuery{}, err
		}
		return c, nil
	}
	p, err := prevalidate(query, operationName, variables)
	if err != nil {
		return checkedQuery{}, err
	}
	c := checkedQuery{op: p.op, selections: p.selections, anonymous: p.anonymous()}
	if len(query) <= maxCachedQuery {
		checkedQueries.Add(ctx, key, c)
	}
	return c, nil
}
