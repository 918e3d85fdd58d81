package rest

import (
	"context"
	"net/http"
)

// lookupMerchants is GET /merchants?cnpjs=A,B,... (the parameter may repeat).
func (s *Server) lookupMerchants() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		cnpjs := in.query("cnpjs").list("cnpjs")
		return func(ctx context.Context) (any, error) { return s.query.Merchants(ctx, cnpjs) }
	})
}
