package graph

import (
	"context"

	"ponte/model"
)

func (r *queryResolver) Categories(ctx context.Context, parentID *string, page, pageSize *int) (*model.CategoryPage, error) {
	return r.Collected.Categories(ctx, parentID, page, pageSize)
}

func (r *queryResolver) Category(ctx context.Context, id string) (*model.Category, error) {
	return r.Collected.Category(ctx, id)
}
