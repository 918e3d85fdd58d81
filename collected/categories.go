package collected

import (
	"context"

	"ponte/auth"
	"ponte/model"
)

// Categories lists the category tree, or the children of parentID.
func (e *Engine) Categories(ctx context.Context, parentID *string, page, pageSize *int) (*model.CategoryPage, error) {
	if _, err := auth.Require(ctx, auth.ReadCategories); err != nil {
		return nil, err
	}
	p, limit, offset, err := model.PageArgs(page, pageSize)
	if err != nil {
		return nil, err
	}
	list, total, err := e.reads(ctx).ListCategories(ctx, parentID, limit, offset)
	if err != nil {
		return nil, err
	}
	return &model.CategoryPage{Total: total, TotalPages: model.TotalPages(total, limit), Page: p, Results: nonNil(list)}, nil
}

// Category reads one category.
func (e *Engine) Category(ctx context.Context, id string) (*model.Category, error) {
	if _, err := auth.Require(ctx, auth.ReadCategories); err != nil {
		return nil, err
	}
	c, found, err := e.reads(ctx).Category(ctx, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeCategoryNotFound, "Category %q not found.", id)
	}
	return c, nil
}
