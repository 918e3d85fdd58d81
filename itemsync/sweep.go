package itemsync

import (
	"context"
	"time"

	"ponte/db"
)

// Sweep re-enqueues executions that stopped moving: their process died mid-step, and no
// one holds their lock. River would rescue the job too, but only after its leader's lease
// and rescue interval pass (tens of seconds); this brings the wait down to staleAfter. An
// extra job is harmless: the execution lock and the state machine make it a no-op.
func (e *Engine) Sweep(ctx context.Context) (int, error) {
	stale := e.staleAfter()
	ids, err := e.db.StalledExecutions(ctx, e.now().Add(-stale), 500)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, id := range ids {
		claimed, err := e.db.ExecutionClaimed(ctx, id)
		if err != nil {
			return n, err
		}
		if claimed {
			continue
		}
		if err := e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
			return e.enqueue(ctx, tx, ExecutionArgs{ExecutionID: id}, nil)
		}); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

func (e *Engine) staleAfter() time.Duration {
	return 5*time.Second + 3*e.cfg.StepDelay
}

// RunSweeper sweeps at start and then every few seconds until ctx ends.
func (e *Engine) RunSweeper(ctx context.Context) {
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for {
		if n, err := e.Sweep(ctx); err != nil && ctx.Err() == nil {
			e.log.Warn("execution sweep failed", "err", err)
		} else if n > 0 {
			e.log.Info("resumed stalled executions", "count", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
