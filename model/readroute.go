package model

import (
	"context"

	"github.com/google/uuid"
)

// ReadRoute is how one request's pure reads may be served. The HTTP layer fills it: a GET
// of the REST surface, or a GraphQL query, is read-only; anything else may write. The store
// sends a pure read of a read-only request to the read replica (DATABASE_READ_URL) only
// when the replica has replayed the caller's last write, so the type lives here, below the
// HTTP layer and the store alike.
type ReadRoute struct {
	ReadOnly bool
	// Client is the caller, whose own writes its reads must see; uuid.Nil when anonymous.
	Client uuid.UUID
}

// ReadRouteKey is the context key of a request's *ReadRoute. It is exported for the HTTP
// layer, which answers it from its one per-request value rather than wrapping the context.
type ReadRouteKey struct{}

// ReadRouteOf is the request's routing, or nil outside an HTTP request (jobs, tools):
// such work reads the primary.
func ReadRouteOf(ctx context.Context) *ReadRoute {
	r, _ := ctx.Value(ReadRouteKey{}).(*ReadRoute)
	return r
}
