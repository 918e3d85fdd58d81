package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"ponte/model"
)

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

// createItemBody is the body of POST /items: an item's fields, and the test clock a
// sandbox item may live on, set at creation only.
type createItemBody struct {
	itemBody
	TestClockID *string `json:"testClockId"`
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

// createItem is POST /items.
func (s *Server) createItem() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		var b createItemBody
		in.body(&b)
		var item model.CreateItemInput
		if in.failure() == nil {
			if b.ConnectorID == nil {
				in.refuse(model.Fail(model.CodeInvalidParameter, "connectorId is required."))
			} else {
				params, enc, err := b.split()
				in.refuse(err)
				item = model.CreateItemInput{ConnectorID: *b.ConnectorID, Parameters: params,
					EncryptedParameters: enc, WebhookURL: b.WebhookURL, ClientUserID: b.ClientUserID,
					OAuthRedirectURI: b.OAuthRedirectURI, Products: b.Products, AvoidDuplicates: b.AvoidDuplicates, TestClockID: b.TestClockID}
			}
		}
		return func(ctx context.Context) (any, error) { return s.mut.CreateItem(ctx, item) }
	})
}

// updateItemBody is the body of PATCH /items/{id}: an item's fields, and whether the
// execution reads the whole history of transactions.
type updateItemBody struct {
	itemBody
	FullSync *bool `json:"fullSync"`
}

// updateItem is PATCH /items/{id}.
func (s *Server) updateItem() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id := in.id("id", "Item id")
		var b updateItemBody
		in.body(&b)
		var update model.UpdateItemInput
		if in.failure() == nil {
			params, enc, err := b.split()
			in.refuse(err)
			update = model.UpdateItemInput{Parameters: params, EncryptedParameters: enc,
				WebhookURL: b.WebhookURL, ClientUserID: b.ClientUserID, Products: b.Products, FullSync: b.FullSync}
		}
		return func(ctx context.Context) (any, error) { return s.mut.UpdateItem(ctx, id, &update) }
	})
}

// itemMFA is POST /items/{id}/mfa: the body is the parameter the item waits for.
func (s *Server) itemMFA() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id := in.id("id", "Item id")
		body := map[string]any{}
		in.body(&body)
		return func(ctx context.Context) (any, error) { return s.mut.SubmitItemMfa(ctx, id, body) }
	})
}

// getItem is GET /items/{id}.
func (s *Server) getItem() http.HandlerFunc {
	return s.byID("Item id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.query.Item(ctx, id) })
}

// deleteItem is DELETE /items/{id}.
func (s *Server) deleteItem() http.HandlerFunc {
	return s.byID("Item id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.mut.DeleteItem(ctx, id) })
}

// itemResources is GET /items/{id}/resources.
func (s *Server) itemResources() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id := in.id("id", "Item id")
		status := in.query("status").str("status")
		return func(ctx context.Context) (any, error) { return s.query.ItemResources(ctx, id, status) }
	})
}

// itemPage is the cursor envelope of GET /v2/items (section 2.1).
type itemPage struct {
	Results []*model.Item `json:"results"`
	Next    *string       `json:"next"`
}

// listItemsV2 is GET /v2/items.
func (s *Server) listItemsV2() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		q := in.query("clientUserId", "connectorId", "after")
		clientUserID, connectorID, after := q.str("clientUserId"), q.integer("connectorId"), q.str("after")
		return func(ctx context.Context) (any, error) {
			page, err := s.query.Items(ctx, clientUserID, connectorID, after)
			if err != nil {
				return nil, err
			}
			out := itemPage{Results: page.Results}
			if page.Next != nil {
				v := url.Values{}
				if clientUserID != nil {
					v.Set("clientUserId", *clientUserID)
				}
				if connectorID != nil {
					v.Set("connectorId", strconv.Itoa(*connectorID))
				}
				v.Set("after", *page.Next)
				out.Next = nextQuery(v)
			}
			return out, nil
		}
	})
}

// nextQuery is the next of a cursor envelope: a ready-made query string for the following
// page, which the client appends unchanged to the endpoint path (spec 2.1; 4.4 rule 1), so
// it starts with "?" and names no path. The official client resolves it against its base
// URL and reads after from it, which a query string serves as well as a path did.
func nextQuery(v url.Values) *string {
	n := "?" + v.Encode()
	return &n
}
