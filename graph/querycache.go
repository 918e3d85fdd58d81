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
