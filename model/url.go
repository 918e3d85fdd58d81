package model

// The URL rules of the API live here, one per use, so every field that takes a URL
// applies the same one: CheckRedirectURL for a URL a browser is sent to, CheckEventURL for
// a URL this service calls with events. model is the one package every layer imports, so
// itemsync, payments, webhooks and graph reach these without an import cycle.

import (
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// CheckRedirectURL applies the rule of URLs a browser is sent to when a flow ends (an
// item's or a Connect Token's oauthRedirectUri, a payment request's callbackUrls):
// absolute http or https, since an application under development runs on plain HTTP,
// and no user:password, with which https://bank.example@evil.example reads as the bank.
func CheckRedirectURL(field, v string) error {
	u, err := absoluteHTTP(field, v, "an absolute http or https URL")
	if err != nil {
		return err
	}
	if u.User != nil {
		return Fail(CodeInvalidParameter, "%s must not carry a user name or password.", field)
	}
	return nil
}

// privateSuffixes are name spaces that never name a public host: .localhost is loopback
// (RFC 6761), .local is multicast DNS on the local link (RFC 6762), .internal is reserved for
// private networks (ICANN, 2024; clouds name their metadata services under it) and
// .home.arpa is for home networks (RFC 8375).
var privateSuffixes = []string{"localhost", "local", "internal", "home.arpa"}

// insecureHint ends the refusals a developer meets with a local receiver: it names the
// switch that lifts them, which the service's configuration reads.
const insecureHint = "; for local development the service can be started with PONTE_ALLOW_INSECURE_WEBHOOKS=1, which lifts this rule."

// CheckEventURL applies the rules of section 2.12 to a URL that will receive events: absolute
// HTTPS, a host name (not localhost or another private name space, not an IP address in any
// spelling), no user:password. With allowInsecure (local development) plain HTTP, localhost
// and IP addresses pass too. The text is only the first check: deliveries connect to public
// addresses only, whatever the name resolves to (see webhooks.IsPublic).
func CheckEventURL(field, v string, allowInsecure bool) error {
	u, err := absoluteHTTP(field, v, "an absolute https URL")
	if err != nil {
		return err
	}
	if u.User != nil {
		return Fail(CodeInvalidParameter, "%s must not carry a user name or password; send credentials in the webhook's headers instead.", field)
	}
	if allowInsecure {
		return nil
	}
	if u.Scheme != "https" {
		return Fail(CodeInvalidParameter, "%s must use https (got %q)%s", field, v, insecureHint)
	}
	host := asciiFolded(u.Hostname())
	for _, s := range privateSuffixes {
		if host == s || strings.HasSuffix(host, "."+s) {
			if s == "localhost" {
				return Fail(CodeInvalidParameter, "%s must not point at localhost%s", field, insecureHint)
			}
			return Fail(CodeInvalidParameter, "%s must name a public host, not one under .%s (got %q)%s", field, s, host, insecureHint)
		}
	}
	if isIPLiteral(host) {
		return Fail(CodeInvalidParameter, "%s must name a host, not an IP address (got %q)%s", field, host, insecureHint)
	}
	if !strings.Contains(host, ".") {
		return Fail(CodeInvalidParameter, "%s must name a public host with a domain (got %q)%s", field, host, insecureHint)
	}
	return nil
}

// absoluteHTTP parses v as an http or https URL with a host and, if it names a port, a port
// from 1 to 65535; every rule on a URL (these two and Origin) starts with it. A refusal says
// field must be want. url.Parse takes any run of digits after the colon, and none: port 0
// or 99999 is stored and later fails to connect or redirect, and a browser refuses an empty
// port or reads it as the scheme's, so what is stored would not be what is used.
func absoluteHTTP(field, v, want string) (*url.URL, error) {
	u, err := url.Parse(v)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") || u.Opaque != "" {
		return nil, Fail(CodeInvalidParameter, "%s must be %s (got %q).", field, want, v)
	}
	if port, ok := portOf(u.Host); ok {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || strings.Trim(port, "0123456789") != "" {
			return nil, Fail(CodeInvalidParameter, "%s has the port %.20q; a port is a number from 1 to 65535, or left out (got %q).", field, port, v)
		}
	}
	return u, nil
}

// portOf is what follows the colon after host's name or bracketed address, and whether
// there is such a colon ("host:" has an empty port).
func portOf(host string) (string, bool) {
	i := strings.LastIndexByte(host, ':')
	if i < 0 || i < strings.LastIndexByte(host, ']') {
		return "", false
	}
	return host[i+1:], true
}

// isIPLiteral reports a host that some layer would read as an IP address. Any IPv6 form has
// a colon (brackets are gone by now). For IPv4 it is the WHATWG URL standard's "ends in a
// number" rule: a host whose last label is decimal digits or 0x and hex digits is parsed as
// an address by browsers and by inet_aton, which accepts octal (0177.0.0.1), hex (0x7f.1),
// a single number (2130706433) and short forms (127.1, 10.1). No top-level domain is
// numeric, so no real name is refused.
func isIPLiteral(host string) bool {
	if strings.ContainsAny(host, ":%") {
		return true
	}
	labels := strings.Split(host, ".")
	last := labels[len(labels)-1]
	if last == "" {
		return false
	}
	digits := "0123456789"
	if rest, ok := strings.CutPrefix(last, "0x"); ok {
		last, digits = rest, "0123456789abcdef"
	}
	return strings.Trim(last, digits) == ""
}

// asciiFolded is a host as name lookups will see it, lower-cased without its final dot:
// IDNA maps full-width and other compatibility forms of digits and letters (NFKC) and the
// ideographic full stops to ASCII, so "１２７。０。０。１" is 127.0.0.1 to a resolver.
func asciiFolded(host string) string {
	host = strings.NewReplacer("\u3002", ".", "\uff0e", ".", "\uff61", ".").Replace(norm.NFKC.String(host))
	return strings.ToLower(strings.TrimSuffix(host, "."))
}
