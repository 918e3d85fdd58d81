package graph

import (
	"context"
	"time"

	"ponte/model"
)

// readyTimeout bounds the readiness check: a load balancer's probe must get its answer
// within a second even when the database never answers.
const readyTimeout = 800 * time.Millisecond

// Ready reports whether the database answers and every migration is applied. The answer
// names no host, socket, user or database: the cause goes to the log.
func (r *Resolver) Ready(ctx context.Context) error {
	if !r.DatabaseAvailable() {
		return model.Fail(model.CodeDatabaseUnavailable, "The database is not reachable.")
	}
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	pending, err := r.DB.Pending(ctx)
	if err != nil {
		r.Log.Warn("readiness check failed", "err", err)
		return model.Fail(model.CodeDatabaseUnavailable, "The database is not reachable.")
	}
	if len(pending) > 0 {
		return model.Fail(model.CodeNotReady, "Migrations are pending.")
	}
	return nil
}

// DatabaseAvailable is the database monitor's verdict (see db.DB.Available): false while
// the database is known to be away, so requests can be refused at once.
func (r *Resolver) DatabaseAvailable() bool { return r.DB.Available() }
