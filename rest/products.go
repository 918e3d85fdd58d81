package rest

import (
	"context"
	"net/http"

	"github.com/google/uuid"
)

// productList serves a page-number list of one product, by item or by owner.
func (s *Server) productList(kind, parent string, typed bool) http.HandlerFunc {
	allowed := []string{parent, "page", "pageSize"}
	if typed {
		allowed = append(allowed, "type")
	}
	return s.handle(func(in *input) resolve {
		q := in.query(allowed...)
		parentID, page, pageSize := q.requiredUUID(parent), q.integer("page"), q.integer("pageSize")
		var typ *string
		if typed {
			typ = q.str("type")
		}
		return func(ctx context.Context) (any, error) {
			return s.productPage(ctx, kind, *parentID, typ, page, pageSize)
		}
	})
}

// productOwned lists the products under a path owner: /investments/{id}/transactions,
// /accounts/{id}/statements.
func (s *Server) productOwned(kind string) http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id := in.id("id", "id")
		// The official client repeats the investment id in the query; it must agree.
		q := in.query("page", "pageSize", "investmentId")
		page, pageSize := q.integer("page"), q.integer("pageSize")
		if again := q.uuid("investmentId"); in.failure() == nil && again != nil && (kind != "investment_transaction" || *again != id) {
			q.fail("investmentId", "must be the investment of the path (%s).", id)
		}
		return func(ctx context.Context) (any, error) {
			return s.productPage(ctx, kind, id, nil, page, pageSize)
		}
	})
}

// productPage reads a page of one product under its parent (an item, an account or an
// investment), the page-number query of its kind.
func (s *Server) productPage(ctx context.Context, kind string, parent uuid.UUID, typ *string, page, pageSize *int) (any, error) {
	switch kind {
	case "investment":
		return s.query.InvestmentsPage(ctx, parent, typ, page, pageSize)
	case "investment_transaction":
		return s.query.InvestmentTransactionsPage(ctx, parent, page, pageSize)
	case "loan":
		return s.query.LoansPage(ctx, parent, page, pageSize)
	case "bill":
		return s.query.BillsPage(ctx, parent, page, pageSize)
	case "statement":
		return s.query.AccountStatementsPage(ctx, parent, page, pageSize)
	case "consent":
		return s.query.ConsentsPage(ctx, parent, page, pageSize)
	}
	panic("rest: no page-number list of " + kind)
}

// productByID serves one product document by its id, as stored.
func (s *Server) productByID(kind string) http.HandlerFunc {
	return s.byID("id", func(ctx context.Context, id uuid.UUID) (any, error) {
		switch kind {
		case "investment":
			return storedDocument(s.query.Investment(ctx, id))
		case "loan":
			return storedDocument(s.query.Loan(ctx, id))
		case "bill":
			return storedDocument(s.query.Bill(ctx, id))
		case "consent":
			return storedDocument(s.query.Consent(ctx, id))
		case "identity":
			return storedDocument(s.query.Identity(ctx, nil, &id))
		}
		panic("rest: no document of " + kind)
	})
}

// identityByItem answers GET /identity?itemId=: the item's one identity, not a list.
func (s *Server) identityByItem() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		itemID := in.query("itemId").requiredUUID("itemId")
		return func(ctx context.Context) (any, error) { return storedDocument(s.query.Identity(ctx, itemID, nil)) }
	})
}
