package rest

import (
	"context"
	"net/http"

	"ponte/model"
)

// movePayment is POST /sandbox/payments/{kind}/{id}/status for one kind
// (payments.ControlKinds), the GraphQL mutation sandboxMovePayment
// (graph/control_payments.go). Each kind is a route of its own so that the route table,
// the OpenAPI document and the test matrices name what exists.
func (s *Server) movePayment(kind, what string) http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id := in.id("id", what)
		var body model.SandboxPaymentMoveInput
		in.body(&body)
		return func(ctx context.Context) (any, error) { return s.mut.SandboxMovePayment(ctx, kind, id, body) }
	})
}
