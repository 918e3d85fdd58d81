package graph

import (
	"context"

	"ponte/auth"
	"ponte/model"
)

func (r *queryResolver) Categories(ctx context.Context, parentID *string, page, pageSize *int) (*model.CategoryPage, error) {
	if _, err := auth.Require(ctx, auth.ReadCategories); err != nil {
		return nil, err
	}
	p, limit, offset, err := pageArgs(page, pageSize)
	if err != nil {
		return nil, err
	}
	list, total, err := r.DB.ListCategories(ctx, parentID, limit, offset)
	if err != nil {
		return nil, err
	}
	return &model.CategoryPage{Total: total, TotalPages: totalPages(total, limit), Page: p, Results: nonNil(list)}, nil
}

func (r *queryResolver) Category(ctx context.Context, id string) (*model.Category, error) {
	if _, err := auth.Require(ctx, auth.ReadCategories); err != nil {
		return nil, err
	}
	c, found, err := r.DB.Category(ctx, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeCategoryNotFound, "Category %q not found.", id)
	}
	return c, nil
}
