package rest

import (
	"context"
	"net/http"

	"github.com/google/uuid"

	"ponte/model"
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

// listCategoryRules is GET /categories/rules.
func (s *Server) listCategoryRules() http.HandlerFunc {
	return s.pageOf(func(ctx context.Context, page, size *int) (any, error) { return s.query.CategoryRules(ctx, page, size) })
}

// createCategoryRule is POST /categories/rules.
func (s *Server) createCategoryRule() http.HandlerFunc {
	return withBody(s, func(ctx context.Context, b model.CategoryRuleInput) (any, error) {
		return s.mut.CreateCategoryRule(ctx, b)
	})
}

// deleteCategoryRule is DELETE /categories/rules/{id}.
func (s *Server) deleteCategoryRule() http.HandlerFunc {
	return s.byID("Category rule id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.mut.DeleteCategoryRule(ctx, id) })
}
