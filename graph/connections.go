package graph

import (
	"context"
	"encoding/json"

	"github.com/99designs/gqlgen/graphql"
	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

// Connection page sizes: first defaults to 50 and may go up to a REST page (500).
const (
	defaultFirst = 50
	maxFirst     = 500
)

func firstArg(first *int, def int) (int, error) {
	if first == nil {
		return def, nil
	}
	if *first < 1 || *first > maxFirst {
		return 0, model.Fail(model.CodeInvalidParameter, "first must be between 1 and %d (got %d).", maxFirst, *first)
	}
	return *first, nil
}

// selected reports whether the field being resolved selects name; outside GraphQL (a REST
// call) nothing is selected beyond what the REST body has.
func selected(ctx context.Context, name string) bool {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || fc.Field.Field == nil {
		return false
	}
	for _, f := range graphql.CollectFieldsCtx(ctx, nil) {
		if f.Name == name {
			return true
		}
	}
	return false
}

// decodeAll turns documents into model values.
func decodeAll[T any](docs []json.RawMessage) ([]*T, error) {
	out := make([]*T, len(docs))
	for i, d := range docs {
		v := new(T)
		if err := json.Unmarshal(d, v); err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// txWant is what a transaction connection's query selects: only that is built.
type txWant struct{ nodes, edges, documents bool }

// wantOf reads txWant from a selection of TransactionConnection.
func wantOf(has func(name string) bool) txWant {
	return txWant{nodes: has("nodes"), edges: has("edges"), documents: has("documents")}
}

// txConnection builds a page of transactions: nodes decoded (for nodes and edges, with a
// cursor per row for edges) and documents passed through, each only when selected.
func (r *Resolver) txConnection(f model.TransactionFilter, page *txPage, want txWant) (*model.TransactionConnection, error) {
	c := &model.TransactionConnection{Nodes: []*model.Transaction{}, Edges: []*model.TransactionEdge{}, Documents: []model.JSONDocument{},
		PageInfo: model.PageInfo{HasNextPage: page.next != nil}}
	if n := len(page.Keys); n > 0 {
		end := r.txCursor(f, page.Keys[n-1])
		c.PageInfo.EndCursor = &end
	}
	if want.documents {
		c.Documents = make([]model.JSONDocument, len(page.Docs))
		for i, d := range page.Docs {
			c.Documents[i] = model.JSONDocument(d)
		}
	}
	if !want.nodes && !want.edges {
		return c, nil
	}
	nodes, err := decodeAll[model.Transaction](page.Docs)
	if err != nil {
		return nil, err
	}
	c.Nodes = nodes
	if want.edges {
		c.Edges = make([]*model.TransactionEdge, len(nodes))
		for i, n := range nodes {
			c.Edges[i] = &model.TransactionEdge{Cursor: r.txCursor(f, page.Keys[i]), Node: n}
		}
	}
	return c, nil
}

func transactionFilter(accountID uuid.UUID, in *model.TransactionFilterInput) model.TransactionFilter {
	f := model.TransactionFilter{AccountID: accountID}
	if in != nil {
		f.IDs = in.IDs
		if in.DateFrom != nil {
			f.DateFrom = &in.DateFrom.Time
		}
		if in.DateTo != nil {
			f.DateTo = &in.DateTo.Time
		}
		if in.CreatedAtFrom != nil {
			f.CreatedAtFrom = &in.CreatedAtFrom.Time
		}
	}
	return f
}

// docPage is a page of product documents decoded for a connection.
type docPage[T any] struct {
	nodes   []*T
	cursors []string
	info    model.PageInfo
	total   int
}

type docCursor struct {
	Scope string `json:"o"`
	db.DocumentKey
}

func scopeKey(s db.DocumentScope) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// documents reads one keyset page of a product for a connection. The caller has checked
// that the scope's parent belongs to the caller; the query checks the client again.
func documents[T any](ctx context.Context, r *Resolver, clientID uuid.UUID, s db.DocumentScope, first *int, after *string) (*docPage[T], error) {
	limit, err := firstArg(first, defaultFirst)
	if err != nil {
		return nil, err
	}
	sk := scopeKey(s)
	var key *db.DocumentKey
	if after != nil && *after != "" {
		raw, err := r.Auth.OpenCursor(*after)
		var c docCursor
		if err != nil || json.Unmarshal(raw, &c) != nil || c.Scope != sk {
			return nil, model.Fail(model.CodeInvalidCursor, "The after cursor is not one this service issued for this list; pass endCursor of the previous page unchanged.")
		}
		key = &c.DocumentKey
	}
	docs, keys, err := r.DB.ProductDocumentPage(ctx, clientID, s, key, limit+1)
	if err != nil {
		return nil, err
	}
	pg := &docPage[T]{}
	if len(docs) > limit {
		docs, keys = docs[:limit], keys[:limit]
		pg.info.HasNextPage = true
	}
	if pg.nodes, err = decodeAll[T](docs); err != nil {
		return nil, err
	}
	cursor := func(k db.DocumentKey) string {
		b, _ := json.Marshal(docCursor{Scope: sk, DocumentKey: k})
		return r.Auth.SignCursor(b)
	}
	if n := len(keys); n > 0 {
		end := cursor(keys[n-1])
		pg.info.EndCursor = &end
	}
	if selected(ctx, "edges") {
		for _, k := range keys {
			pg.cursors = append(pg.cursors, cursor(k))
		}
	}
	if selected(ctx, "totalCount") {
		if pg.total, err = r.DB.ProductDocumentCount(ctx, clientID, s); err != nil {
			return nil, err
		}
	}
	return pg, nil
}

// edges pairs a page's nodes with their cursors, when the query asked for them.
func edges[T, E any](pg *docPage[T], edge func(cursor string, n *T) E) []E {
	out := make([]E, len(pg.cursors))
	for i, c := range pg.cursors {
		out[i] = edge(c, pg.nodes[i])
	}
	return out
}

func (r *Resolver) investmentConnection(ctx context.Context, clientID uuid.UUID, s db.DocumentScope, first *int, after *string) (*model.InvestmentConnection, error) {
	pg, err := documents[model.Investment](ctx, r, clientID, s, first, after)
	if err != nil {
		return nil, err
	}
	return &model.InvestmentConnection{TotalCount: pg.total, PageInfo: pg.info, Nodes: pg.nodes,
		Edges: edges(pg, func(c string, n *model.Investment) *model.InvestmentEdge {
			return &model.InvestmentEdge{Cursor: c, Node: n}
		})}, nil
}

func (r *Resolver) investmentTransactionConnection(ctx context.Context, clientID uuid.UUID, s db.DocumentScope, first *int, after *string) (*model.InvestmentTransactionConnection, error) {
	pg, err := documents[model.InvestmentTransaction](ctx, r, clientID, s, first, after)
	if err != nil {
		return nil, err
	}
	return &model.InvestmentTransactionConnection{TotalCount: pg.total, PageInfo: pg.info, Nodes: pg.nodes,
		Edges: edges(pg, func(c string, n *model.InvestmentTransaction) *model.InvestmentTransactionEdge {
			return &model.InvestmentTransactionEdge{Cursor: c, Node: n}
		})}, nil
}

func (r *Resolver) loanConnection(ctx context.Context, clientID uuid.UUID, s db.DocumentScope, first *int, after *string) (*model.LoanConnection, error) {
	pg, err := documents[model.Loan](ctx, r, clientID, s, first, after)
	if err != nil {
		return nil, err
	}
	return &model.LoanConnection{TotalCount: pg.total, PageInfo: pg.info, Nodes: pg.nodes,
		Edges: edges(pg, func(c string, n *model.Loan) *model.LoanEdge { return &model.LoanEdge{Cursor: c, Node: n} })}, nil
}

func (r *Resolver) billConnection(ctx context.Context, clientID uuid.UUID, s db.DocumentScope, first *int, after *string) (*model.CreditCardBillConnection, error) {
	pg, err := documents[model.CreditCardBill](ctx, r, clientID, s, first, after)
	if err != nil {
		return nil, err
	}
	return &model.CreditCardBillConnection{TotalCount: pg.total, PageInfo: pg.info, Nodes: pg.nodes,
		Edges: edges(pg, func(c string, n *model.CreditCardBill) *model.CreditCardBillEdge {
			return &model.CreditCardBillEdge{Cursor: c, Node: n}
		})}, nil
}

func (r *Resolver) statementConnection(ctx context.Context, clientID uuid.UUID, s db.DocumentScope, first *int, after *string) (*model.AccountStatementConnection, error) {
	pg, err := documents[model.AccountStatement](ctx, r, clientID, s, first, after)
	if err != nil {
		return nil, err
	}
	return &model.AccountStatementConnection{TotalCount: pg.total, PageInfo: pg.info, Nodes: pg.nodes,
		Edges: edges(pg, func(c string, n *model.AccountStatement) *model.AccountStatementEdge {
			return &model.AccountStatementEdge{Cursor: c, Node: n}
		})}, nil
}

func (r *Resolver) consentConnection(ctx context.Context, clientID uuid.UUID, s db.DocumentScope, first *int, after *string) (*model.ConsentConnection, error) {
	pg, err := documents[model.Consent](ctx, r, clientID, s, first, after)
	if err != nil {
		return nil, err
	}
	return &model.ConsentConnection{TotalCount: pg.total, PageInfo: pg.info, Nodes: pg.nodes,
		Edges: edges(pg, func(c string, n *model.Consent) *model.ConsentEdge { return &model.ConsentEdge{Cursor: c, Node: n} })}, nil
}

// productDoc reads one document by id as a model value.
func productDoc[T any](ctx context.Context, r *Resolver, kind string, id uuid.UUID) (*T, error) {
	raw, err := r.ProductByID(ctx, kind, id)
	if err != nil {
		return nil, err
	}
	v := new(T)
	return v, json.Unmarshal(raw, v)
}

// dataReader is the caller, for resolvers under a parent the caller could already read.
func dataReader(ctx context.Context) (*auth.Principal, error) {
	return auth.Require(ctx, auth.ReadProductData)
}
