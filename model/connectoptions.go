package model

import (
	"slices"
	"strings"
)

// CheckConnectOptions checks the Connect page's options of a Connect Token (the ones after
// avoidDuplicates in ConnectTokenOptions): known countries, connector types and products,
// an absolute redirectUri, and a targetOrigin that is an origin and nothing more, since the
// page posts its messages to exactly that origin.
func CheckConnectOptions(o ConnectTokenOptions) error {
	for _, c := range o.Countries {
		if c != "BR" {
			return Fail(CodeInvalidParameter, "options.countries: %q is not a country of the catalogue (BR).", c)
		}
	}
	for _, t := range o.ConnectorTypes {
		if !slices.Contains(ConnectorTypes, t) {
			return Fail(CodeInvalidParameter, "options.connectorTypes: %q is not a connector type.", string(t))
		}
	}
	for _, p := range o.Products {
		if !slices.Contains(Products, p) {
			return Fail(CodeInvalidParameter, "options.products: %q is not a product.", string(p))
		}
	}
	if o.RedirectURI != nil && *o.RedirectURI != "" {
		if err := CheckRedirectURL("options.redirectUri", *o.RedirectURI); err != nil {
			return err
		}
	}
	if o.TargetOrigin != nil {
		if _, err := checkOrigin("options.targetOrigin", *o.TargetOrigin); err != nil {
			return err
		}
	}
	return nil
}

// Origin returns v as a browser spells an origin (scheme://host[:port], lower case) when v
// is one, with at most a trailing slash after it.
func Origin(v string) (string, bool) {
	o, err := checkOrigin("origin", v)
	return o, err == nil
}

// checkOrigin is Origin, saying what is wrong with a v that is not an origin.
func checkOrigin(field, v string) (string, error) {
	const want = "an origin: http or https, a host and an optional port from 1 to 65535, nothing after"
	u, err := absoluteHTTP(field, v, want)
	if err != nil {
		return "", err
	}
	if u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(v, "?") || strings.HasSuffix(v, "#") {
		return "", Fail(CodeInvalidParameter, "%s must be %s (got %q).", field, want, v)
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), nil
}
