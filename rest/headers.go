package rest

import (
	"net/http"
	"strings"
)

// hstsValue asks browsers to use HTTPS only, for a year, once they reached the service over
// TLS. Subdomains are left out: the service does not know what else runs under its domain.
const hstsValue = "max-age=31536000"

// noFraming is the policy directive no page of the service goes without.
const noFraming = "frame-ancestors 'none'"

// The values securityHeaders gives every answer, shared rather than allocated per request
// (Header.Set makes a slice each time). Sharing is safe: each has length and capacity one,
// so a handler's Add appends to a copy, and Set and Del replace or drop the slice.
var (
	nosniffValue   = []string{"nosniff"}
	noStoreValue   = []string{"no-store"}
	denyValue      = []string{"DENY"}
	hstsValues     = []string{hstsValue}
	noFramingValue = []string{noFraming}
)

// securityHeaders sets, on every answer of every surface:
//   - X-Content-Type-Options: nosniff, so a browser never runs a JSON body as script;
//   - Cache-Control: no-store unless the handler chose otherwise (GraphiQL's assets): the
//     answers carry API keys (/auth, /connect_token, GraphQL mutations), signing secrets
//     and people's financial data, none of which belongs in a shared or disk cache;
//   - Strict-Transport-Security when the request came over TLS;
//   - X-Frame-Options: DENY and a Content-Security-Policy whose frame-ancestors is 'none'
//     (added to the handler's own policy when it sets one), so no page of the service can be
//     framed for clickjacking: the consent and authorisation pages take decisions on a click.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h["X-Content-Type-Options"] = nosniffValue
		h["Cache-Control"] = noStoreValue
		h["X-Frame-Options"] = denyValue
		if r.TLS != nil {
			h["Strict-Transport-Security"] = hstsValues
		}
		h["Content-Security-Policy"] = noFramingValue
		g := &frameGuard{ResponseWriter: w}
		next.ServeHTTP(g, r)
		g.guard() // a handler that wrote nothing: the header goes out after this
	})
}

// frameGuard fixes the Content-Security-Policy just before the header is sent, after the
// handler set its own.
type frameGuard struct {
	http.ResponseWriter
	sent bool
}

func (g *frameGuard) guard() {
	if g.sent {
		return
	}
	g.sent = true
	h := g.Header()
	// Most handlers leave both as securityHeaders set them; rewriting them anyway cost two
	// allocations and a split of the policy on every answer. Only a single value that is
	// already right is left: a second X-Frame-Options value makes browsers ignore both.
	if !only(h, "Content-Security-Policy", noFraming) {
		h.Set("Content-Security-Policy", withoutFraming(h.Get("Content-Security-Policy")))
	}
	if !only(h, "X-Frame-Options", "DENY") {
		h.Set("X-Frame-Options", "DENY")
	}
}

// only reports whether h holds exactly one value for the (canonical) key, and it is v.
func only(h http.Header, key, v string) bool {
	vs := h[key]
	return len(vs) == 1 && vs[0] == v
}

func (g *frameGuard) WriteHeader(code int) {
	g.guard()
	g.ResponseWriter.WriteHeader(code)
}

func (g *frameGuard) Write(b []byte) (int, error) {
	g.guard()
	return g.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection (flushes, deadlines).
func (g *frameGuard) Unwrap() http.ResponseWriter { return g.ResponseWriter }

// withoutFraming returns policy with its frame-ancestors directive, if any, replaced by
// frame-ancestors 'none'.
func withoutFraming(policy string) string {
	var kept []string
	for _, d := range strings.Split(policy, ";") {
		d = strings.TrimSpace(d)
		name, _, _ := strings.Cut(d, " ")
		if d == "" || strings.EqualFold(name, "frame-ancestors") {
			continue
		}
		kept = append(kept, d)
	}
	return strings.Join(append(kept, noFraming), "; ")
}
