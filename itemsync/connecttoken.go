package itemsync

import (
	"context"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/model"
)

// CreateConnectToken issues a Connect Token (POST /connect_token, section 4.1): only itemId
// and options are read, an itemId must name one of the caller's items, and the options
// pass the rules the items they will be applied to must pass.
func (e *Engine) CreateConnectToken(ctx context.Context, itemID *uuid.UUID, options *model.ConnectTokenOptions) (*model.ConnectToken, error) {
	p, err := caller(ctx, auth.IssueConnectToken)
	if err != nil {
		return nil, err
	}
	if itemID != nil {
		found, clock, err := e.db.ItemClockTime(ctx, p.ClientID, *itemID)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, model.Fail(model.CodeItemNotFound, "Item %s not found.", itemID)
		}
		if clock != nil {
			// The token expires in the item's clock time (auth.IssueConnectToken).
			ctx = model.WithClock(ctx, *clock)
		}
	}
	var opts model.ConnectTokenOptions
	if options != nil {
		opts = *options
	}
	if err := e.checkWebhookURL("options.webhookUrl", opts.WebhookURL); err != nil {
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
	return e.auth.IssueConnectToken(ctx, p, itemID, opts)
}
