package graph

import (
	"context"
	"reflect"
	"slices"
	"unicode"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"

	"ponte/collected"
	"ponte/graph/generated"
	"ponte/model"
)

// resolvedAccountFields are the Account fields that resolvers compute from the account's
// id alone: the methods of generated.AccountResolver.
var resolvedAccountFields = resolverFields(reflect.TypeFor[generated.AccountResolver]())

func resolverFields(iface reflect.Type) map[string]bool {
	out := map[string]bool{}
	for i := range iface.NumMethod() {
		name := []rune(iface.Method(i).Name)
		name[0] = unicode.ToLower(name[0])
		out[string(name)] = true
	}
	return out
}

// Accounts answers an item's accounts, with the first transactions of all of them in one
// statement when the results ask for them.
func (r *queryResolver) Accounts(ctx context.Context, itemID uuid.UUID, typ *string) (*model.AccountPage, error) {
	page, err := r.Collected.Accounts(ctx, itemID, typ)
	if err != nil || graphql.GetFieldContext(ctx) == nil { // REST's call reads no selection
		return page, err
	}
	op := graphql.GetOperationContext(ctx)
	for _, f := range graphql.CollectFields(op, graphqlSelections(ctx), []string{"AccountPage"}) {
		if f.Name == "results" {
			if err := r.prefetchTransactions(ctx, page.Results, graphql.CollectFields(op, f.Selections, []string{"Account"})); err != nil {
				return nil, err
			}
		}
	}
	return page, nil
}

// Account reads the account and, when the query asks for the first page of its
// transactions, that page in the same statement: the owner check and the page were two
// round trips, and under load the database's work per statement sets the rate a
// dashboard can hold. Arguments the page refuses leave the field's own resolver to
// report them where the query put them.
func (r *queryResolver) Account(ctx context.Context, id uuid.UUID) (*model.Account, error) {
	if graphql.GetFieldContext(ctx) == nil { // REST's call reads no selection
		return r.Collected.Account(ctx, id)
	}
	fields := graphql.CollectFields(graphql.GetOperationContext(ctx), graphqlSelections(ctx), []string{"Account"})
	// Resolvers' fields need only the account's id; any other field reads the document.
	withDocument := slices.ContainsFunc(fields, func(f graphql.CollectedField) bool {
		return f.Name != "id" && f.Name != "__typename" && !resolvedAccountFields[f.Name]
	})
	for _, f := range fields {
		if f.Name != "transactions" {
			continue
		}
		key := argsKey(ctx, f.Field)
		args, ok := firstPageArgs(key)
		if !ok {
			continue
		}
		tf := collected.TransactionFilterOf(id, args.Filter)
		if _, err := collected.First(args.First, collected.DefaultFirst); err != nil || collected.CheckTransactionFilter(tf) != nil {
			continue
		}
		a, page, err := r.Collected.AccountWithTransactions(ctx, tf, args.First, withDocument)
		if err != nil {
			return nil, err
		}
		conn, err := r.txConnection(tf, page, wantOf(func(n string) bool { return hasField(ctx, f.Selections, "TransactionConnection", n) }))
		if err != nil {
			return nil, err
		}
		cachePut(ctx, cacheKey{"transactions", id, key}, conn)
		return a, nil
	}
	return r.Collected.Account(ctx, id)
}
