package rest

import (
	"context"
	"net/http"

	"ponte/model"
)

// listConnectors is GET /connectors: the catalogue, filtered (section 4.2).
func (s *Server) listConnectors() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		q := in.query("countries", "types", "name", "sandbox", "healthDetails", "isOpenFinance",
			"supportsPaymentInitiation", "supportsSmartTransfers", "supportsAutomaticPix", "page", "pageSize", "includeHealth")
		// includeHealth is what the browser client always sends: a connector always carries
		// its health, so either value answers the same; only its form is checked.
		q.boolean("includeHealth")
		f := &model.ConnectorFilter{
			Countries:                 q.list("countries"),
			Name:                      q.str("name"),
			Sandbox:                   q.boolean("sandbox"),
			IsOpenFinance:             q.boolean("isOpenFinance"),
			SupportsPaymentInitiation: q.boolean("supportsPaymentInitiation"),
			SupportsSmartTransfers:    q.boolean("supportsSmartTransfers"),
			SupportsAutomaticPix:      q.boolean("supportsAutomaticPix"),
		}
		for _, t := range q.list("types") {
			f.Types = append(f.Types, model.ConnectorType(t))
		}
		healthDetails, page, pageSize := q.boolean("healthDetails"), q.integer("page"), q.integer("pageSize")
		return func(ctx context.Context) (any, error) {
			return s.query.Connectors(ctx, f, healthDetails, page, pageSize)
		}
	})
}

// getConnector is GET /connectors/{id}.
func (s *Server) getConnector() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id := in.number("id", "Connector id")
		q := in.query("healthDetails", "includeHealth")
		q.boolean("includeHealth") // as on GET /connectors: health is always there
		healthDetails := q.boolean("healthDetails")
		return func(ctx context.Context) (any, error) { return s.query.Connector(ctx, id, healthDetails) }
	})
}

// validateConnector is POST /connectors/{id}/validate: the body is the credentials to check.
func (s *Server) validateConnector() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id := in.number("id", "Connector id")
		params := map[string]any{}
		in.body(&params)
		return func(ctx context.Context) (any, error) { return s.mut.ValidateConnectorParameters(ctx, id, params) }
	})
}
