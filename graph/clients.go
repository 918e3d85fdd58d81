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
	if err := model.CheckConnectOptions(opts); err != nil {
		return nil, err
	}
	if opts.TargetOrigin != nil {
		origin, _ := model.Origin(*opts.TargetOrigin)
		opts.TargetOrigin = &origin
	}
	return r.Auth.IssueConnectToken(ctx, p, itemID, opts)
}

// ConnectSession is GET /connect_token: what the Connect page needs to know about the token
// it was opened with (the item it updates or created, the application's options). Only a
// Connect Token has one.
func (r *Resolver) ConnectSession(ctx context.Context) (*model.ConnectSession, error) {
	p, err := auth.Require(ctx, auth.ReadConnectors)
	if err != nil {
		return nil, err
	}
	if !p.IsConnectToken() {
		return nil, model.Fail(model.CodeForbidden, "GET /connect_token describes a Connect Token; send one in X-API-KEY.")
	}
	s := &model.ConnectSession{Options: p.Options}
	if p.ItemID != nil {
		id := p.ItemID.String()
		s.ItemID = &id
	}
	return s, nil
}
