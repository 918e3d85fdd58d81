package graph

import (
	"context"

	"github.com/99designs/gqlgen/complexity"
	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"ponte/graph/generated"
	"ponte/model"
)

// Query limits. The schema has no cycles today: its deepest path, items to a transaction's
// payer document through edges { node }, is 13 levels; 12 allows every path through nodes
// and stops a future cycle from being walked without end. Complexity counts every selected field once per row it can produce: a
// connection multiplies what it selects by its first (an item's accounts count as 10). A
// 500-row page of transactions with every scalar field is about 13,000; 20 items × their
// accounts × 50 transactions of five fields, about 60,000.
const (
	maxQueryComplexity = 100_000
	maxQueryDepth      = 12
	accountsPerItem    = 10
)

func times(first *int, def int) int {
	if first != nil && *first > 0 {
		return *first
	}
	return def
}

// setComplexity gives each list field its cost per row.
func setComplexity(c *generated.ComplexityRoot) {
	page := func(child int, first *int) int { return 1 + child*times(first, defaultFirst) }
	c.Account.Transactions = func(child int, first *int, _ *string, _ *model.TransactionFilterInput) int { return page(child, first) }
	c.Account.Bills = func(child int, first *int, _ *string) int { return page(child, first) }
	c.Account.Statements = func(child int, first *int, _ *string) int { return page(child, first) }
	c.Investment.Transactions = func(child int, first *int, _ *string) int { return page(child, first) }
	c.Item.Investments = func(child int, _ *string, first *int, _ *string) int { return page(child, first) }
	c.Item.Loans = func(child int, first *int, _ *string) int { return page(child, first) }
	c.Item.Accounts = func(child int, _ *string) int { return 1 + child*accountsPerItem }
	c.Query.Transactions = func(child int, _ uuid.UUID, first *int, _ *string, _ *model.TransactionFilterInput) int {
		return page(child, first)
	}
	c.Query.Investments = func(child int, _ uuid.UUID, _ *string, first *int, _ *string) int { return page(child, first) }
	c.Query.InvestmentTransactions = func(child int, _ uuid.UUID, first *int, _ *string) int { return page(child, first) }
	c.Query.Loans = func(child int, _ uuid.UUID, first *int, _ *string) int { return page(child, first) }
	c.Query.Bills = func(child int, _ uuid.UUID, first *int, _ *string) int { return page(child, first) }
	c.Query.AccountStatements = func(child int, _ uuid.UUID, first *int, _ *string) int { return page(child, first) }
	c.Query.Consents = func(child int, _ uuid.UUID, first *int, _ *string) int { return page(child, first) }
	c.Query.ItemConnection = func(child int, _ *string, _ *int, first *int, _ *string) int { return 1 + child*times(first, 20) }
	// A wrong secret costs the hash POST /auth times (tens of ms): one exchange per
	// operation, so a document of aliases cannot multiply it.
	c.Mutation.CreateAPIKey = func(int, string, string) int { return maxQueryComplexity/2 + 1 }
}

// queryLimits refuses a query more complex than the limit before any resolver runs, with an
// error that says by how much. It runs after validation, which complexity.Calculate needs;
// prevalidate has already bounded the selections it walks and refused queries too deep.
type queryLimits struct{ es graphql.ExecutableSchema }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = queryLimits{}

func (queryLimits) ExtensionName() string                   { return "QueryLimits" }
func (queryLimits) Validate(graphql.ExecutableSchema) error { return nil }
func (l queryLimits) MutateOperationContext(ctx context.Context, op *graphql.OperationContext) *gqlerror.Error {
	if op.Operation == nil {
		return nil
	}
	if c := complexity.Calculate(ctx, l.es, op.Operation, op.Variables); c > maxQueryComplexity {
		e := model.Fail(model.CodeQueryTooComplex, "The query's complexity is %d; the limit is %d. Ask for fewer rows (first) or fewer fields, and page through the rest.", c, maxQueryComplexity)
		return &gqlerror.Error{Message: e.Message, Err: e, Extensions: e.Extensions()}
	}
	return nil
}
