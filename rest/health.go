package rest

import (
	"context"
	"net/http"
	"time"

	"ponte/model"
)

// Database is what the probes and the database gate ask of the store.
type Database interface {
	// Available is the database monitor's verdict: false while the database is known to be
	// away, so requests can be refused at once.
	Available() bool
	// Pending lists the migrations not yet applied.
	Pending(ctx context.Context) ([]string, error)
}

// readyTimeout bounds the readiness check: a load balancer's probe must get its answer
// within a second even when the database never answers.
const readyTimeout = 800 * time.Millisecond

// healthz answers while the process is up.
func (s *Server) healthz() http.HandlerFunc {
	return s.answer(func(context.Context) (any, error) { return map[string]string{"status": "ok"}, nil })
}

// readyz answers when the database is reachable and migrated.
func (s *Server) readyz() http.HandlerFunc {
	return s.answer(func(ctx context.Context) (any, error) {
		if err := s.ready(ctx); err != nil {
			return nil, err
		}
		return map[string]string{"status": "ready"}, nil
	})
}

// ready reports whether the database answers and every migration is applied. The answer
// names no host, socket, user or database: the cause goes to the log.
func (s *Server) ready(ctx context.Context) error {
	if !s.db.Available() {
		return model.Fail(model.CodeDatabaseUnavailable, "The database is not reachable.")
	}
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	pending, err := s.db.Pending(ctx)
	if err != nil {
		s.log.WarnContext(ctx, "readiness check failed", "err", err)
		return model.Fail(model.CodeDatabaseUnavailable, "The database is not reachable.")
	}
	if len(pending) > 0 {
		return model.Fail(model.CodeNotReady, "Migrations are pending.")
	}
	return nil
}
