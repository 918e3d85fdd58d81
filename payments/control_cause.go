package payments

import (
	"context"

	"ponte/model"
)

// A control move's steps say so in the intent's status history (its cause), so a reader
// of the history tells a step the developer forced from one the payer or the institution
// made. The mark rides the move's context: every step the move causes, the request's end
// and an authorization's end included, carries it, and nothing else does.

type controlKey struct{}

// asControl marks ctx as a sandbox control move's.
func asControl(ctx context.Context) context.Context {
	return context.WithValue(ctx, controlKey{}, true)
}

// stepCause is the cause a status-history step records in ctx ("" for none).
func stepCause(ctx context.Context) string {
	if on, _ := ctx.Value(controlKey{}).(bool); on {
		return model.StepCauseSandboxControl
	}
	return ""
}
