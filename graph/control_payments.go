package graph

import (
	"context"

	"github.com/google/uuid"

	"ponte/model"
)

// Sandbox control of payments: the payments engine checks the caller, the owner and that
// the request is a sandbox one.

func (r *mutationResolver) SandboxMovePayment(ctx context.Context, kind string, id uuid.UUID, in model.SandboxPaymentMoveInput) (*model.SandboxPaymentMove, error) {
	return r.Payments.SandboxMove(ctx, kind, id, in)
}
