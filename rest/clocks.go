package rest

import (
	"context"
	"net/http"

	"github.com/google/uuid"

	"ponte/model"
)

// Test clocks (sandbox control): each route is the GraphQL field of the same name
// (graph/clocks.go).

// createTestClock is POST /sandbox/test-clocks.
func (s *Server) createTestClock() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		var body model.TestClockInput
		in.body(&body)
		return func(ctx context.Context) (any, error) { return s.mut.CreateTestClock(ctx, body) }
	})
}

// listTestClocks is GET /sandbox/test-clocks.
func (s *Server) listTestClocks() http.HandlerFunc {
	return s.pageOf(func(ctx context.Context, page, size *int) (any, error) { return s.query.TestClocks(ctx, page, size) })
}

// getTestClock is GET /sandbox/test-clocks/{id}.
func (s *Server) getTestClock() http.HandlerFunc {
	return s.byID("Test clock id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.query.TestClock(ctx, id) })
}

// advanceTestClock is POST /sandbox/test-clocks/{id}/advance.
func (s *Server) advanceTestClock() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id := in.id("id", "Test clock id")
		var body model.TestClockAdvanceInput
		in.body(&body)
		return func(ctx context.Context) (any, error) { return s.mut.AdvanceTestClock(ctx, id, body) }
	})
}

// deleteTestClock is DELETE /sandbox/test-clocks/{id}.
func (s *Server) deleteTestClock() http.HandlerFunc {
	return s.byID("Test clock id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.mut.DeleteTestClock(ctx, id) })
}
