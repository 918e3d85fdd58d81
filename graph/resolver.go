// Package graph holds the resolvers: the one implementation behind both GraphQL and REST.
// Each resolver method checks the caller through auth.Require, applies the rules of the
// interface, and reads or writes through db. Generated code stays in graph/generated.
package graph

import (
	"log/slog"

	"ponte/auth"
	"ponte/db"
	"ponte/graph/generated"
	"ponte/itemsync"
)

// Resolver is the root of every resolver.
type Resolver struct {
	DB   *db.DB
	Auth *auth.Service
	Log  *slog.Logger
	// Limiter applies the per-IP request limits of section 8; nil means the defaults.
	Limiter *auth.Limiter
	// Sync creates, updates and runs items.
	Sync *itemsync.Engine
}

// Query returns the query resolvers.
func (r *Resolver) Query() generated.QueryResolver { return &queryResolver{r} }

// Mutation returns the mutation resolvers.
func (r *Resolver) Mutation() generated.MutationResolver { return &mutationResolver{r} }

type queryResolver struct{ *Resolver }
type mutationResolver struct{ *Resolver }
