package graph

import (
	"context"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/model"
)

func (r *queryResolver) ClientApplication(ctx context.Context) (*model.ClientApplication, error) {
	p, err := auth.Require(ctx, auth.ReadClient)
	if err != nil {
		return nil, err
	}
	c, found, err := r.DB.Client(ctx, p.ClientID)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeAPIKeyInvalid, "The client application of this credential no longer exists.")
	}
	return c, nil
}

// Authenticate exchanges client keys for an API key; it needs no credential.
func (r *Resolver) Authenticate(ctx context.Context, clientID, clientSecret string) (*model.APIKey, error) {
	return r.Auth.Authenticate(ctx, clientID, clientSecret)
}

// CreateConnectToken follows section 4.1: only itemId and options are read, and an itemId
// must name one of the caller's items.
func (r *mutationResolver) CreateConnectToken(ctx context.Context, itemID *uuid.UUID, options *model.ConnectTokenOptions) (*model.ConnectToken, error) {
	p, err := auth.Require(ctx, auth.IssueConnectToken)
	if err != nil {
		return nil, err
	}
	if itemID != nil {
		found, err := r.DB.ItemExists(ctx, p.ClientID, *itemID)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, model.Fail(model.CodeItemNotFound, "Item %s not found.", itemID)
		}
	}
	var opts model.ConnectTokenOptions
	if options != nil {
		opts = *options
	}
	if err := r.Sync.CheckWebhookURL("options.webhookUrl", opts.WebhookURL); err != nil {
		return nil, err
	}
	if err := checkURL("options.oauthRedirectUri", opts.OAuthRedirectURI); err != nil {
		return nil, err
	}
	return r.Auth.IssueConnectToken(ctx, p, itemID, opts)
}
