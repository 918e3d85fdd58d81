package rest

import (
	"context"
	"net/http"
)

// listCategories is GET /categories.
func (s *Server) listCategories() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		q := in.query("parentId", "page", "pageSize")
		parentID, page, pageSize := q.str("parentId"), q.integer("page"), q.integer("pageSize")
		return func(ctx context.Context) (any, error) { return s.query.Categories(ctx, parentID, page, pageSize) }
	})
}

// getCategory is GET /categories/{id}; category ids are the tree's codes, not UUIDs.
func (s *Server) getCategory() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id := in.path("id")
		return func(ctx context.Context) (any, error) { return s.query.Category(ctx, id) }
	})
}
