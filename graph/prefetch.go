package graph

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"
	"github.com/vektah/gqlparser/v2/ast"

	"ponte/collected"
	"ponte/model"
)

// Dataloading by look-ahead. gqlgen resolves each list element in its own goroutine, so a
// per-parent resolver would run one statement per item and per account. Instead, the
// resolver of a list reads the query below it, loads the children of every parent in one
// statement per distinct set of arguments, and leaves them in a per-operation cache that
// the child resolvers read. The number of statements depends on the query's shape, never
// on how many items, accounts or transactions there are, and no timing window is involved.

type cacheKey struct {
	kind   string
	parent uuid.UUID
	args   string
}

type prefetched struct {
	mu sync.Mutex
	m  map[cacheKey]any
}

type prefetchKey struct{}

// withPrefetch gives an operation its cache.
func withPrefetch(ctx context.Context) context.Context {
	return context.WithValue(ctx, prefetchKey{}, &prefetched{m: map[cacheKey]any{}})
}

func cacheGet[T any](ctx context.Context, k cacheKey) (T, bool) {
	var zero T
	c, _ := ctx.Value(prefetchKey{}).(*prefetched)
	if c == nil {
		return zero, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k].(T)
	return v, ok
}

func cachePut(ctx context.Context, k cacheKey, v any) {
	if c, _ := ctx.Value(prefetchKey{}).(*prefetched); c != nil {
		c.mu.Lock()
		c.m[k] = v
		c.mu.Unlock()
	}
}

// argsKey identifies a field's arguments (after variables and defaults), the same way for
// the look-ahead and for the field's own resolver.
func argsKey(ctx context.Context, f *ast.Field) string {
	b, _ := json.Marshal(f.ArgumentMap(graphql.GetOperationContext(ctx).Variables))
	return string(b)
}

// ownArgsKey is argsKey of the field being resolved.
func ownArgsKey(ctx context.Context) string {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || fc.Field.Field == nil {
		return ""
	}
	return argsKey(ctx, fc.Field.Field)
}

// nodeFields returns the fields a connection's selection asks of its nodes, through nodes
// and through edges { node }, fragments included.
func nodeFields(ctx context.Context, sel ast.SelectionSet, conn, edge, node string) []graphql.CollectedField {
	op := graphql.GetOperationContext(ctx)
	var out []graphql.CollectedField
	for _, f := range graphql.CollectFields(op, sel, []string{conn}) {
		switch f.Name {
		case "nodes":
			out = append(out, graphql.CollectFields(op, f.Selections, []string{node})...)
		case "edges":
			for _, e := range graphql.CollectFields(op, f.Selections, []string{edge}) {
				if e.Name == "node" {
					out = append(out, graphql.CollectFields(op, e.Selections, []string{node})...)
				}
			}
		}
	}
	return out
}

// prefetchItemChildren loads the accounts of every item in one statement per distinct
// accounts(...) selection, then their transactions.
func (r *Resolver) prefetchItemChildren(ctx context.Context, items []*model.Item, itemFields []graphql.CollectedField) error {
	if len(items) == 0 {
		return nil
	}
	ids := make([]uuid.UUID, len(items))
	for i, it := range items {
		ids[i] = it.ID
	}
	for _, f := range itemFields {
		if f.Name != "accounts" {
			continue
		}
		key := argsKey(ctx, f.Field)
		var args struct {
			Type *string `json:"type"`
		}
		if json.Unmarshal([]byte(key), &args) != nil {
			continue
		}
		byItem, err := r.Collected.AccountsOfItems(ctx, ids, args.Type)
		if refused(err) {
			continue
		} else if err != nil {
			return err
		}
		var all []*model.Account
		for _, id := range ids {
			cachePut(ctx, cacheKey{"accounts", id, key}, byItem[id])
			all = append(all, byItem[id]...)
		}
		accountFields := nodeFields(ctx, f.Selections, "AccountConnection", "AccountEdge", "Account")
		if err := r.prefetchTransactions(ctx, all, accountFields); err != nil {
			return err
		}
	}
	return nil
}

// prefetchTransactions loads the first page of transactions of every account in one
// statement per distinct transactions(...) selection. Pages after a cursor belong to one
// account and are left to the resolver.
func (r *Resolver) prefetchTransactions(ctx context.Context, accounts []*model.Account, accountFields []graphql.CollectedField) error {
	if len(accounts) == 0 {
		return nil
	}
	for _, sel := range firstPageSelections(ctx, accountFields) {
		key, args := sel.key, sel.args
		todo := make([]*model.Account, 0, len(accounts))
		for _, a := range accounts {
			// An account without its item is left to the resolver: the batch reads the
			// named items' rows only.
			if _, done := cacheGet[*model.TransactionConnection](ctx, cacheKey{"transactions", a.ID, key}); !done && a.ItemID != uuid.Nil {
				todo = append(todo, a)
			}
		}
		if len(todo) == 0 {
			continue
		}
		shared := collected.TransactionFilterOf(uuid.Nil, args.Filter)
		pages, err := r.Collected.FirstTransactionPages(ctx, todo, shared, args.First)
		if refused(err) {
			continue
		} else if err != nil {
			return err
		}
		for _, a := range todo {
			cachePut(ctx, cacheKey{"transactions", a.ID, key}, pages[a.ID])
		}
	}
	return nil
}

// transactionArgs are the arguments of a transactions(...) selection.
type transactionArgs struct {
	First  *int                          `json:"first"`
	After  *string                       `json:"after"`
	Filter *model.TransactionFilterInput `json:"filter"`
}

// firstPageSelection is a transactions(...) selection of an Account that asks for a first
// page: its arguments and their argsKey (the prefetch cache's key).
type firstPageSelection struct {
	key  string
	args transactionArgs
}

// firstPageSelections picks them among an Account's fields. A page after a cursor belongs
// to one account and is left to the resolver.
func firstPageSelections(ctx context.Context, accountFields []graphql.CollectedField) []firstPageSelection {
	var out []firstPageSelection
	for _, sel := range transactionSelections(ctx, accountFields) {
		if sel.args.After == nil {
			out = append(out, sel)
		}
	}
	return out
}

// transactionSelections are all the transactions(...) selections among an Account's
// fields, pages after a cursor included.
func transactionSelections(ctx context.Context, accountFields []graphql.CollectedField) []firstPageSelection {
	var out []firstPageSelection
	for _, f := range accountFields {
		if f.Name != "transactions" {
			continue
		}
		sel := firstPageSelection{key: argsKey(ctx, f.Field)}
		if json.Unmarshal([]byte(sel.key), &sel.args) != nil {
			continue
		}
		out = append(out, sel)
	}
	return out
}

// refused reports whether a batched read refused the caller or the arguments: nothing is
// prefetched, and each field's own resolver reports the error where the query put it.
func refused(err error) bool {
	if err == nil {
		return false
	}
	_, internal := model.AsError(err)
	return !internal
}

// graphqlSelections is the selection set of the field being resolved.
func graphqlSelections(ctx context.Context) ast.SelectionSet {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || fc.Field.Field == nil {
		return nil
	}
	return fc.Field.Selections
}
