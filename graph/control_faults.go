package graph

import (
	"context"

	"ponte/model"
)

// Fault injection (sandbox control): the faults engine checks the caller and the rules.

func (r *queryResolver) SandboxFaults(ctx context.Context) ([]*model.SandboxFault, error) {
	return faultPointers(r.Faults.Faults(ctx))
}

func (r *mutationResolver) SetSandboxFaults(ctx context.Context, faults []*model.SandboxFault) ([]*model.SandboxFault, error) {
	return faultPointers(r.Faults.SetFaults(ctx, faults))
}

func faultPointers(rules []model.SandboxFault, err error) ([]*model.SandboxFault, error) {
	if err != nil {
		return nil, err
	}
	out := make([]*model.SandboxFault, len(rules))
	for i := range rules {
		out[i] = &rules[i]
	}
	return out, nil
}
