package graph

import (
	"context"

	"github.com/google/uuid"

	"ponte/model"
)

// Test clocks (sandbox control): the payments engine checks the caller and the rules.

func (r *queryResolver) TestClocks(ctx context.Context, page, pageSize *int) (*model.TestClockPage, error) {
	return r.Payments.TestClocks(ctx, page, pageSize)
}

func (r *queryResolver) TestClock(ctx context.Context, id uuid.UUID) (*model.TestClock, error) {
	return r.Payments.TestClock(ctx, id)
}

func (r *mutationResolver) CreateTestClock(ctx context.Context, input model.TestClockInput) (*model.TestClock, error) {
	return r.Payments.CreateTestClock(ctx, input)
}

func (r *mutationResolver) AdvanceTestClock(ctx context.Context, id uuid.UUID, input model.TestClockAdvanceInput) (*model.TestClock, error) {
	return r.Payments.AdvanceTestClock(ctx, id, input)
}

func (r *mutationResolver) DeleteTestClock(ctx context.Context, id uuid.UUID) (*model.TestClock, error) {
	return r.Payments.DeleteTestClock(ctx, id)
}
