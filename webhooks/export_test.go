package webhooks

import (
	"context"

	"github.com/google/uuid"

	"ponte/db"
)

// RecordAttemptBatch runs one batch of attempt logs as the engine's shared batches run it,
// fallback included, and returns each attempt's error.
func (e *Engine) RecordAttemptBatch(ctx context.Context, list []db.AttemptRecord) []error {
	_, errs := e.recordAttempts(ctx, list)
	return errs
}

// LogAttempt logs an attempt through the shared batches, as a delivery worker does.
func (e *Engine) LogAttempt(ctx context.Context, r db.AttemptRecord) error {
	_, err := e.logs.do(ctx, r)
	return err
}

// ReadDelivery reads a delivery through the shared batches, as a delivery worker does: nil
// once it is gone.
func (e *Engine) ReadDelivery(ctx context.Context, id uuid.UUID) (*db.PendingDelivery, error) {
	return e.reads.do(ctx, id)
}

// TakeHostPlace takes a place to send to host as a delivery does; ok is false when the
// delivery would go back to the queue. give ends the place as a delivery's answer does.
func (e *Engine) TakeHostPlace(ctx context.Context, host string) (give func(), ok bool) {
	p, _ := e.take(ctx, host)
	if p == nil {
		return nil, false
	}
	return func() { e.give(ctx, p, 0) }, true
}
