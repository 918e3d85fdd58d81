package graph

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/99designs/gqlgen/graphql"

	"ponte/collected"
	"ponte/graph/generated"
	"ponte/model"
)

// The GraphQL shapes of connections: edges, nodes and pageInfo built from the pages the
// collected package reads, each part only when the query selects it.

const defaultFirst = collected.DefaultFirst

func firstArg(first *int, def int) (int, error) { return collected.First(first, def) }

// selected reports whether the field being resolved selects name.
func selected(ctx context.Context, name string) bool {
	return slices.ContainsFunc(selectedFields(ctx), func(f graphql.CollectedField) bool { return f.Name == name })
}

// selectedFields are the fields the field being resolved selects: none when no field is
// being resolved (a call made outside a GraphQL operation selects nothing).
func selectedFields(ctx context.Context) []graphql.CollectedField {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || fc.Field.Field == nil {
		return nil
	}
	return graphql.CollectFieldsCtx(ctx, nil)
}

// decodeAll turns documents into model values, each keeping its document when its type
// has a storedDocument field (model.Stored).
func decodeAll[T any](docs []model.JSONDocument) ([]*T, error) {
	out := make([]*T, len(docs))
	for i, d := range docs {
		v, err := decodeOne[T](d, nil)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// decodeOne turns one document into a model value, as decodeAll does.
func decodeOne[T any](doc model.JSONDocument, err error) (*T, error) {
	if err != nil {
		return nil, err
	}
	v := new(T)
	if err := json.Unmarshal(doc, v); err != nil {
		return nil, err
	}
	if s, ok := any(v).(interface{ Keep(model.JSONDocument) }); ok {
		s.Keep(doc)
	}
	return v, nil
}

// TransactionConnection returns the TransactionConnection field resolvers.
func (r *Resolver) TransactionConnection() generated.TransactionConnectionResolver {
	return &transactionConnectionResolver{r}
}

type transactionConnectionResolver struct{ *Resolver }

// PageInfo signs the end cursor: a cursor is signed (an HMAC, a few µs) only for a query
// that reads one.
func (r *transactionConnectionResolver) PageInfo(ctx context.Context, c *model.TransactionConnection) (*model.PageInfo, error) {
	return &model.PageInfo{HasNextPage: c.PageInfo.HasNextPage, EndCursor: r.Collected.EndCursor(c)}, nil
}

// Edges gives each row its cursor; the projection writes each edge's node from the row's
// document (project.go).
func (r *transactionConnectionResolver) Edges(ctx context.Context, c *model.TransactionConnection) ([]*model.TransactionEdge, error) {
	edges := make([]*model.TransactionEdge, len(c.Documents))
	for i := range c.Documents {
		edges[i] = &model.TransactionEdge{Cursor: r.Collected.RowCursor(c, i)}
	}
	return edges, nil
}

// docPage is a page of product documents decoded for a connection.
type docPage[T any] struct {
	nodes   []*T
	cursors []string
	info    model.PageInfo
	total   int
}

// documents reads one page of a product for a connection, asking for what the query
// selects: a cursor per row for edges, the count for totalCount.
func documents[T any](ctx context.Context, r *Resolver, s model.DocumentScope, first *int, after *string) (*docPage[T], error) {
	want := collected.DocumentWant{Cursors: selected(ctx, "edges"), Total: selected(ctx, "totalCount")}
	pg, err := r.Collected.Documents(ctx, s, first, after, want)
	if err != nil {
		return nil, err
	}
	nodes, err := decodeAll[T](pg.Docs)
	if err != nil {
		return nil, err
	}
	return &docPage[T]{nodes: nodes, cursors: pg.Cursors, total: pg.Total,
		info: model.PageInfo{HasNextPage: pg.HasNextPage, EndCursor: pg.EndCursor}}, nil
}

// edges pairs a page's nodes with their cursors, when the query asked for them.
func edges[T, E any](pg *docPage[T], edge func(cursor string, n *T) E) []E {
	out := make([]E, len(pg.cursors))
	for i, c := range pg.cursors {
		out[i] = edge(c, pg.nodes[i])
	}
	return out
}

func (r *Resolver) investmentConnection(ctx context.Context, s model.DocumentScope, first *int, after *string) (*model.InvestmentConnection, error) {
	pg, err := documents[model.Investment](ctx, r, s, first, after)
	if err != nil {
		return nil, err
	}
	return &model.InvestmentConnection{TotalCount: pg.total, PageInfo: pg.info, Nodes: pg.nodes,
		Edges: edges(pg, func(c string, n *model.Investment) *model.InvestmentEdge {
			return &model.InvestmentEdge{Cursor: c, Node: n}
		})}, nil
}

func (r *Resolver) investmentTransactionConnection(ctx context.Context, s model.DocumentScope, first *int, after *string) (*model.InvestmentTransactionConnection, error) {
	pg, err := documents[model.InvestmentTransaction](ctx, r, s, first, after)
	if err != nil {
		return nil, err
	}
	return &model.InvestmentTransactionConnection{TotalCount: pg.total, PageInfo: pg.info, Nodes: pg.nodes,
		Edges: edges(pg, func(c string, n *model.InvestmentTransaction) *model.InvestmentTransactionEdge {
			return &model.InvestmentTransactionEdge{Cursor: c, Node: n}
		})}, nil
}

func (r *Resolver) loanConnection(ctx context.Context, s model.DocumentScope, first *int, after *string) (*model.LoanConnection, error) {
	pg, err := documents[model.Loan](ctx, r, s, first, after)
	if err != nil {
		return nil, err
	}
	return &model.LoanConnection{TotalCount: pg.total, PageInfo: pg.info, Nodes: pg.nodes,
		Edges: edges(pg, func(c string, n *model.Loan) *model.LoanEdge { return &model.LoanEdge{Cursor: c, Node: n} })}, nil
}

func (r *Resolver) billConnection(ctx context.Context, s model.DocumentScope, first *int, after *string) (*model.CreditCardBillConnection, error) {
	pg, err := documents[model.CreditCardBill](ctx, r, s, first, after)
	if err != nil {
		return nil, err
	}
	return &model.CreditCardBillConnection{TotalCount: pg.total, PageInfo: pg.info, Nodes: pg.nodes,
		Edges: edges(pg, func(c string, n *model.CreditCardBill) *model.CreditCardBillEdge {
			return &model.CreditCardBillEdge{Cursor: c, Node: n}
		})}, nil
}

func (r *Resolver) statementConnection(ctx context.Context, s model.DocumentScope, first *int, after *string) (*model.AccountStatementConnection, error) {
	pg, err := documents[model.AccountStatement](ctx, r, s, first, after)
	if err != nil {
		return nil, err
	}
	return &model.AccountStatementConnection{TotalCount: pg.total, PageInfo: pg.info, Nodes: pg.nodes,
		Edges: edges(pg, func(c string, n *model.AccountStatement) *model.AccountStatementEdge {
			return &model.AccountStatementEdge{Cursor: c, Node: n}
		})}, nil
}

func (r *Resolver) consentConnection(ctx context.Context, s model.DocumentScope, first *int, after *string) (*model.ConsentConnection, error) {
	pg, err := documents[model.Consent](ctx, r, s, first, after)
	if err != nil {
		return nil, err
	}
	return &model.ConsentConnection{TotalCount: pg.total, PageInfo: pg.info, Nodes: pg.nodes,
		Edges: edges(pg, func(c string, n *model.Consent) *model.ConsentEdge { return &model.ConsentEdge{Cursor: c, Node: n} })}, nil
}
