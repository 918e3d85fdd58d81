package auth

import (
	"context"

	"ponte/model"
)

// What a credential tells its holder about itself: the application it belongs to, and a
// Connect Token's own item and options.

// ClientApplication reads the calling application.
func (s *Service) ClientApplication(ctx context.Context) (*model.ClientApplication, error) {
	p, err := Require(ctx, ReadClient)
	if err != nil {
		return nil, err
	}
	c, found, err := s.db.Client(ctx, p.ClientID)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeAPIKeyInvalid, "The client application of this credential no longer exists.")
	}
	return c, nil
}

// ConnectSession is what the Connect page needs to know about the token it was opened
// with (GET /connect_token): the item it updates or created, and the application's
// options. Only a Connect Token has one.
func (s *Service) ConnectSession(ctx context.Context) (*model.ConnectSession, error) {
	p, err := Require(ctx, ReadConnectors)
	if err != nil {
		return nil, err
	}
	if !p.IsConnectToken() {
		return nil, model.Fail(model.CodeForbidden, "GET /connect_token describes a Connect Token; send one in X-API-KEY.")
	}
	return &model.ConnectSession{ItemID: p.ItemID, Options: p.Options}, nil
}
