package graph

import (
	"context"

	"github.com/google/uuid"

	"ponte/model"
)

// Sandbox control of data: itemsync checks the caller, the item's owner and
// that it is a sandbox one.

func (r *mutationResolver) SandboxAddTransactions(ctx context.Context, id uuid.UUID, transactions []*model.SandboxTransactionInput) ([]*model.SandboxTransactionChange, error) {
	in := make([]model.SandboxTransactionInput, 0, len(transactions))
	for _, t := range transactions {
		if t != nil {
			in = append(in, *t)
		}
	}
	out, err := r.Sync.AddTransactions(ctx, id, in)
	if err != nil {
		return nil, err
	}
	list := make([]*model.SandboxTransactionChange, len(out))
	for i := range out {
		list[i] = &out[i]
	}
	return list, nil
}

func (r *mutationResolver) SandboxChangeTransaction(ctx context.Context, id, transactionID uuid.UUID, in model.SandboxTransactionPatch) (*model.SandboxTransactionChange, error) {
	return r.Sync.ChangeTransaction(ctx, id, transactionID, in)
}

func (r *mutationResolver) SandboxRemoveTransaction(ctx context.Context, id, transactionID uuid.UUID) (*model.SandboxTransactionChange, error) {
	return r.Sync.RemoveTransaction(ctx, id, transactionID)
}
