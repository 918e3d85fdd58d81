package rest

import (
	"context"
	"net/http"
)

// healthz answers while the process is up.
func (s *Server) healthz() http.HandlerFunc {
	return s.answer(func(context.Context) (any, error) { return map[string]string{"status": "ok"}, nil })
}

// readyz answers when the database is reachable and migrated.
func (s *Server) readyz() http.HandlerFunc {
	return s.answer(func(ctx context.Context) (any, error) {
		if err := s.res.Ready(ctx); err != nil {
			return nil, err
		}
		return map[string]string{"status": "ready"}, nil
	})
}
