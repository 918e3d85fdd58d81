package rest

import (
	"context"
	"net/http"

	"ponte/model"
)

// Sandbox control of bills: each route is the GraphQL field of the same name
// (graph/control_bills.go).

// sandboxBillChanges is GET /sandbox/items/{id}/bills.
func (s *Server) sandboxBillChanges() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id := in.id("id", "Item id")
		return func(ctx context.Context) (any, error) { return s.query.SandboxBillChanges(ctx, id) }
	})
}

// addSandboxBills is POST /sandbox/items/{id}/bills.
func (s *Server) addSandboxBills() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id := in.id("id", "Item id")
		var body model.SandboxBillsInput
		in.body(&body)
		return func(ctx context.Context) (any, error) {
			list := make([]*model.SandboxBillInput, len(body.Bills))
			for i := range body.Bills {
				list[i] = &body.Bills[i]
			}
			return s.mut.SandboxAddBills(ctx, id, list)
		}
	})
}

// changeSandboxBill is PATCH /sandbox/items/{id}/bills/{billId}.
func (s *Server) changeSandboxBill() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id, bid := in.id("id", "Item id"), in.id("billId", "Bill id")
		var body model.SandboxBillPatch
		in.body(&body)
		return func(ctx context.Context) (any, error) { return s.mut.SandboxChangeBill(ctx, id, bid, body) }
	})
}

// removeSandboxBill is DELETE /sandbox/items/{id}/bills/{billId}.
func (s *Server) removeSandboxBill() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id, bid := in.id("id", "Item id"), in.id("billId", "Bill id")
		return func(ctx context.Context) (any, error) { return s.mut.SandboxRemoveBill(ctx, id, bid) }
	})
}
