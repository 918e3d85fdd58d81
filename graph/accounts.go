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

// resolvedFields are, by object type, the fields that resolvers compute, which a stored
// document does not hold: the methods of generated.ResolverRoot's XResolver interfaces.
var resolvedFields = func() map[string]map[string]bool {
	out := map[string]map[string]bool{}
	root := reflect.TypeFor[generated.ResolverRoot]()
	for i := range root.NumMethod() {
		m := root.Method(i)
		out[m.Name] = resolverFields(m.Type.Out(0))
	}
	return out
}()

func resolverFields(iface reflect.Type) map[string]bool {
	out := map[string]bool{}
	for i := range iface.NumMethod() {
		name := []rune(iface.Method(i).Name)
		name[0] = unicode.ToLower(name[0])
		out[string(name)] = true
	}
	return out
}

// resolvedAccountFields are the Account fields that resolvers compute.
var resolvedAccountFields = resolvedFields["Account"]

// Accounts answers an item's accounts as their stored documents: the projection writes the
// selected fields from them (decoding each document into a struct and marshalling it field
// by field was a sixth of a dashboard query's CPU), and results decodes them only for a
// selection of fields resolvers compute.
func (r *queryResolver) Accounts(ctx context.Context, itemID uuid.UUID, typ *string) (*model.AccountPage, error) {
	return r.Collected.Accounts(ctx, itemID, typ)
}

// AccountPage returns the AccountPage field resolvers.
func (r *Resolver) AccountPage() generated.AccountPageResolver { return &accountPageResolver{r} }

type accountPageResolver struct{ *Resolver }

// Results decodes the accounts for a selection the projection cannot write, and loads the
// first pages of transactions it asks for, for every account at once.
func (r *accountPageResolver) Results(ctx context.Context, page *model.AccountPage) ([]*model.Account, error) {
	list, err := decodeAll[model.Account](page.Documents)
	if err != nil {
		return nil, err
	}
	fields := graphql.CollectFields(graphql.GetOperationContext(ctx), graphqlSelections(ctx), []string{"Account"})
	return list, r.prefetchTransactions(ctx, list, fields)
}

// Account reads the account and, when the query asks for the first page of its
// transactions, that page in the same statement: the owner check and the page were two
// round trips, and under load the database's work per statement sets the rate a
// dashboard can hold. Arguments the page refuses leave the field's own resolver to
// report them where the query put them. A selection of nothing but resolvers' fields
// reads no document (the account's id is known): then a page after a cursor is read alone
// too, its read checking the owner, as GET /v2/transactions does (reading the account
// first was a second statement on every later page of a dashboard).
func (r *queryResolver) Account(ctx context.Context, id uuid.UUID) (*model.Account, error) {
	fields := selectedFields(ctx)
	withDocument := slices.ContainsFunc(fields, func(f graphql.CollectedField) bool {
		return f.Name != "id" && f.Name != "__typename" && !resolvedAccountFields[f.Name]
	})
	for _, sel := range transactionSelections(ctx, fields) {
		args := sel.args
		tf := collected.TransactionFilterOf(id, args.Filter)
		if _, err := collected.First(args.First, collected.DefaultFirst); err != nil || collected.CheckTransactionFilter(tf) != nil {
			continue
		}
		if args.After != nil {
			if withDocument {
				continue
			}
			page, err := r.Collected.Transactions(ctx, tf, args.First, args.After)
			if refused(err) {
				continue
			} else if err != nil {
				return nil, err
			}
			cachePut(ctx, cacheKey{"transactions", id, sel.key}, page)
			return &model.Account{ID: id}, nil
		}
		a, page, err := r.Collected.AccountWithTransactions(ctx, tf, args.First, withDocument)
		if err != nil {
			return nil, err
		}
		cachePut(ctx, cacheKey{"transactions", id, sel.key}, page)
		return a, nil
	}
	return r.Collected.Account(ctx, id)
}
