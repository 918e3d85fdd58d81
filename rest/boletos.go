package rest

import (
	"context"
	"net/http"

	"github.com/google/uuid"

	"ponte/model"
)

// ---- boleto connections and boletos

func (s *Server) createBoletoConnection() http.HandlerFunc {
	type body struct {
		ItemID *string `json:"itemId"`
	}
	return withBody(s, func(ctx context.Context, in body) (any, error) { return s.mut.CreateBoletoConnection(ctx, in.ItemID) })
}

func (s *Server) listBoletoConnections() http.HandlerFunc {
	return s.pageOf(func(ctx context.Context, page, size *int) (any, error) {
		return s.query.BoletoConnections(ctx, page, size)
	})
}

func (s *Server) getBoletoConnection() http.HandlerFunc {
	return s.byID("Boleto connection id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.query.BoletoConnection(ctx, id) })
}

func (s *Server) createBoleto() http.HandlerFunc {
	return withBody(s, func(ctx context.Context, in model.CreateBoletoInput) (any, error) { return s.mut.CreateBoleto(ctx, in) })
}

func (s *Server) listBoletos() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		q := in.query("page", "pageSize", "boletoConnectionId", "status", "dueDateFrom", "dueDateTo")
		page, size := q.integer("page"), q.integer("pageSize")
		conn, status, from, to := q.str("boletoConnectionId"), q.str("status"), q.str("dueDateFrom"), q.str("dueDateTo")
		return func(ctx context.Context) (any, error) {
			return s.query.Boletos(ctx, conn, status, from, to, page, size)
		}
	})
}

func (s *Server) getBoleto() http.HandlerFunc {
	return s.byID("Boleto id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.query.Boleto(ctx, id) })
}

func (s *Server) cancelBoleto() http.HandlerFunc {
	return s.byID("Boleto id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.mut.CancelBoleto(ctx, id) })
}

func (s *Server) getBoletoPix() http.HandlerFunc {
	return s.byID("Boleto PIX charge id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.query.BoletoPixCharge(ctx, id) })
}

func (s *Server) payBoletoPix() http.HandlerFunc {
	return s.byID("Boleto PIX charge id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.mut.PayBoletoPixCharge(ctx, id) })
}
