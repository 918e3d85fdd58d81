package graph

import (
	"context"

	"github.com/google/uuid"

	"ponte/collected"
	"ponte/graph/generated"
	"ponte/model"
)

// The GraphQL-only shapes of the products: connections under items, accounts and
// investments, over the same reads as REST.

// Item returns the Item field resolvers.
func (r *Resolver) Item() generated.ItemResolver { return &itemResolver{r} }

// Account returns the Account field resolvers.
func (r *Resolver) Account() generated.AccountResolver { return &accountResolver{r} }

// Investment returns the Investment field resolvers.
func (r *Resolver) Investment() generated.InvestmentResolver { return &investmentResolver{r} }

type itemResolver struct{ *Resolver }
type accountResolver struct{ *Resolver }
type investmentResolver struct{ *Resolver }

func (r *queryResolver) ItemConnection(ctx context.Context, clientUserID *string, connectorID *int, first *int, after *string) (*model.ItemConnection, error) {
	limit, err := firstArg(first, 20)
	if err != nil {
		return nil, err
	}
	a := ""
	if after != nil {
		a = *after
	}
	f := model.ItemFilter{ClientUserID: clientUserID, ConnectorID: connectorID}
	items, cursors, err := r.Sync.ListPage(ctx, f, a, limit)
	if err != nil {
		return nil, err
	}
	c := &model.ItemConnection{Edges: []*model.ItemEdge{}}
	if len(items) > limit {
		items, cursors = items[:limit], cursors[:limit]
		c.PageInfo.HasNextPage = true
	}
	c.Nodes = items
	if n := len(cursors); n > 0 {
		c.PageInfo.EndCursor = &cursors[n-1]
	}
	if selected(ctx, "edges") {
		for i, it := range items {
			c.Edges = append(c.Edges, &model.ItemEdge{Cursor: cursors[i], Node: it})
		}
	}
	if selected(ctx, "totalCount") {
		if c.TotalCount, err = r.Sync.CountItems(ctx, f); err != nil {
			return nil, err
		}
	}
	fields := nodeFields(ctx, graphqlSelections(ctx), "ItemConnection", "ItemEdge", "Item")
	return c, r.prefetchItemChildren(ctx, items, fields)
}

func (r *itemResolver) Accounts(ctx context.Context, it *model.Item, typ *string) (*model.AccountConnection, error) {
	// A prefetched list passed the checks of ItemAccounts for this caller.
	list, cached := cacheGet[[]*model.Account](ctx, cacheKey{"accounts", it.ID, ownArgsKey(ctx)})
	if !cached {
		byItem, err := r.Collected.AccountsOfItems(ctx, []uuid.UUID{it.ID}, typ)
		if err != nil {
			return nil, err
		}
		list = byItem[it.ID]
		fields := nodeFields(ctx, graphqlSelections(ctx), "AccountConnection", "AccountEdge", "Account")
		if err := r.prefetchTransactions(ctx, list, fields); err != nil {
			return nil, err
		}
	}
	c := &model.AccountConnection{TotalCount: len(list), Nodes: nonNil(list), Edges: []*model.AccountEdge{}}
	for _, a := range list {
		c.Edges = append(c.Edges, &model.AccountEdge{Cursor: a.ID.String(), Node: a})
	}
	if n := len(list); n > 0 {
		end := list[n-1].ID.String()
		c.PageInfo.EndCursor = &end
	}
	return c, nil
}

func (r *itemResolver) Investments(ctx context.Context, it *model.Item, typ *string, first *int, after *string) (*model.InvestmentConnection, error) {
	return r.investmentConnection(ctx, model.DocumentScope{Kind: "investment", ItemID: &it.ID, Type: typ}, first, after)
}

func (r *itemResolver) Loans(ctx context.Context, it *model.Item, first *int, after *string) (*model.LoanConnection, error) {
	return r.loanConnection(ctx, model.DocumentScope{Kind: "loan", ItemID: &it.ID}, first, after)
}

func (r *itemResolver) Identity(ctx context.Context, it *model.Item) (*model.Identity, error) {
	one := 1
	pg, err := documents[model.Identity](ctx, r.Resolver, model.DocumentScope{Kind: "identity", ItemID: &it.ID}, &one, nil)
	if err != nil || len(pg.nodes) == 0 {
		return nil, err
	}
	return pg.nodes[0], nil
}

func (r *itemResolver) Consents(ctx context.Context, it *model.Item) (*model.ConsentConnection, error) {
	return r.consentConnection(ctx, model.DocumentScope{Kind: "consent", ItemID: &it.ID}, nil, nil)
}

func (r *itemResolver) Spending(ctx context.Context, it *model.Item, from, to *model.Time) (*model.Spending, error) {
	return r.Collected.ItemSpending(ctx, it.ID, from, to)
}

func (r *accountResolver) Transactions(ctx context.Context, a *model.Account, first *int, after *string, filter *model.TransactionFilterInput) (*model.TransactionConnection, error) {
	// A prefetched page passed the checks of Transactions for this caller.
	if c, ok := cacheGet[*model.TransactionConnection](ctx, cacheKey{"transactions", a.ID, ownArgsKey(ctx)}); ok {
		return c, nil
	}
	return r.Collected.Transactions(ctx, collected.TransactionFilterOf(a.ID, filter), first, after)
}

func (r *accountResolver) Bills(ctx context.Context, a *model.Account, first *int, after *string) (*model.CreditCardBillConnection, error) {
	return r.billConnection(ctx, model.DocumentScope{Kind: "bill", OwnerID: &a.ID}, first, after)
}

func (r *accountResolver) Statements(ctx context.Context, a *model.Account, first *int, after *string) (*model.AccountStatementConnection, error) {
	return r.statementConnection(ctx, model.DocumentScope{Kind: "statement", OwnerID: &a.ID}, first, after)
}

func (r *accountResolver) Spending(ctx context.Context, a *model.Account, from, to *model.Time) (*model.Spending, error) {
	return r.Collected.AccountSpending(ctx, a.ID, from, to)
}

func (r *investmentResolver) Transactions(ctx context.Context, inv *model.Investment, first *int, after *string) (*model.InvestmentTransactionConnection, error) {
	return r.investmentTransactionConnection(ctx, model.DocumentScope{Kind: "investment_transaction", OwnerID: &inv.ID}, first, after)
}
