package rest

import (
	"context"
	"net/http"

	"github.com/google/uuid"
)

// creditInfoByItem answers GET /credit-information?itemId=: the item's one SCR report,
// not a list, as GET /identity does.
func (s *Server) creditInfoByItem() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		itemID := in.query("itemId").requiredUUID("itemId")
		return func(ctx context.Context) (any, error) { return s.query.CreditInformation(ctx, itemID, nil) }
	})
}

// creditInfoByID answers GET /credit-information/{id}.
func (s *Server) creditInfoByID() http.HandlerFunc {
	return s.byID("id", func(ctx context.Context, id uuid.UUID) (any, error) {
		return s.query.CreditInformation(ctx, nil, &id)
	})
}
