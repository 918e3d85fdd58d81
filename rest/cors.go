package rest

import (
	"net/http"
	"strings"

	"ponte/auth"
	"ponte/model"
)

// Cross-origin calls (CORS). The browser client calls the API from the application's own
// page with a Connect Token, so the browser asks first (a preflight) and then lets the page
// read an answer only when it names the page's origin. The origins a call is allowed from
// are the operator's (Config.BrowserOrigins, PONTE_BROWSER_ORIGINS) and the Connect Token's
// own options.targetOrigin, and nothing else: no wildcard, and an API key, a server's
// secret, never gets an answer a browser may read.
//
// A preflight carries no credential, so it cannot tell which token will follow. It is
// answered for any well-formed origin; the decision is taken on the actual call, which
// carries the token: an origin neither the operator nor that token allows gets no
// Access-Control-Allow-Origin there, and the browser hides the answer from the page. The
// preflight's yes grants nothing by itself: the API takes no cookie or other ambient
// credential, so a page can only act with a token it already holds, which its owner could
// as well send from a server.

// corsMethods are the methods the browser client uses (and the API serves).
const corsMethods = "GET, POST, PUT, PATCH, DELETE"

// corsHeaders are the request headers the browser client sends beyond the ones browsers
// always allow: the credential, the JSON body's type and its own user agent header.
const corsHeaders = "X-API-KEY, Content-Type, Pluggy-User-Agent, Idempotency-Key"

// corsMaxAge lets a browser reuse a preflight's answer for ten minutes.
const corsMaxAge = "600"

// preflight answers a CORS preflight (OPTIONS with Origin and
// Access-Control-Request-Method) from a well-formed origin with 204 and the methods and
// headers the API accepts. Any other OPTIONS goes on to the router, which refuses the
// method: the browser then refuses the call.
func (s *Server) preflight(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodOptions || r.Header.Get("Access-Control-Request-Method") == "" {
			next.ServeHTTP(w, r)
			return
		}
		origin := wellFormedOrigin(r)
		if origin == "" {
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", origin)
		h.Add("Vary", "Origin")
		h.Set("Access-Control-Allow-Methods", corsMethods)
		h.Set("Access-Control-Allow-Headers", corsHeaders)
		h.Set("Access-Control-Max-Age", corsMaxAge)
		w.WriteHeader(http.StatusNoContent)
	})
}

// allowOrigin lets the browser show the page an answer to a call made from an allowed
// origin. It runs after authenticate, since the token's targetOrigin is one of them.
func (s *Server) allowOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(r.Header["Origin"]) > 0 {
			// The answer depends on the Origin whether or not it is allowed: a cache (none
			// should keep these, see Cache-Control) must not hand one origin's to another.
			h := w.Header()
			h.Add("Vary", "Origin")
			if origin := s.corsOrigin(r); origin != "" {
				h.Set("Access-Control-Allow-Origin", origin)
			}
		}
		next.ServeHTTP(w, r)
	})
}

// corsOrigin is r's Origin when an answer to r may be read by a page of that origin, or "".
func (s *Server) corsOrigin(r *http.Request) string {
	origin := wellFormedOrigin(r)
	if origin == "" {
		return ""
	}
	p := scopeOf(r).cred.Principal
	if p != nil && p.Kind == auth.KindAPIKey {
		return "" // a server's secret: a browser holding one must not be helped to use it
	}
	if s.browserOrigins[origin] {
		return origin // the operator's origins also read refusals of a missing or bad token
	}
	if p != nil && p.IsConnectToken() && p.Options.TargetOrigin != nil && *p.Options.TargetOrigin == origin {
		return origin
	}
	return ""
}

// wellFormedOrigin is r's one Origin header when it is an origin exactly as a browser spells
// it (model.Origin's form), or "": "null", a path or upper case never match an allowed one.
func wellFormedOrigin(r *http.Request) string {
	vs := r.Header["Origin"]
	if len(vs) != 1 {
		return ""
	}
	o, ok := model.Origin(vs[0])
	if !ok || o != vs[0] || strings.HasSuffix(o, "/") {
		return ""
	}
	return o
}

// originSet is the operator's origins as a set, each already in model.Origin's form.
func originSet(list []string) map[string]bool {
	set := make(map[string]bool, len(list))
	for _, o := range list {
		if v, ok := model.Origin(o); ok {
			set[v] = true
		}
	}
	return set
}
