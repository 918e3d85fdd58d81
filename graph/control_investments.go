package graph

import (
	"context"

	"github.com/google/uuid"

	"ponte/model"
)

// Sandbox control of investments and their transactions, and the history of transaction
// changes: itemsync checks the caller, the item's owner and that it is a sandbox one.

func derefs[T any](list []*T) []T {
	out := make([]T, 0, len(list))
	for _, v := range list {
		if v != nil {
			out = append(out, *v)
		}
	}
	return out
}

func (r *queryResolver) SandboxInvestmentChanges(ctx context.Context, id uuid.UUID) ([]*model.SandboxInvestmentChange, error) {
	out, err := r.Sync.InvestmentChanges(ctx, id)
	if err != nil {
		return nil, err
	}
	return ptrs(out), nil
}

func (r *queryResolver) SandboxTransactionChanges(ctx context.Context, id uuid.UUID) ([]*model.SandboxTransactionChange, error) {
	out, err := r.Sync.TransactionChanges(ctx, id)
	if err != nil {
		return nil, err
	}
	return ptrs(out), nil
}

func (r *mutationResolver) SandboxAddInvestments(ctx context.Context, id uuid.UUID, investments []*model.SandboxInvestmentInput) ([]*model.SandboxInvestmentChange, error) {
	out, err := r.Sync.AddInvestments(ctx, id, derefs(investments))
	if err != nil {
		return nil, err
	}
	return ptrs(out), nil
}

func (r *mutationResolver) SandboxChangeInvestment(ctx context.Context, id, investmentID uuid.UUID, in model.SandboxInvestmentPatch) (*model.SandboxInvestmentChange, error) {
	return r.Sync.ChangeInvestment(ctx, id, investmentID, in)
}

func (r *mutationResolver) SandboxRemoveInvestment(ctx context.Context, id, investmentID uuid.UUID) (*model.SandboxInvestmentChange, error) {
	return r.Sync.RemoveInvestment(ctx, id, investmentID)
}

func (r *mutationResolver) SandboxAddInvestmentTransactions(ctx context.Context, id, investmentID uuid.UUID, transactions []*model.SandboxInvestmentTransactionInput) ([]*model.SandboxInvestmentChange, error) {
	out, err := r.Sync.AddInvestmentTransactions(ctx, id, investmentID, derefs(transactions))
	if err != nil {
		return nil, err
	}
	return ptrs(out), nil
}

func (r *mutationResolver) SandboxChangeInvestmentTransaction(ctx context.Context, id, investmentID, transactionID uuid.UUID, in model.SandboxInvestmentTransactionPatch) (*model.SandboxInvestmentChange, error) {
	return r.Sync.ChangeInvestmentTransaction(ctx, id, investmentID, transactionID, in)
}

func (r *mutationResolver) SandboxRemoveInvestmentTransaction(ctx context.Context, id, investmentID, transactionID uuid.UUID) (*model.SandboxInvestmentChange, error) {
	return r.Sync.RemoveInvestmentTransaction(ctx, id, investmentID, transactionID)
}
