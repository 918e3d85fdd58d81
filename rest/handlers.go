package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"ponte/model"
)

func pathParam(r *http.Request, name string) string { return chi.URLParam(r, name) }

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	s.ok(w, map[string]string{"status": "ok"})
}

func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	if err := s.res.Ready(r.Context()); err != nil {
		s.writeJSON(w, http.StatusServiceUnavailable, model.ErrorBody{Code: http.StatusServiceUnavailable, CodeDescription: "NOT_READY", Message: err.Error()})
		return
	}
	s.ok(w, map[string]string{"status": "ready"})
}

func (s *Server) postAuth(w http.ResponseWriter, r *http.Request) {
	var body struct {
		ClientID     string `json:"clientId"`
		ClientSecret string `json:"clientSecret"`
	}
	if err := decode(r, &body); err != nil {
		s.writeError(w, r, err)
		return
	}
	key, err := s.res.Authenticate(r.Context(), body.ClientID, body.ClientSecret)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.ok(w, key)
}

func (s *Server) postConnectToken(w http.ResponseWriter, r *http.Request) {
	// Only itemId and options are read at the root (rule 1 of section 4.1); a root
	// clientUserId is dropped on purpose (rule 2).
	var body struct {
		ItemID  *string                    `json:"itemId"`
		Options *model.ConnectTokenOptions `json:"options"`
	}
	if err := decode(r, &body); err != nil {
		s.writeError(w, r, err)
		return
	}
	var itemID *uuid.UUID
	if body.ItemID != nil && *body.ItemID != "" {
		id, err := parseUUID(*body.ItemID)
		if err != nil {
			s.writeError(w, r, model.BadRequest(model.CodeInvalidParameter, "itemId must be a UUID (got %q).", *body.ItemID))
			return
		}
		itemID = &id
	}
	tok, err := s.mut.CreateConnectToken(r.Context(), itemID, body.Options)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.ok(w, tok)
}

func (s *Server) listConnectors(w http.ResponseWriter, r *http.Request) {
	q := queryOf(r, "countries", "types", "name", "sandbox", "healthDetails", "isOpenFinance",
		"supportsPaymentInitiation", "supportsSmartTransfers", "supportsAutomaticPix", "page", "pageSize")
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
	if q.err != nil {
		s.writeError(w, r, q.err)
		return
	}
	res, err := s.query.Connectors(r.Context(), f, healthDetails, page, pageSize)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.ok(w, res)
}

func (s *Server) getConnector(w http.ResponseWriter, r *http.Request) {
	q := queryOf(r, "healthDetails")
	healthDetails := q.boolean("healthDetails")
	id, err := intParam(r, "id", "Connector id")
	if err == nil {
		err = q.err
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	c, err := s.query.Connector(r.Context(), id, healthDetails)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.ok(w, c)
}

func (s *Server) validateConnector(w http.ResponseWriter, r *http.Request) {
	id, err := intParam(r, "id", "Connector id")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	params := map[string]any{}
	if err := decode(r, &params); err != nil {
		s.writeError(w, r, err)
		return
	}
	res, err := s.mut.ValidateConnectorParameters(r.Context(), id, params)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.ok(w, res)
}

func (s *Server) listCategories(w http.ResponseWriter, r *http.Request) {
	q := queryOf(r, "parentId", "page", "pageSize")
	parentID, page, pageSize := q.str("parentId"), q.integer("page"), q.integer("pageSize")
	if q.err != nil {
		s.writeError(w, r, q.err)
		return
	}
	res, err := s.query.Categories(r.Context(), parentID, page, pageSize)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.ok(w, res)
}

func (s *Server) getCategory(w http.ResponseWriter, r *http.Request) {
	c, err := s.query.Category(r.Context(), pathParam(r, "id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.ok(w, c)
}
