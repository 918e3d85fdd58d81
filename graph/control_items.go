package graph

import (
	"context"

	"github.com/google/uuid"

	"ponte/model"
)

// Sandbox control of items and data: itemsync checks the caller, the item's
// owner and that it is a sandbox one.

func (r *mutationResolver) SandboxResetItemLogin(ctx context.Context, id uuid.UUID) (*model.Item, error) {
	return r.Sync.ResetItemLogin(ctx, id)
}

func (r *mutationResolver) SandboxSetItemStatus(ctx context.Context, id uuid.UUID, in model.SandboxItemStatusInput) (*model.Item, error) {
	return r.Sync.SetItemStatus(ctx, id, in)
}

func (r *mutationResolver) SandboxSetNextExecution(ctx context.Context, id uuid.UUID, in model.SandboxNextExecutionInput) (*model.SandboxNextExecution, error) {
	return r.Sync.SetNextExecution(ctx, id, in)
}

func (r *mutationResolver) SandboxSyncItem(ctx context.Context, id uuid.UUID) (*model.Item, error) {
	return r.Sync.SyncItemNow(ctx, id)
}

func (r *mutationResolver) SandboxDeleteClientData(ctx context.Context, confirm string) (*model.SandboxCleanSlate, error) {
	out, err := r.Sync.DeleteClientData(ctx, confirm)
	if err != nil {
		return nil, err
	}
	// The rules went with the rest; this replica stops applying them now, not a CacheFor later.
	if r.Faults != nil {
		r.Faults.Forget(out.ClientID)
	}
	return out, nil
}
