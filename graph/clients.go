package graph

import (
	"context"

	"github.com/google/uuid"

	"ponte/model"
)

// The client application and its credentials: auth checks keys and answers what a
// credential is; itemsync issues Connect Tokens, whose options are the items' rules.

func (r *queryResolver) ClientApplication(ctx context.Context) (*model.ClientApplication, error) {
	return r.Auth.ClientApplication(ctx)
}

// CreateAPIKey exchanges client keys for an API key; the keys are its credential.
func (r *mutationResolver) CreateAPIKey(ctx context.Context, clientID, clientSecret string) (*model.APIKey, error) {
	return r.Auth.Authenticate(ctx, clientID, clientSecret)
}

func (r *mutationResolver) CreateConnectToken(ctx context.Context, itemID *uuid.UUID, options *model.ConnectTokenOptions) (*model.ConnectToken, error) {
	return r.Sync.CreateConnectToken(ctx, itemID, options)
}

func (r *queryResolver) ConnectSession(ctx context.Context) (*model.ConnectSession, error) {
	return r.Auth.ConnectSession(ctx)
}
