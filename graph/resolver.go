// Package graph holds the resolvers: the one application layer, behind both GraphQL and
// REST, which calls them as GraphQL does. A resolver turns its arguments into a call of a
// domain package (collected for reads; itemsync, payments and webhooks for writes), which
// decides who may call it, applies the interface's rules and goes through db. graph keeps
// what is GraphQL: connections' shapes, the projection of stored documents and the
// look-ahead that batches nested lists. Generated code stays in graph/generated.
package graph

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"ponte/auth"
	"ponte/collected"
	"ponte/faults"
	"ponte/graph/generated"
	"ponte/itemsync"
	"ponte/merchants"
	"ponte/payments"
	"ponte/webhooks"
)

// Resolver is the root of every resolver.
type Resolver struct {
	Auth *auth.Service
	Log  *slog.Logger
	// Limiter applies the per-IP request limits of section 8; nil means the defaults.
	Limiter *auth.Limiter
	// Sync creates, updates and runs items.
	Sync *itemsync.Engine
	// Webhooks manages subscriptions and delivers events.
	WebhookEngine *webhooks.Engine
	// Payments runs payment requests, intents and schedules.
	Payments *payments.Engine
	// Collected reads accounts, transactions, products, connectors and categories.
	Collected *collected.Engine
	// Directory is the merchant directory (GET /merchants).
	Directory *merchants.Engine
	// Faults keeps the applications' sandbox fault injection rules.
	Faults *faults.Engine
	// SandboxUserStore keeps the applications' custom sandbox users (the store).
	SandboxUserStore SandboxUserStore
	// SandboxUserRules check custom sandbox users' descriptions (the sandbox institution's).
	SandboxUserRules SandboxUserRules
	// Now is the clock of date rules (the sunset of GET /transactions) handed to Collected
	// when it is made; nil means time.Now.
	Now func() time.Time
	// CountStatements, when set, adds extensions.sqlStatements, the number of SQL statements
	// an operation ran, to every GraphQL response (PONTE_GRAPHQL_SQL_STATS=1): it returns a
	// context whose statements the store counts (db.CountStatements).
	CountStatements func(context.Context) (context.Context, *atomic.Int64)
}

// Query returns the query resolvers.
func (r *Resolver) Query() generated.QueryResolver { return &queryResolver{r} }

// Mutation returns the mutation resolvers.
func (r *Resolver) Mutation() generated.MutationResolver { return &mutationResolver{r} }

type queryResolver struct{ *Resolver }
type mutationResolver struct{ *Resolver }
