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

// resolvedAccountFields are the Account fields that resolvers compute, which a stored
// account document does not hold: the methods of generated.AccountResolver.
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

// Accounts answers an item's accounts. When the results ask only for what the stored
// documents hold, the page carries the documents as GET /accounts sends them and the
// projection writes the selected fields from them: decoding each document into a struct
// and marshalling it field by field was a sixth of a dashboard query's CPU.
func (r *queryResolver) Accounts(ctx context.Context, itemID uuid.UUID, typ *string) (*model.AccountPage, error) {
	if graphql.GetFieldContext(ctx) == nil { // REST's call reads no selection
		return r.Collected.Accounts(ctx, itemID, typ)
	}
	op := graphql.GetOperationContext(ctx)
	var results []graphql.CollectedField
	for _, f := range graphql.CollectFields(op, graphqlSelections(ctx), []string{"AccountPage"}) {
		if f.Name == "results" {
			results = append(results, graphql.CollectFields(op, f.Selections, []string{"Account"})...)
		}
	}
	if storedOnly(results) {
		docs, err := r.Collected.AccountDocs(ctx, nil, itemID, typ) // the page keeps them: no shared buffer
		if err != nil {
			return nil, err
		}
		page := &model.AccountPage{Total: len(docs), TotalPages: model.ListPages(len(docs)), Page: 1, Results: []*model.Account{},
			Documents: make([]model.JSONDocument, len(docs))}
		for i, d := range docs {
			page.Documents[i] = model.JSONDocument(d)
		}
		return page, nil
	}
	page, err := r.Collected.Accounts(ctx, itemID, typ)
	if err != nil {
		return nil, err
	}
	return page, r.prefetchTransactions(ctx, page.Results, results)
}

// storedOnly reports whether a selection of Account fields (results' own; nested objects
// are parts of the document) needs no resolver. An empty one (only total, say) reads the
// structs: there is nothing to write.
func storedOnly(fields []graphql.CollectedField) bool {
	for _, f := range fields {
		if resolvedAccountFields[f.Name] {
			return false
		}
	}
	return len(fields) > 0
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
	for _, sel := range firstPageSelections(ctx, fields) {
		args := sel.args
		tf := collected.TransactionFilterOf(id, args.Filter)
		if _, err := collected.First(args.First, collected.DefaultFirst); err != nil || collected.CheckTransactionFilter(tf) != nil {
			continue
		}
		a, page, err := r.Collected.AccountWithTransactions(ctx, tf, args.First, withDocument)
		if err != nil {
			return nil, err
		}
		conn, err := r.txConnection(page, sel.want)
		if err != nil {
			return nil, err
		}
		cachePut(ctx, cacheKey{"transactions", id, sel.key}, conn)
		return a, nil
	}
	return r.Collected.Account(ctx, id)
}
