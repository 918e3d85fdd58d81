package itemsync

import (
	"slices"

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
func applyTokenOptions(p *auth.Principal, in *createInput) (err error) {
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
func applyTokenUpdateOptions(p *auth.Principal, in *updateInput) (err error) {
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

// checkTokenConnector holds a creation to the institutions a Connect Token's options
// allow (the Connect page lists only those; the token's holder may call the API directly)
// and gives the item the token's products when the body names none. An option left out
// allows everything: includeSandbox refuses sandbox connectors only when set to false.
func checkTokenConnector(p *auth.Principal, c *model.Connector, in *createInput) error {
	if !p.IsConnectToken() {
		return nil
	}
	o := p.Options
	outside := func(field string) error {
		return model.Fail(model.CodeConnectTokenOptionConflict,
			"Connector %d (%s) is outside this Connect Token's %s option; request a token that allows it.", c.ID, c.Name, field).
			WithData(map[string]string{"field": field})
	}
	if len(o.ConnectorTypes) > 0 && !slices.Contains(o.ConnectorTypes, c.Type) {
		return outside("connectorTypes")
	}
	if len(o.Countries) > 0 && !slices.Contains(o.Countries, c.Country) {
		return outside("countries")
	}
	if o.IncludeSandbox != nil && !*o.IncludeSandbox && c.IsSandbox {
		return outside("includeSandbox")
	}
	for _, want := range o.Products {
		if !slices.Contains(c.Products, want) {
			return outside("products")
		}
	}
	if len(o.Products) > 0 {
		if in.Products == nil {
			in.Products = slices.Clone(o.Products)
		} else if !sameProducts(in.Products, o.Products) {
			return model.Fail(model.CodeConnectTokenOptionConflict,
				"products is set by this Connect Token's options; leave it out of the body or send the same products.").
				WithData(map[string]string{"field": "products"})
		}
	}
	return nil
}

func sameProducts(a, b []model.Product) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(slices.Compact(x), slices.Compact(y))
}
