package graph

import (
	"context"

	"github.com/google/uuid"

	"ponte/model"
)

// Sandbox control of bills: itemsync checks the caller, the item's owner and that it is a
// sandbox one.

func ptrs[T any](list []T) []*T {
	out := make([]*T, len(list))
	for i := range list {
		out[i] = &list[i]
	}
	return out
}

func (r *queryResolver) SandboxBillChanges(ctx context.Context, id uuid.UUID) ([]*model.SandboxBillChange, error) {
	out, err := r.Sync.BillChanges(ctx, id)
	if err != nil {
		return nil, err
	}
	return ptrs(out), nil
}

func (r *mutationResolver) SandboxAddBills(ctx context.Context, id uuid.UUID, bills []*model.SandboxBillInput) ([]*model.SandboxBillChange, error) {
	in := make([]model.SandboxBillInput, 0, len(bills))
	for _, b := range bills {
		if b != nil {
			in = append(in, *b)
		}
	}
	out, err := r.Sync.AddBills(ctx, id, in)
	if err != nil {
		return nil, err
	}
	return ptrs(out), nil
}

func (r *mutationResolver) SandboxChangeBill(ctx context.Context, id, billID uuid.UUID, in model.SandboxBillPatch) (*model.SandboxBillChange, error) {
	return r.Sync.ChangeBill(ctx, id, billID, in)
}

func (r *mutationResolver) SandboxRemoveBill(ctx context.Context, id, billID uuid.UUID) (*model.SandboxBillChange, error) {
	return r.Sync.RemoveBill(ctx, id, billID)
}
