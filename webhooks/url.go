package webhooks

import (
	"net"
	"net/url"
	"strings"

	"ponte/model"
)

// CheckURL applies the rules of section 2.12 to a URL that will receive events: absolute
// HTTPS, a host name (not localhost, not a bare IP address), no user:password. With
// allowInsecure (local development) plain HTTP, localhost and IP addresses pass too.
func CheckURL(field, v string, allowInsecure bool) error {
	u, err := url.Parse(v)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") || u.Opaque != "" {
		return model.BadRequest(model.CodeInvalidParameter, "%s must be an absolute https URL (got %q).", field, v)
	}
	if u.User != nil {
		return model.BadRequest(model.CodeInvalidParameter, "%s must not carry a user name or password; send credentials in the webhook's headers instead.", field)
	}
	if allowInsecure {
		return nil
	}
	if u.Scheme != "https" {
		return model.BadRequest(model.CodeInvalidParameter, "%s must use https (got %q).", field, v)
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return model.BadRequest(model.CodeInvalidParameter, "%s must not point at localhost.", field)
	}
	if net.ParseIP(host) != nil {
		return model.BadRequest(model.CodeInvalidParameter, "%s must name a host, not an IP address (got %q).", field, host)
	}
	if !strings.Contains(host, ".") {
		return model.BadRequest(model.CodeInvalidParameter, "%s must name a public host with a domain (got %q).", field, host)
	}
	return nil
}
