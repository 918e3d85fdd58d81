package rest

import (
	"context"
	"net/http"

	"github.com/google/uuid"

	"ponte/model"
)

// Sandbox control of items and data: each route is the GraphQL mutation of the
// same name (graph/control_items.go).

// resetItemLogin is POST /sandbox/items/{id}/reset-login.
func (s *Server) resetItemLogin() http.HandlerFunc {
	return s.byID("Item id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.mut.SandboxResetItemLogin(ctx, id) })
}

// setItemStatus is POST /sandbox/items/{id}/status.
func (s *Server) setItemStatus() http.HandlerFunc {
	return withIDBody(s, "Item id", func(ctx context.Context, id uuid.UUID, in model.SandboxItemStatusInput) (any, error) {
		return s.mut.SandboxSetItemStatus(ctx, id, in)
	})
}

// setNextExecution is POST /sandbox/items/{id}/next-execution.
func (s *Server) setNextExecution() http.HandlerFunc {
	return withIDBody(s, "Item id", func(ctx context.Context, id uuid.UUID, in model.SandboxNextExecutionInput) (any, error) {
		return s.mut.SandboxSetNextExecution(ctx, id, in)
	})
}

// syncItemNow is POST /sandbox/items/{id}/sync.
func (s *Server) syncItemNow() http.HandlerFunc {
	return s.byID("Item id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.mut.SandboxSyncItem(ctx, id) })
}

// deleteClientData is DELETE /sandbox/client?confirm=<client id>.
func (s *Server) deleteClientData() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		confirm := in.query("confirm").str("confirm")
		return func(ctx context.Context) (any, error) {
			c := ""
			if confirm != nil {
				c = *confirm
			}
			return s.mut.SandboxDeleteClientData(ctx, c)
		}
	})
}
