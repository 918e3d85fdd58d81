package itemsync

import (
	"ponte/auth"
	"ponte/model"
)

// tokenOption applies one of a Connect Token's options to a body value. The application
// set the option when it issued the token; the token's holder (the end user's browser) may
// repeat it but not replace it, or the holder could move the item to another clientUserId
// or send its webhooks elsewhere.
func tokenOption[T comparable](field string, body, token *T) (*T, error) {
	if token == nil {
		return body, nil
	}
	if body != nil && *body != *token {
		return nil, model.Fail(model.CodeConnectTokenOptionConflict,
			"%s is set by this Connect Token's options; leave it out of the body or send the same value.", field).
			WithData(map[string]string{"field": field})
	}
	return token, nil
}

// applyTokenOptions puts a Connect Token's options over a creation's body (rule 3 of 4.1:
// they apply to every item the token creates).
func applyTokenOptions(p *auth.Principal, in *CreateInput) (err error) {
	if !p.IsConnectToken() {
		return nil
	}
	o := p.Options
	if in.ClientUserID, err = tokenOption("clientUserId", in.ClientUserID, o.ClientUserID); err != nil {
		return err
	}
	if in.WebhookURL, err = tokenOption("webhookUrl", in.WebhookURL, o.WebhookURL); err != nil {
		return err
	}
	if in.OAuthRedirectURI, err = tokenOption("oauthRedirectUri", in.OAuthRedirectURI, o.OAuthRedirectURI); err != nil {
		return err
	}
	in.AvoidDuplicates, err = tokenOption("avoidDuplicates", in.AvoidDuplicates, o.AvoidDuplicates)
	return err
}

// applyTokenUpdateOptions does the same for the fields an update may change.
func applyTokenUpdateOptions(p *auth.Principal, in *UpdateInput) (err error) {
	if !p.IsConnectToken() {
		return nil
	}
	o := p.Options
	if in.ClientUserID, err = tokenOption("clientUserId", in.ClientUserID, o.ClientUserID); err != nil {
		return err
	}
	in.WebhookURL, err = tokenOption("webhookUrl", in.WebhookURL, o.WebhookURL)
	return err
}
