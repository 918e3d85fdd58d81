package graph

import (
	"context"

	"github.com/google/uuid"

	"ponte/model"
)

func (r *queryResolver) CategoryRules(ctx context.Context, page, pageSize *int) (*model.CategoryRulePage, error) {
	return r.Sync.CategoryRules(ctx, page, pageSize)
}

func (r *mutationResolver) CreateCategoryRule(ctx context.Context, input model.CategoryRuleInput) (*model.CategoryRule, error) {
	return r.Sync.CreateCategoryRule(ctx, input)
}

func (r *mutationResolver) DeleteCategoryRule(ctx context.Context, id uuid.UUID) (*model.CategoryRule, error) {
	return r.Sync.DeleteCategoryRule(ctx, id)
}
