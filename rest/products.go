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
		var itemID, ownerID *uuid.UUID
		if parent == "itemId" {
			itemID = parentID
		} else {
			ownerID = parentID
		}
		return func(ctx context.Context) (any, error) {
			return s.res.Collected.ProductList(ctx, kind, itemID, ownerID, typ, page, pageSize)
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
			return s.res.Collected.ProductList(ctx, kind, nil, &id, nil, page, pageSize)
		}
	})
}

// productByID serves one product document by its id.
func (s *Server) productByID(kind string) http.HandlerFunc {
	return s.byID("id", func(ctx context.Context, id uuid.UUID) (any, error) {
		return s.res.Collected.ProductByID(ctx, kind, id)
	})
}

// identityByItem answers GET /identity?itemId=: the item's one identity, not a list.
func (s *Server) identityByItem() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		itemID := in.query("itemId").requiredUUID("itemId")
		return func(ctx context.Context) (any, error) { return s.res.Collected.IdentityByItem(ctx, *itemID) }
	})
}
