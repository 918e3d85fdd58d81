package rest

import (
	"context"
	"net/http"

	"ponte/model"
)

// Sandbox control of investments, their transactions, and the history of transaction
// changes: each route is the GraphQL field of the same name (graph/control_investments.go).

// sandboxInvestmentChanges is GET /sandbox/items/{id}/investments.
func (s *Server) sandboxInvestmentChanges() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id := in.id("id", "Item id")
		return func(ctx context.Context) (any, error) { return s.query.SandboxInvestmentChanges(ctx, id) }
	})
}

// sandboxTransactionChanges is GET /sandbox/items/{id}/transactions.
func (s *Server) sandboxTransactionChanges() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id := in.id("id", "Item id")
		return func(ctx context.Context) (any, error) { return s.query.SandboxTransactionChanges(ctx, id) }
	})
}

// addSandboxInvestments is POST /sandbox/items/{id}/investments.
func (s *Server) addSandboxInvestments() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id := in.id("id", "Item id")
		var body model.SandboxInvestmentsInput
		in.body(&body)
		return func(ctx context.Context) (any, error) {
			list := make([]*model.SandboxInvestmentInput, len(body.Investments))
			for i := range body.Investments {
				list[i] = &body.Investments[i]
			}
			return s.mut.SandboxAddInvestments(ctx, id, list)
		}
	})
}

// changeSandboxInvestment is PATCH /sandbox/items/{id}/investments/{investmentId}.
func (s *Server) changeSandboxInvestment() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id, inv := in.id("id", "Item id"), in.id("investmentId", "Investment id")
		var body model.SandboxInvestmentPatch
		in.body(&body)
		return func(ctx context.Context) (any, error) { return s.mut.SandboxChangeInvestment(ctx, id, inv, body) }
	})
}

// removeSandboxInvestment is DELETE /sandbox/items/{id}/investments/{investmentId}.
func (s *Server) removeSandboxInvestment() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id, inv := in.id("id", "Item id"), in.id("investmentId", "Investment id")
		return func(ctx context.Context) (any, error) { return s.mut.SandboxRemoveInvestment(ctx, id, inv) }
	})
}

// addSandboxInvestmentTransactions is POST /sandbox/items/{id}/investments/{investmentId}/transactions.
func (s *Server) addSandboxInvestmentTransactions() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id, inv := in.id("id", "Item id"), in.id("investmentId", "Investment id")
		var body model.SandboxInvestmentTransactionsInput
		in.body(&body)
		return func(ctx context.Context) (any, error) {
			list := make([]*model.SandboxInvestmentTransactionInput, len(body.Transactions))
			for i := range body.Transactions {
				list[i] = &body.Transactions[i]
			}
			return s.mut.SandboxAddInvestmentTransactions(ctx, id, inv, list)
		}
	})
}

// changeSandboxInvestmentTransaction is PATCH .../investments/{investmentId}/transactions/{transactionId}.
func (s *Server) changeSandboxInvestmentTransaction() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id, inv, tx := in.id("id", "Item id"), in.id("investmentId", "Investment id"), in.id("transactionId", "Investment transaction id")
		var body model.SandboxInvestmentTransactionPatch
		in.body(&body)
		return func(ctx context.Context) (any, error) {
			return s.mut.SandboxChangeInvestmentTransaction(ctx, id, inv, tx, body)
		}
	})
}

// removeSandboxInvestmentTransaction is DELETE .../investments/{investmentId}/transactions/{transactionId}.
func (s *Server) removeSandboxInvestmentTransaction() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id, inv, tx := in.id("id", "Item id"), in.id("investmentId", "Investment id"), in.id("transactionId", "Investment transaction id")
		return func(ctx context.Context) (any, error) {
			return s.mut.SandboxRemoveInvestmentTransaction(ctx, id, inv, tx)
		}
	})
}
