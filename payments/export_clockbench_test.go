package payments

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/model"
)

// RunClockJobsDirectly runs the clock's jobs due by until in this process, in time order,
// each with the clock at its time in ctx, as an advance runs them, but without the advance:
// no job of its own, no status, no clock saved between runs. It is the baseline the cost of
// an advance is measured against, and returns how many jobs it ran.
func (e *Engine) RunClockJobsDirectly(ctx context.Context, clockID uuid.UUID, until time.Time) (int, error) {
	runners := e.clockRunners()
	for n := 0; ; n++ {
		var next *db.ClockJob
		err := e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
			j, found, err := tx.NextClockJob(ctx, clockID, until)
			if found {
				next = j
			}
			return err
		})
		if err != nil || next == nil {
			return n, err
		}
		run, ok := runners[next.Kind]
		if !ok {
			return n, fmt.Errorf("no runner for job kind %s", next.Kind)
		}
		failed := ""
		if err := run(model.WithClock(ctx, model.Clock{ID: clockID, Now: next.ScheduledAt}), next); err != nil {
			failed = err.Error()
		}
		if err := e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error { return tx.FinishClockJob(ctx, next, failed, 25) }); err != nil {
			return n, err
		}
	}
}
