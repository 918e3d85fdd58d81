package rest

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

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
		s.writeError(w, r, err)
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
			s.writeError(w, r, model.Fail(model.CodeInvalidParameter, "itemId must be a UUID (got %q).", *body.ItemID))
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

// itemBody is the body of POST /items and PATCH /items/{id}. parameters may be an object
// or, encrypted, a string: it is kept raw until the resolver decides.
type itemBody struct {
	ConnectorID      *int            `json:"connectorId"`
	Parameters       json.RawMessage `json:"parameters"`
	WebhookURL       *string         `json:"webhookUrl"`
	ClientUserID     *string         `json:"clientUserId"`
	OAuthRedirectURI *string         `json:"oauthRedirectUri"`
	Products         []model.Product `json:"products"`
	AvoidDuplicates  *bool           `json:"avoidDuplicates"`
}

// split turns raw parameters into the input's object or encrypted-string form.
func (b *itemBody) split() (map[string]any, *string, error) {
	raw := strings.TrimSpace(string(b.Parameters))
	switch {
	case raw == "" || raw == "null":
		return nil, nil, nil
	case strings.HasPrefix(raw, `"`):
		var s string
		if err := json.Unmarshal(b.Parameters, &s); err != nil {
			return nil, nil, model.Fail(model.CodeInvalidParameter, "parameters must be an object or a Base64 string.")
		}
		return nil, &s, nil
	case strings.HasPrefix(raw, "{"):
		m := map[string]any{}
		if err := json.Unmarshal(b.Parameters, &m); err != nil {
			return nil, nil, model.Fail(model.CodeInvalidParameter, "parameters must be an object or a Base64 string.")
		}
		return m, nil, nil
	}
	return nil, nil, model.Fail(model.CodeInvalidParameter, "parameters must be an object of credentials or a Base64 string of them encrypted.")
}

func (s *Server) createItem(w http.ResponseWriter, r *http.Request) {
	var b itemBody
	if err := decode(r, &b); err != nil {
		s.writeError(w, r, err)
		return
	}
	if b.ConnectorID == nil {
		s.writeError(w, r, model.Fail(model.CodeInvalidParameter, "connectorId is required."))
		return
	}
	params, enc, err := b.split()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	it, err := s.mut.CreateItem(r.Context(), model.CreateItemInput{ConnectorID: *b.ConnectorID, Parameters: params,
		EncryptedParameters: enc, WebhookURL: b.WebhookURL, ClientUserID: b.ClientUserID,
		OAuthRedirectURI: b.OAuthRedirectURI, Products: b.Products, AvoidDuplicates: b.AvoidDuplicates})
	s.respond(w, r, it, err)
}

func (s *Server) updateItem(w http.ResponseWriter, r *http.Request) {
	id, err := uuidParam(r, "id", "Item id")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var b itemBody
	if err := decode(r, &b); err != nil {
		s.writeError(w, r, err)
		return
	}
	params, enc, err := b.split()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	it, err := s.mut.UpdateItem(r.Context(), id, &model.UpdateItemInput{Parameters: params, EncryptedParameters: enc,
		WebhookURL: b.WebhookURL, ClientUserID: b.ClientUserID, Products: b.Products})
	s.respond(w, r, it, err)
}

func (s *Server) itemMFA(w http.ResponseWriter, r *http.Request) {
	id, err := uuidParam(r, "id", "Item id")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	body := map[string]any{}
	if err := decode(r, &body); err != nil {
		s.writeError(w, r, err)
		return
	}
	it, err := s.mut.SubmitItemMfa(r.Context(), id, body)
	s.respond(w, r, it, err)
}

func (s *Server) getItem(w http.ResponseWriter, r *http.Request) {
	id, err := uuidParam(r, "id", "Item id")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	it, err := s.query.Item(r.Context(), id)
	s.respond(w, r, it, err)
}

func (s *Server) deleteItem(w http.ResponseWriter, r *http.Request) {
	id, err := uuidParam(r, "id", "Item id")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	it, err := s.mut.DeleteItem(r.Context(), id)
	s.respond(w, r, it, err)
}

func (s *Server) listItemsV2(w http.ResponseWriter, r *http.Request) {
	q := queryOf(r, "clientUserId", "connectorId", "after")
	clientUserID, connectorID, after := q.str("clientUserId"), q.integer("connectorId"), q.str("after")
	if q.err != nil {
		s.writeError(w, r, q.err)
		return
	}
	page, err := s.query.Items(r.Context(), clientUserID, connectorID, after)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// next is a ready-made query string (section 2.1's cursor envelope).
	out := struct {
		Results []*model.Item `json:"results"`
		Next    *string       `json:"next"`
	}{Results: page.Results}
	if page.Next != nil {
		v := url.Values{}
		if clientUserID != nil {
			v.Set("clientUserId", *clientUserID)
		}
		if connectorID != nil {
			v.Set("connectorId", strconv.Itoa(*connectorID))
		}
		v.Set("after", *page.Next)
		next := "/v2/items?" + v.Encode()
		out.Next = &next
	}
	s.ok(w, out)
}

func (s *Server) respond(w http.ResponseWriter, r *http.Request, v any, err error) {
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.ok(w, v)
}

func (s *Server) itemResources(w http.ResponseWriter, r *http.Request) {
	id, err := uuidParam(r, "id", "Item id")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	q := queryOf(r, "status")
	status := q.str("status")
	if q.err != nil {
		s.writeError(w, r, q.err)
		return
	}
	page, err := s.query.ItemResources(r.Context(), id, status)
	s.respond(w, r, page, err)
}

func (s *Server) listAccounts(w http.ResponseWriter, r *http.Request) {
	q := queryOf(r, "itemId", "type")
	itemID, typ := q.requiredUUID("itemId"), q.str("type")
	if q.err != nil {
		s.writeError(w, r, q.err)
		return
	}
	page, err := s.query.Accounts(r.Context(), *itemID, typ)
	s.respond(w, r, page, err)
}

func (s *Server) getAccount(w http.ResponseWriter, r *http.Request) {
	id, err := uuidParam(r, "id", "Account id")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	a, err := s.query.Account(r.Context(), id)
	s.respond(w, r, a, err)
}

func (s *Server) listTransactionsV2(w http.ResponseWriter, r *http.Request) {
	q := queryOf(r, "accountId", "ids", "dateFrom", "dateTo", "createdAtFrom", "after")
	accountID := q.requiredUUID("accountId")
	f := model.TransactionFilter{IDs: q.uuids("ids"), DateFrom: q.date("dateFrom"), DateTo: q.date("dateTo"), CreatedAtFrom: q.date("createdAtFrom")}
	after := q.str("after")
	if q.err != nil {
		s.writeError(w, r, q.err)
		return
	}
	f.AccountID = *accountID
	page, err := s.res.TransactionsV2(r.Context(), f, after)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var next *string
	if page.After != nil {
		// The same query with the cursor: the client appends it unchanged.
		v := r.URL.Query()
		v.Set("after", *page.After)
		n := "/v2/transactions?" + v.Encode()
		next = &n
	}
	s.writeRawPage(w, page.Results, next)
}

func (s *Server) getTransaction(w http.ResponseWriter, r *http.Request) {
	id, err := uuidParam(r, "id", "Transaction id")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	raw, err := s.res.Transaction(r.Context(), id)
	s.respond(w, r, raw, err)
}

func (s *Server) patchTransaction(w http.ResponseWriter, r *http.Request) {
	id, err := uuidParam(r, "id", "Transaction id")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var body struct {
		CategoryID *string `json:"categoryId"`
	}
	if err := decode(r, &body); err != nil {
		s.writeError(w, r, err)
		return
	}
	if body.CategoryID == nil {
		s.writeError(w, r, model.Fail(model.CodeInvalidParameter, "categoryId is required."))
		return
	}
	raw, err := s.res.SetTransactionCategory(r.Context(), id, *body.CategoryID)
	s.respond(w, r, raw, err)
}

func (s *Server) listCategoryFeedback(w http.ResponseWriter, r *http.Request) {
	if q := queryOf(r); q.err != nil {
		s.writeError(w, r, q.err)
		return
	}
	list, err := s.query.CategoryFeedback(r.Context())
	s.respond(w, r, map[string]any{"results": list}, err)
}

// productList serves a page-number list of one product, by item or by owner.
func (s *Server) productList(kind, parent string, typed bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		allowed := []string{parent, "page", "pageSize"}
		if typed {
			allowed = append(allowed, "type")
		}
		q := queryOf(r, allowed...)
		parentID, page, pageSize := q.requiredUUID(parent), q.integer("page"), q.integer("pageSize")
		var typ *string
		if typed {
			typ = q.str("type")
		}
		if q.err != nil {
			s.writeError(w, r, q.err)
			return
		}
		var itemID, ownerID *uuid.UUID
		if parent == "itemId" {
			itemID = parentID
		} else {
			ownerID = parentID
		}
		res, err := s.res.ProductList(r.Context(), kind, itemID, ownerID, typ, page, pageSize)
		s.respond(w, r, res, err)
	}
}

// productOwned lists the products under a path owner: /investments/{id}/transactions,
// /accounts/{id}/statements.
func (s *Server) productOwned(kind string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := uuidParam(r, "id", "id")
		// The official client repeats the investment id in the query; it must agree.
		q := queryOf(r, "page", "pageSize", "investmentId")
		page, pageSize := q.integer("page"), q.integer("pageSize")
		if again := q.uuid("investmentId"); err == nil && q.err == nil && again != nil && (kind != "investment_transaction" || *again != id) {
			q.fail("investmentId", "must be the investment of the path (%s).", id)
		}
		if err == nil {
			err = q.err
		}
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		res, err := s.res.ProductList(r.Context(), kind, nil, &id, nil, page, pageSize)
		s.respond(w, r, res, err)
	}
}

func (s *Server) productByID(kind string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := uuidParam(r, "id", "id")
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		raw, err := s.res.ProductByID(r.Context(), kind, id)
		s.respond(w, r, raw, err)
	}
}

// identityByItem answers GET /identity?itemId=: the item's one identity, not a list.
func (s *Server) identityByItem(w http.ResponseWriter, r *http.Request) {
	q := queryOf(r, "itemId")
	itemID := q.requiredUUID("itemId")
	if q.err != nil {
		s.writeError(w, r, q.err)
		return
	}
	raw, err := s.res.IdentityByItem(r.Context(), *itemID)
	s.respond(w, r, raw, err)
}

// listTransactionsLegacy is the deprecated page-number list; responses say so in headers.
func (s *Server) listTransactionsLegacy(w http.ResponseWriter, r *http.Request) {
	q := queryOf(r, "accountId", "pageSize", "page", "from", "to", "ids", "billId", "createdAtFrom")
	accountID := q.requiredUUID("accountId")
	f := model.LegacyTransactionFilter{BillID: q.uuid("billId"), TransactionFilter: model.TransactionFilter{
		IDs: q.uuids("ids"), DateFrom: q.date("from"), DateTo: q.date("to"), CreatedAtFrom: q.date("createdAtFrom")}}
	page, pageSize := q.integer("page"), q.integer("pageSize")
	h := w.Header()
	h.Set("Deprecation", "true")
	h.Set("Sunset", "Thu, 31 Dec 2026 23:59:59 GMT")
	h.Set("Link", `</v2/transactions>; rel="successor-version"`)
	if q.err != nil {
		s.writeError(w, r, q.err)
		return
	}
	f.AccountID = *accountID
	res, err := s.res.LegacyTransactions(r.Context(), f, page, pageSize)
	s.respond(w, r, res, err)
}
