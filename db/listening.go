package db

import (
	"context"
	"log/slog"
	"time"
)

// KeepListening keeps a listening session up until ctx ends: open connects and listens,
// then serve takes its notices until the session fails, and a new one is opened. A failed
// open is tried again after 100 ms, doubling up to 5 s. what names the session in the
// log; meanwhile says what the process does while it has none.
func KeepListening[L any](ctx context.Context, log *slog.Logger, what, meanwhile string,
	open func(context.Context) (L, error), serve func(context.Context, L) error) {
	const minWait, maxWait = 100 * time.Millisecond, 5 * time.Second
	wait := minWait
	for ctx.Err() == nil {
		l, err := open(ctx)
		if err != nil {
			if ctx.Err() == nil && log != nil {
				log.Warn(what+" cannot connect; "+meanwhile, "retryIn", wait, "err", err)
			}
			select {
			case <-ctx.Done():
			case <-time.After(wait):
			}
			wait = min(2*wait, maxWait)
			continue
		}
		wait = minWait
		if err := serve(ctx, l); err != nil && ctx.Err() == nil && log != nil {
			log.Warn(what+" lost its connection", "err", err)
		}
	}
}
