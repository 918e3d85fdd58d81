package rest

import (
	"context"
	"net/http"

	"ponte/model"
)

// Sandbox control of data: each route is the GraphQL mutation of the same name
// (graph/control_data.go).

// addSandboxTransactions is POST /sandbox/items/{id}/transactions.
func (s *Server) addSandboxTransactions() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id := in.id("id", "Item id")
		var body model.SandboxTransactionsInput
		in.body(&body)
		return func(ctx context.Context) (any, error) {
			list := make([]*model.SandboxTransactionInput, len(body.Transactions))
			for i := range body.Transactions {
				list[i] = &body.Transactions[i]
			}
			return s.mut.SandboxAddTransactions(ctx, id, list)
		}
	})
}

// changeSandboxTransaction is PATCH /sandbox/items/{id}/transactions/{transactionId}.
func (s *Server) changeSandboxTransaction() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id, tid := in.id("id", "Item id"), in.id("transactionId", "Transaction id")
		var body model.SandboxTransactionPatch
		in.body(&body)
		return func(ctx context.Context) (any, error) { return s.mut.SandboxChangeTransaction(ctx, id, tid, body) }
	})
}

// removeSandboxTransaction is DELETE /sandbox/items/{id}/transactions/{transactionId}.
func (s *Server) removeSandboxTransaction() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id, tid := in.id("id", "Item id"), in.id("transactionId", "Transaction id")
		return func(ctx context.Context) (any, error) { return s.mut.SandboxRemoveTransaction(ctx, id, tid) }
	})
}
