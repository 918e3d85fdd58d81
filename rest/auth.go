package rest

import (
	"context"
	"net/http"

	"github.com/google/uuid"

	"ponte/model"
)

// postAuth exchanges an application's keys for an API key (POST /auth).
func (s *Server) postAuth() http.HandlerFunc {
	type body struct {
		ClientID     string `json:"clientId"`
		ClientSecret string `json:"clientSecret"`
	}
	return withBody(s, func(ctx context.Context, b body) (any, error) {
		return s.mut.CreateAPIKey(ctx, b.ClientID, b.ClientSecret)
	})
}

// postConnectToken creates a Connect Token (POST /connect_token). Only itemId and options
// are read at the root (rule 1 of section 4.1); a root clientUserId is dropped on purpose
// (rule 2).
func (s *Server) postConnectToken() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		var b struct {
			ItemID  *string                    `json:"itemId"`
			Options *model.ConnectTokenOptions `json:"options"`
		}
		in.body(&b)
		var itemID *uuid.UUID
		if in.failure() == nil && b.ItemID != nil && *b.ItemID != "" {
			id, err := parseUUID(*b.ItemID)
			if err != nil {
				in.refuse(model.Fail(model.CodeInvalidParameter, "itemId must be a UUID (got %q).", *b.ItemID))
			}
			itemID = &id
		}
		return func(ctx context.Context) (any, error) {
			return s.mut.CreateConnectToken(ctx, itemID, b.Options)
		}
	})
}
